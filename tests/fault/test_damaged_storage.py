"""Damaged storage, against a real server process on a temp SQLite database.

Row damage (one server life for all three cases, plus an intact game): the last action row of a
game deleted, a middle row deleted, a bad JSON value written into a game's row. The server must
start; each damaged game is answered with 409 `record/damaged` (summary, state, acting, record,
WebSocket hello) and listed as damaged; the intact game still plays; `pocketgalaxy db check`
reports the damage. File damage: the database file truncated to nothing, or deleted, while the
data folder says games existed, is a startup error with a clear message, not a silent empty
server. A database cut in half must not start into 5xx replies.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from faultkit import damage, report
from faultkit.probe import FuzzGame, create_game, play, request
from faultkit.server import ServerDidNotStart, ServerProcess
from websockets.sync.client import connect

DAMAGED = "record/damaged"
MOVES = 8


def _games(server: ServerProcess, count: int) -> list[FuzzGame]:
    with server.client() as http:
        games = [create_game(http, "adventure") for _ in range(count)]
        for n, game in enumerate(games):
            assert play(http, game, MOVES, pick=n) == MOVES
    return games


def _answers(server: ServerProcess, game: FuzzGame) -> dict[str, Any]:
    """How the server answers every way in to one game: route -> (status, error code)."""
    out: dict[str, Any] = {}
    auth = {"Authorization": f"Bearer {game.tokens[0]}"}
    with server.client() as http:
        for name, method, path, kwargs in [
            ("summary", "GET", f"/api/games/{game.game_id}", {}),
            ("state", "GET", f"/api/games/{game.game_id}/state", {}),
            ("seat_state", "GET", f"/api/games/{game.game_id}/state",
             {"params": {"seat": 0}, "headers": auth}),
            ("act", "POST", f"/api/games/{game.game_id}/actions",
             {"json": {"seat": 0, "action": {"type": "Peek", "slot": 0}, "index": MOVES},
              "headers": auth}),
            ("record", "GET", f"/api/games/{game.game_id}/record", {}),
        ]:
            res = request(http, method, path, **kwargs)
            out[name] = [res.status_code, _code(res)]
    with connect(f"{server.ws_url}/ws/{game.game_id}", open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "seat": None, "token": None, "since": 0}))
        msg = json.loads(ws.recv(timeout=30))
        out["ws_hello"] = [msg["type"], (msg.get("error") or {}).get("code")]
    return out


def _code(res: httpx.Response) -> str | None:
    try:
        code: str = res.json()["error"]["code"]
        return code
    except (ValueError, KeyError, TypeError):
        return None


def _db_check(server: ServerProcess) -> subprocess.CompletedProcess[str]:
    """`pocketgalaxy db check` on the server's data folder (settings from the environment)."""
    env = {**os.environ, "POCKETGALAXY_DATA_DIR": str(server.data_dir),
           "POCKETGALAXY_DATABASE_URL": f"sqlite:///{server.database.as_posix()}"}
    return subprocess.run([sys.executable, "-m", "pocketgalaxy", "db", "check"], env=env,
                          capture_output=True, text=True, timeout=120)


def _damage(db: Path, game: FuzzGame, case: str) -> None:
    if case == "last action row deleted":
        damage.delete_action(db, game.game_id, "last")
    elif case == "middle action row deleted":
        damage.delete_action(db, game.game_id, "middle")
    else:
        damage.bad_json(db, game.game_id)


