"""Abandoned games: unfinished, nobody connected and nothing moved for `abandon_after_s`.

They stay in the store, can be watched, downloaded and replayed, are not rebuilt at start, and
refuse every action with 409 `game/abandoned`."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from pocketgalaxy.core.errors import OptionsError
from pocketgalaxy.web.server import create_app
from pocketgalaxy.web.settings import Settings
from pocketgalaxy.web.store import games_table


def _settings(tmp_path: Path, after: int) -> Settings:
    return Settings(data_dir=tmp_path / "data", bot_delay_ms=0, abandon_after_s=after)


def _create(client: TestClient) -> dict[str, Any]:
    res = client.post("/api/games", json={"game": "adventure", "players": 2, "seats": [
        {"kind": "human", "name": "Ada"}, {"kind": "human"}]})
    assert res.status_code == 201, res.text
    body: dict[str, Any] = res.json()
    return body


def _status(client: TestClient, gid: str) -> str:
    status: str = client.get(f"/api/games/{gid}").json()["status"]
    return status


def _wait_status(client: TestClient, gid: str, want: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and _status(client, gid) != want:
        time.sleep(0.1)  # 10 polls a second: under the per-client request rate (20/s)
    assert _status(client, gid) == want


def test_a_game_nobody_comes_back_to_is_abandoned_viewable_and_refuses_actions(
    tmp_path: Path,
) -> None:
    with TestClient(create_app(_settings(tmp_path, 1))) as client:
        made = _create(client)
        gid, ada = made["game_id"], made["seats"][0]["token"]
        creator = made["creator_token"]
        assert _status(client, gid) == "running"
        _wait_status(client, gid, "abandoned", 10)

        listing = {g["game_id"]: g for g in client.get("/api/games").json()}
        assert listing[gid]["status"] == "abandoned"
        assert gid not in {g["game_id"] for g in client.get("/api/games?open=true").json()}
        assert client.get(f"/api/games/{gid}/record").status_code == 200
        assert client.get(f"/api/games/{gid}/replay").status_code == 200

        state = client.get(f"/api/games/{gid}/state?seat=0",
                           headers={"Authorization": f"Bearer {ada}"}).json()
        assert state["status"] == "abandoned"
        seat = state["to_act"]
        token = made["seats"][seat]["token"]
        legal = client.get(f"/api/games/{gid}/state?seat={seat}",
                           headers={"Authorization": f"Bearer {token}"}).json()["legal"]
        assert legal == []  # nothing is legal in an abandoned game
        res = client.post(f"/api/games/{gid}/actions", headers={"Authorization": f"Bearer {token}"},
                          json={"seat": seat, "action": {"type": "PassTurn"}, "index": 0})
        assert res.status_code == 409 and res.json()["error"]["code"] == "game/abandoned"
        assert "watched and replayed" in res.json()["error"]["message"]
        res = client.post(f"/api/games/{gid}/seats/1/claim", json={"name": "Bo"})
        assert res.status_code == 409 and res.json()["error"]["code"] == "game/abandoned"
        res = client.post(f"/api/games/{gid}/seats/0/takeover", json={},
                          headers={"Authorization": f"Bearer {creator}"})
        assert res.status_code == 409 and res.json()["error"]["code"] == "game/abandoned"
        with client.websocket_connect(f"/ws/{gid}") as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["status"] == "abandoned"
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.store.count_actions(gid) == 0


def test_a_watched_game_is_not_abandoned(tmp_path: Path) -> None:
    with TestClient(create_app(_settings(tmp_path, 1))) as client:
        gid = _create(client)["game_id"]
        with client.websocket_connect(f"/ws/{gid}") as ws:
            ws.send_json({"type": "hello"})
            ws.receive_json()
            time.sleep(1.6)
            assert _status(client, gid) == "running"


def test_an_old_unfinished_game_is_abandoned_at_start_and_not_rebuilt(
    tmp_path: Path, database_url: str
) -> None:
    settings = Settings(data_dir=tmp_path / "data", bot_delay_ms=0, abandon_after_s=3600,
                        database_url=database_url)
    with TestClient(create_app(settings)) as client:
        old, fresh = _create(client)["game_id"], _create(client)["game_id"]
        engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
        with engine.begin() as conn:
            conn.execute(sa.update(games_table).where(games_table.c.id == old).values(
                updated_at=dt.datetime.now(dt.UTC) - dt.timedelta(hours=2)))
    with TestClient(create_app(settings)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert old not in hub.live and fresh in hub.live
        assert hub.store.load_game(old).status == "abandoned"
        assert _status(client, old) == "abandoned"
        assert _status(client, fresh) == "running"


def test_the_new_settings_come_from_the_environment_and_are_bounded() -> None:
    got = Settings.from_env({"POCKETGALAXY_ABANDON_AFTER_S": "60",
                             "POCKETGALAXY_BOT_MOVE_BUDGET_S": "2.5",
                             "POCKETGALAXY_BOT_PROCESSES": "3", "POCKETGALAXY_BOT_THREADS": "2"})
    assert (got.abandon_after_s, got.bot_move_budget_s, got.bot_processes, got.bot_threads) == (
        60, 2.5, 3, 2)
    assert Settings.from_env({}).abandon_after_s == 7 * 24 * 3600
    for var, value, fragment in (("POCKETGALAXY_ABANDON_AFTER_S", "0", "abandon_after_s=0"),
                                 ("POCKETGALAXY_BOT_MOVE_BUDGET_S", "9999", "bot_move_budget_s"),
                                 ("POCKETGALAXY_BOT_PROCESSES", "many", "bot_processes")):
        with pytest.raises(OptionsError, match=fragment):
            Settings.from_env({var: value})
