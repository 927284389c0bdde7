"""Damaged storage: each case is written into the database with raw SQL between two server
starts, and each is answered: 409 `record/damaged` for that game on every route and hello, the
other games still play, the server starts; or, for a lost database, a clear startup error."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from pocketgalaxy.web.marker import MARKER_NAME
from pocketgalaxy.web.server import create_app
from pocketgalaxy.web.settings import Settings
from pocketgalaxy.web.store import StoreOpenError

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def server_settings(tmp_path: Path, database_url: str) -> Settings:
    return Settings(data_dir=tmp_path / "data", database_url=database_url, bot_delay_ms=0,
                    rate_burst=10_000)


@contextmanager
def running(settings: Settings) -> Iterator[TestClient]:
    """One server start to stop (the lifespan runs the startup checks)."""
    with TestClient(create_app(settings)) as client:
        yield client


def sql(url: str, statement: str, **params: Any) -> None:
    """Raw SQL, as a broken disk or a careless hand would write it."""
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(statement), params)
    finally:
        engine.dispose()


def new_game(client: TestClient) -> dict[str, Any]:
    res = client.post("/api/games", json={"game": "adventure", "players": 2, "seats": HUMANS})
    assert res.status_code == 201, res.text
    made: dict[str, Any] = res.json()
    return made


def play(client: TestClient, made: dict[str, Any], n: int) -> int:
    """Play `n` legal actions for whichever person is to act; returns the index reached."""
    gid = made["game_id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    index = 0
    for _ in range(n):
        seat = client.get(f"/api/games/{gid}").json()["to_act"]
        state = client.get(f"/api/games/{gid}/state", params={"seat": seat},
                           headers=auth(tokens[seat])).json()
        res = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                          json={"seat": seat, "action": state["legal"][0],
                                "index": state["index"]})
        assert res.status_code == 200, res.text
        index = res.json()["index"]
    return index


def assert_damaged(client: TestClient, made: dict[str, Any], reason: str) -> None:
    """Every route and the WebSocket hello answer 409 record/damaged, with the reason."""
    gid = made["game_id"]
    token = made["seats"][0]["token"]
    replies = [
        client.get(f"/api/games/{gid}"),
        client.get(f"/api/games/{gid}/state"),
        client.get(f"/api/games/{gid}/state", params={"seat": 0}, headers=auth(token)),
        client.post(f"/api/games/{gid}/actions", headers=auth(token),
                    json={"seat": 0, "action": {"type": "Pass"}, "index": 0}),
        client.get(f"/api/games/{gid}/record"),
        client.get(f"/api/games/{gid}/replay"),
        client.post(f"/api/games/{gid}/seats/1/claim", json={"name": "Cy"}),
        client.post(f"/api/games/{gid}/seats/1/takeover", headers=auth(made["creator_token"])),
        client.post(f"/api/games/{gid}/seats/0/return", headers=auth(token)),
    ]
    for res in replies:
        assert res.status_code == 409, (res.request.url, res.text)
        error = res.json()["error"]
        assert error["code"] == "record/damaged"
        assert gid in error["message"] and reason in error["message"], error["message"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "seat": None, "token": None, "since": 0})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["error"]["code"] == "record/damaged"
        assert reason in reply["error"]["message"]
        ws.send_json({"type": "ping"})  # the socket stays open
        assert ws.receive_json() == {"type": "pong"}
    listed = {g["game_id"]: g for g in client.get("/api/games").json()}
    assert listed[gid]["status"] == "damaged" and reason in listed[gid]["damage"]
    assert gid not in {g["game_id"] for g in client.get("/api/games?open=true").json()}


def assert_still_plays(client: TestClient, made: dict[str, Any], index: int) -> None:
    gid = made["game_id"]
    assert client.get(f"/api/games/{gid}").json()["index"] == index
    assert play(client, made, 1) == index + 1
    listed = {g["game_id"]: g for g in client.get("/api/games").json()}
    assert listed[gid]["status"] == "running" and listed[gid]["damage"] is None


def stored_damage(url: str, gid: str) -> str | None:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            value = conn.execute(sa.text("SELECT damage FROM games WHERE id = :g"),
                                 {"g": gid}).scalar_one()
    finally:
        engine.dispose()
    return None if value is None else str(value)


Damager = Callable[[str, str], None]

CASES: dict[str, tuple[Damager, str]] = {
    "deleted last action row": (
        lambda url, gid: sql(url, "DELETE FROM actions WHERE game_id = :g AND idx = 4", g=gid),
        "idx 4 missing",
    ),
    "deleted middle action row": (
        lambda url, gid: sql(url, "DELETE FROM actions WHERE game_id = :g AND idx = 2", g=gid),
        "idx 2 missing",
    ),
    "an action that does not replay": (
        # The first action moved to the other seat: not that seat's turn.
        lambda url, gid: sql(url, "UPDATE actions SET seat = 1 - seat WHERE game_id = :g "
                                  "AND idx = 0", g=gid),
        "does not replay: record step 0",
    ),
    "stored as over but not over": (
        lambda url, gid: sql(url, "UPDATE games SET status = 'over' WHERE id = :g", g=gid),
        "stored as over",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_damaged_game_is_refused_and_the_others_play(server_settings: Settings,
                                                       case: str) -> None:
    damage, reason = CASES[case]
    url = server_settings.resolved_database_url
    with running(server_settings) as client:
        broken, sound = new_game(client), new_game(client)
        play(client, broken, 5)
        at = play(client, sound, 3)
    damage(url, broken["game_id"])
    with running(server_settings) as client:  # the server starts
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert broken["game_id"] not in hub.live and sound["game_id"] in hub.live
        assert_damaged(client, broken, reason)
        assert_still_plays(client, sound, at)
        fresh = new_game(client)
        assert play(client, fresh, 2) == 2
    stored = stored_damage(url, broken["game_id"])
    assert stored is not None and reason in stored


def test_a_damaged_finished_game_is_refused_when_it_is_loaded(server_settings: Settings) -> None:
    url = server_settings.resolved_database_url
    with running(server_settings) as client:
        res = client.post("/api/games", json={"game": "adventure", "players": 2,
                                              "seats": [{"kind": "bot"}, {"kind": "bot"}]})
        gid = res.json()["game_id"]
        with client.websocket_connect(f"/ws/{gid}") as ws:  # watch it to the end
            ws.send_json({"type": "hello", "seat": None, "token": None, "since": 0})
            while ws.receive_json().get("status") != "over":
                pass
        assert client.get(f"/api/games/{gid}/record").status_code == 200
    sql(url, "DELETE FROM actions WHERE game_id = :g AND idx = 1", g=gid)
    with running(server_settings) as client:
        res = client.get(f"/api/games/{gid}/record")
        assert res.status_code == 409 and res.json()["error"]["code"] == "record/damaged"
        assert "idx 1 missing" in res.json()["error"]["message"]


def test_bad_json_in_one_row_does_not_stop_the_server(server_settings: Settings,
                                                      database_url: str) -> None:
    url = server_settings.resolved_database_url
    with running(server_settings) as client:
        options_broken, action_broken, sound = new_game(client), new_game(client), new_game(client)
        for made in (options_broken, action_broken, sound):
            play(client, made, 2)
    if database_url.startswith("postgresql"):
        # PostgreSQL checks JSON on the way in: such a row cannot even be written there.
        with pytest.raises(sa.exc.DataError, match="invalid input syntax for type json"):
            sql(url, "UPDATE games SET options = '{\"broken' WHERE id = :g",
                g=options_broken["game_id"])
        return
    sql(url, "UPDATE games SET options = '{\"broken' WHERE id = :g", g=options_broken["game_id"])
    sql(url, "UPDATE actions SET action = 'not json' WHERE game_id = :g AND idx = 1",
        g=action_broken["game_id"])
    with running(server_settings) as client:
        assert_damaged(client, options_broken, "options is not valid JSON")
        assert_damaged(client, action_broken, "action row 1 of game")
        assert_still_plays(client, sound, 2)


def test_a_repaired_game_is_cleared_at_the_next_start(server_settings: Settings) -> None:
    url = server_settings.resolved_database_url
    with running(server_settings) as client:
        made = new_game(client)
        play(client, made, 5)
    gid = made["game_id"]
    sql(url, "DELETE FROM actions WHERE game_id = :g AND idx = 4", g=gid)
    with running(server_settings) as client:
        assert client.get(f"/api/games/{gid}").status_code == 409
    assert stored_damage(url, gid) is not None
    # The operator settles for the game as it was one action earlier.
    sql(url, "UPDATE games SET action_count = 4 WHERE id = :g", g=gid)
    with running(server_settings) as client:
        assert_still_plays(client, made, 4)
    assert stored_damage(url, gid) is None


# -- a lost database -------------------------------------------------------------------------
def _sqlite_settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", bot_delay_ms=0)


def _with_games(settings: Settings, n: int) -> Path:
    with running(settings) as client:
        for _ in range(n):
            play(client, new_game(client), 1)
    marker = Path(settings.data_dir) / MARKER_NAME
    assert json.loads(marker.read_text())["games"] == n
    return Path(settings.resolved_database_url.removeprefix("sqlite:///"))


def test_a_deleted_database_file_is_a_startup_error(tmp_path: Path) -> None:
    settings = _sqlite_settings(tmp_path)
    db = _with_games(settings, 3)
    for path in db.parent.glob(db.name + "*"):
        path.unlink()
    with pytest.raises(StoreOpenError) as err:
        create_app(settings)
    message = str(err.value)
    assert "is missing" in message and "held 3 game(s)" in message
    assert "--allow-empty" in message and "backup" in message
    assert not db.exists()  # nothing was created in its place
    # Starting fresh on purpose works, and the marker then counts from zero.
    with running(Settings(data_dir=settings.data_dir, bot_delay_ms=0, allow_empty=True)) as c:
        assert c.get("/api/games").json() == []
    assert json.loads((Path(settings.data_dir) / MARKER_NAME).read_text())["games"] == 0
    with running(settings) as c:  # and the next plain start is fine
        assert c.get("/api/games").json() == []


@pytest.mark.parametrize("keep", [0, 10, 5000])
def test_a_truncated_database_file_is_a_startup_error(tmp_path: Path, keep: int) -> None:
    settings = _sqlite_settings(tmp_path)
    db = _with_games(settings, 2)
    size = db.stat().st_size
    with db.open("r+b") as fh:
        fh.truncate(keep)
    assert db.stat().st_size == keep < size
    for side in db.parent.glob(db.name + "-*"):
        side.unlink()  # the WAL would otherwise hold the pages the truncation removed
    with pytest.raises(StoreOpenError) as err:
        create_app(settings)
    message = str(err.value)
    assert str(db) in message
    if keep == 0:
        assert "is empty (0 bytes)" in message
    elif keep < 100:
        assert "is not a SQLite database" in message
    else:
        assert "cannot be read" in message or "holds no games" in message
    assert db.stat().st_size == keep  # not written over


def test_a_database_emptied_of_games_is_a_startup_error(server_settings: Settings) -> None:
    url = server_settings.resolved_database_url
    with running(server_settings) as client:
        play(client, new_game(client), 1)
    sql(url, "DELETE FROM actions")
    sql(url, "DELETE FROM games")
    with pytest.raises(StoreOpenError, match=r"holds no games\. .* held 1 game\(s\)"):
        create_app(server_settings)


def test_an_unreadable_marker_is_rewritten_not_obeyed(tmp_path: Path) -> None:
    settings = _sqlite_settings(tmp_path)
    _with_games(settings, 1)
    marker = Path(settings.data_dir) / MARKER_NAME
    marker.write_text('{"format": "pocketgalaxy-st')
    with running(settings) as client:
        assert len(client.get("/api/games").json()) == 1
    assert json.loads(marker.read_text())["games"] == 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_the_server_process_stops_with_a_clear_message(tmp_path: Path) -> None:
    settings = _sqlite_settings(tmp_path)
    db = _with_games(settings, 2)
    for path in db.parent.glob(db.name + "*"):
        path.unlink()
    proc = subprocess.run(
        [sys.executable, "-m", "pocketgalaxy.web.server", "--host", "127.0.0.1",
         "--port", str(_free_port()), "--data-dir", str(settings.data_dir)],
        capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.returncode == 2
    assert "Pocket Galaxy cannot start: the database file" in proc.stderr
    assert "Traceback" not in proc.stderr and "Uvicorn running" not in proc.stderr


def test_a_damaged_game_is_logged_once_not_per_request(
    server_settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    url = server_settings.resolved_database_url
    with running(server_settings) as client:
        made = new_game(client)
        play(client, made, 3)
    sql(url, "DELETE FROM actions WHERE game_id = :g AND idx = 1", g=made["game_id"])
    with caplog.at_level("ERROR", logger="pocketgalaxy.web"), running(server_settings) as client:
        for _ in range(5):
            assert client.get(f"/api/games/{made['game_id']}").status_code == 409
    found = [r for r in caplog.records if "is damaged: its action log" in r.getMessage()]
    assert len(found) == 1


def test_a_database_that_is_away_is_not_a_damaged_game(
    server_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = server_settings.resolved_database_url
    with running(server_settings) as client:
        made = new_game(client)
        play(client, made, 2)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        del hub.live[made["game_id"]]  # as if evicted: the next request loads it

        def away(*_args: Any) -> None:
            raise sa.exc.OperationalError("SELECT", {}, Exception("connection refused"))

        with monkeypatch.context() as m:
            m.setattr(hub.store, "load_game", away)
            res = client.get(f"/api/games/{made['game_id']}")
            assert res.status_code == 503 and res.json()["error"]["code"] == "store/failed"
        assert client.get(f"/api/games/{made['game_id']}").json()["index"] == 2
    assert stored_damage(url, made["game_id"]) is None


def test_a_damaged_games_public_reason_does_not_quote_the_rules(server_settings: Settings,
                                                               caplog: Any) -> None:
    """The reason is sent to everyone and listed in the lobby: a rule's refusal, which may
    name a seat's cards, stays in the operator's log."""
    url = server_settings.resolved_database_url
    with running(server_settings) as client:
        broken = new_game(client)
        play(client, broken, 3)
    CASES["an action that does not replay"][0](url, broken["game_id"])
    with caplog.at_level(logging.ERROR), running(server_settings) as client:
        message = client.get(f"/api/games/{broken['game_id']}").json()["error"]["message"]
    assert "record step 0" in message
    assert "illegal action" not in message and "not_your_turn" not in message
    stored = stored_damage(url, broken["game_id"])
    assert stored is not None and "illegal action" not in stored
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert "not_your_turn" in logged  # the operator still learns the rules' words


def test_the_marker_counts_new_games_without_counting_the_table(tmp_path: Path) -> None:
    """A new game rewrites the marker with one more game, but no COUNT(*) of the games table
    runs per game (that grows with every game ever played): the count is taken once, at open."""
    from pocketgalaxy.web.store import GameRow, Store, now

    data = tmp_path / "data"
    url = f"sqlite:///{(tmp_path / 'store.sqlite3').as_posix()}"
    store = Store(url, data_dir=data)
    counted: list[int] = []
    real = store.count_games
    store.count_games = lambda: counted.append(1) or real()  # type: ignore[method-assign]
    try:
        for n in range(1, 6):
            stamp = now()
            store.insert_game(GameRow(
                id=f"g{n}", game="adventure", options={}, players=2, seed=n, pinned=None,
                seats=[], creator_token_hash="x", takeover_after_s=None, turn_clock_s=None,
                status="running", outcome=None, action_count=0, created_at=stamp,
                updated_at=stamp))
            assert json.loads((data / MARKER_NAME).read_text())["games"] == n
        assert counted == [] and real() == 5
    finally:
        store.dispose()
    reopened = Store(url, data_dir=data)  # counted again at open: the marker agrees
    try:
        assert json.loads((data / MARKER_NAME).read_text())["games"] == 5
    finally:
        reopened.dispose()