# Two server lives: row deletions (each game damaged its own way) and a bad JSON value, each
# beside an intact game, so one failing case does not hide what the other answers.
@pytest.mark.parametrize("names", [
    ["last action row deleted", "middle action row deleted"],
    ["bad JSON in the game's row"],
], ids=["deleted-rows", "bad-json"])
def test_damaged_rows_are_answered_409_and_the_rest_plays_on(tmp_path: Path,
                                                             names: list[str]) -> None:
    server = ServerProcess(tmp_path)
    server.start()
    try:
        *damaged, intact = _games(server, len(names) + 1)
        server.stop()
        cases = dict(zip(names, ((g, _damage(server.database, g, n))
                                 for g, n in zip(damaged, names, strict=True)), strict=True))
        startup: str
        try:
            server.start()
            startup = "started"
        except ServerDidNotStart as exc:
            startup = f"did not start (exit {exc.returncode})"
        answers: dict[str, Any] = {}
        listed: dict[str, Any] = {}
        if startup == "started":
            for case, (game, _) in cases.items():
                answers[case] = _answers(server, game)
            with server.client() as http:
                lobby = {g["game_id"]: g["status"] for g in http.get("/api/games").json()}
                listed = {case: lobby.get(game.game_id) for case, (game, _) in cases.items()}
                after = play(http, intact, 3)
        check = _db_check(server)
        problems = server.problems()
    finally:
        server.stop()
    report.record("damaged_storage", {case: {"startup": startup, "answers": answers.get(case),
                                             "listed_as": listed.get(case)}
                                      for case in cases})
    report.record("damaged_storage", {f"db check ({', '.join(names)})": {
        "exit": check.returncode,
        "names_every_damaged_game": all(g.game_id in check.stdout + check.stderr
                                        for g, _ in cases.values())}})
    assert startup == "started", "one damaged game must not stop the server from starting"
    for case, got in answers.items():
        for route, (status, code) in got.items():
            if route == "ws_hello":
                assert (status, code) == ("error", DAMAGED), (case, route, got)
            else:
                assert (status, code) == (409, DAMAGED), (case, route, got)
    assert set(listed.values()) == {"damaged"}, listed
    assert after == MOVES + 3, "the intact game plays on"
    assert check.returncode != 0, f"db check must report the damage:\n{check.stdout}{check.stderr}"
    for game, _ in cases.values():
        assert game.game_id in check.stdout + check.stderr, check.stdout
    assert intact.game_id in check.stdout + check.stderr, "db check reports every game"
    tracebacks = [p for p in problems if "Traceback" in p]
    assert tracebacks == [], problems


@pytest.mark.parametrize("how", ["truncated to nothing", "deleted"])
def test_missing_or_empty_database_is_a_startup_error(tmp_path: Path, how: str) -> None:
    server = ServerProcess(tmp_path)
    server.start()
    failed: ServerDidNotStart | None = None
    try:
        _games(server, 2)
        server.stop()
        if how == "deleted":
            damage.delete(server.database)
        else:
            damage.truncate(server.database)
        try:
            server.start()
        except ServerDidNotStart as exc:
            failed = exc
        served = None
        if failed is None:
            with server.client() as http:
                served = len(http.get("/api/games").json())
    finally:
        server.stop()
    if failed is None:
        report.record("damaged_storage", {f"database {how}": {
            "startup": "started", "games_listed": served}})
        pytest.fail(f"the server started on a {how} database (listing {served} games) "
                    "although its data folder held games: that must be a startup error")
    names = str(server.data_dir) in failed.output or server.database.name in failed.output
    report.record("damaged_storage", {f"database {how}": {
        "startup": f"refused (exit {failed.returncode})", "names_the_database": names}})
    assert failed.returncode not in (None, 0)
    assert names, "the startup error must say which database or data folder is wrong:\n" + (
        failed.output)


def test_database_cut_in_half_never_answers_5xx(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path)
    server.start()
    try:
        games = _games(server, 3)
        server.stop()
        damage.truncate(server.database, server.database.stat().st_size // 2)
        try:
            server.start()
        except ServerDidNotStart as exc:
            report.record("damaged_storage", {"database cut in half": {
                "startup": f"refused (exit {exc.returncode})"}})
            assert exc.returncode not in (None, 0)
            return
        statuses = {}
        with server.client() as http:
            statuses["lobby"] = request(http, "GET", "/api/games").status_code
            for game in games:
                res = request(http, "GET", f"/api/games/{game.game_id}/state")
                statuses[game.game_id] = [res.status_code, _code(res)]
    finally:
        server.stop()
    report.record("damaged_storage", {"database cut in half": {"startup": "started",
                                                               "answers": statuses}})
    for where, got in statuses.items():
        status = got if isinstance(got, int) else got[0]
        assert status < 500, (where, got)
        if not isinstance(got, int) and status != 200:
            assert got == [409, DAMAGED], (where, got)
