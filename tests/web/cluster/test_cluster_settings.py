"""The cluster's settings and start-up checks, the health endpoint, the nudge format, and the
read that must not mistake another worker's fresh commit for damage (no Redis needed here)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from loopkit import run_on_own_loop
from starlette.testclient import TestClient

from pocketgalaxy.core.errors import OptionsError
from pocketgalaxy.web import payloads
from pocketgalaxy.web.cluster import ClusterError, check_settings
from pocketgalaxy.web.cluster.bus import parse
from pocketgalaxy.web.hub import Hub
from pocketgalaxy.web.server import create_app
from pocketgalaxy.web.settings import Settings
from pocketgalaxy.web.store import Store


def test_cluster_settings_come_from_the_environment() -> None:
    settings = Settings.from_env({
        "POCKETGALAXY_REDIS_URL": "redis://127.0.0.1:6390/0",
        "POCKETGALAXY_WORKER_ID": "w2",
        "POCKETGALAXY_LEASE_TTL_S": "2.5",
    })
    assert (settings.redis_url, settings.worker_id, settings.lease_ttl_s) == (
        "redis://127.0.0.1:6390/0", "w2", 2.5)
    assert settings.clustered


def test_without_redis_the_server_is_one_process_named_host_port_pid() -> None:
    settings = Settings.from_env({}, port=8123)
    assert settings.redis_url is None and not settings.clustered
    assert settings.worker_id == f"127.0.0.1:8123:{os.getpid()}"
    assert settings.lease_ttl_s == 5.0


@pytest.mark.parametrize("value", ["0.1", "601", "soon"])
def test_a_lease_time_out_of_range_is_refused_with_the_range(value: str) -> None:
    with pytest.raises(OptionsError) as refused:
        Settings.from_env({"POCKETGALAXY_LEASE_TTL_S": value})
    assert "lease_ttl_s" in refused.value.message


def test_redis_with_sqlite_is_refused_at_start(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, redis_url="redis://127.0.0.1:1/0")
    with pytest.raises(ClusterError) as refused:
        create_app(settings)
    assert "must be PostgreSQL" in refused.value.message
    assert "SQLite" in refused.value.message
    assert not (tmp_path / "pocketgalaxy.sqlite3").exists()  # refused before anything opened


def test_a_redis_url_of_another_scheme_is_refused() -> None:
    with pytest.raises(ClusterError) as refused:
        check_settings("http://127.0.0.1:6379", "postgresql+psycopg://u@h/db")
    assert "redis://" in refused.value.message
    check_settings("redis://127.0.0.1:6379/0", "postgresql+psycopg://u@h/db")  # accepted


def test_health_of_one_process_names_the_worker_and_its_games(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, bot_delay_ms=0, worker_id="solo")
    with TestClient(create_app(settings)) as client:
        assert client.get("/api/health").json() == {
            "worker": "solo", "cluster": False, "leases": 0, "live": 0}
        made = client.post("/api/games", json={
            "game": "adventure", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert made.status_code == 201
        assert client.get("/api/health").json()["leases"] == 1


@pytest.mark.parametrize("data", [
    b"not json", b"[1, 2]", b"\xff\xfe",
    json.dumps({"game": "g", "index": "3", "kind": "action", "worker": "w"}),
    json.dumps({"game": "", "index": 3, "kind": "action", "worker": "w"}),
    json.dumps({"game": "x" * 33, "index": 3, "kind": "action", "worker": "w"}),
    json.dumps({"game": "g", "index": True, "kind": "action", "worker": "w"}),
    json.dumps({"game": "g", "index": 3, "kind": "action"}),
    "x" * 2000,
])
def test_anything_on_the_channel_that_is_not_a_nudge_is_ignored(data: bytes | str) -> None:
    assert parse(data) is None


def test_a_nudge_is_read() -> None:
    raw = json.dumps({"game": "abc", "index": 4, "kind": "action", "worker": "w1"}).encode()
    assert parse(raw) == {"game": "abc", "index": 4, "kind": "action", "worker": "w1"}


def test_a_commit_between_the_two_reads_of_a_load_is_not_damage(tmp_path: Path) -> None:
    """Another worker commits after this one read the game's row and before it read the
    actions: the load reads again instead of marking a sound game damaged."""
    settings = Settings(data_dir=tmp_path, bot_delay_ms=0)
    store = Store(settings.resolved_database_url)
    try:
        hub = Hub(store, settings)
        made = run_on_own_loop(
            hub.create("adventure", 2, {}, [{"kind": "human"}, {"kind": "human"}], seed=5))
        gid = made["game_id"]
        live = hub.get(gid)
        seat = live.session.to_act
        assert seat is not None
        move = payloads.legal_json(live, seat)[0]
        real = store.load_actions
        calls = []

        def racing_load_actions(game_id: str, since: int = 0) -> list:  # type: ignore[type-arg]
            if not calls:  # the other worker's commit lands right now
                store.append_action(game_id, 0, seat, move, "person")
            calls.append(game_id)
            return real(game_id, since)

        store.load_actions = racing_load_actions  # type: ignore[method-assign]
        fresh = hub._load(gid)
        assert fresh.index == 1 and len(calls) == 2
        row = store.load_game(gid)
        assert row is not None and row.damage is None
    finally:
        store.dispose()
