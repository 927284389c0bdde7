"""Nothing lost: a real uvicorn server on a temp SQLite file is killed with SIGKILL mid-game,
started again, and the game resumes at the last acknowledged action and can be finished."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from pocketgalaxy.core.record import GameRecord, replay
from pocketgalaxy.registry import get_game

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses SIGKILL")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """`python -m pocketgalaxy.web.server` in a subprocess, ready once uvicorn says so."""

    def __init__(self, data_dir: Path, port: int, db: str | None = None) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        db = db or f"sqlite:///{(data_dir / 'games.sqlite3').as_posix()}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pocketgalaxy.web.server", "--host", "127.0.0.1",
             "--port", str(port), "--database-url", db, "--data-dir", str(data_dir),
             "--bot-delay-ms", "0", "--log-level", "info"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            # This test plays as fast as it can from one address: lift the per-client rate.
            env={**os.environ, "PYTHONUNBUFFERED": "1", "POCKETGALAXY_CLIENT_REQUESTS_PER_S": "0"},
        )
        lines = []
        assert self.proc.stdout is not None
        for line in self.proc.stdout:  # blocks until uvicorn reports; EOF if it died
            lines.append(line)
            if "Uvicorn running on" in line:
                break
        else:
            raise AssertionError("server did not start:\n" + "".join(lines))
        assert any("Pocket Galaxy is serving on" in line for line in lines), lines
        self.http = httpx.Client(base_url=self.url, timeout=20)

    def kill(self) -> None:
        self.http.close()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=20)

    def stop(self) -> None:
        self.http.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=20)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


def _state(http: httpx.Client, gid: str, seat: int, token: str) -> dict[str, Any]:
    res = http.get(f"/api/games/{gid}/state", params={"seat": seat},
                   headers={"Authorization": f"Bearer {token}"})
    assert res.status_code == 200, res.text
    data: dict[str, Any] = res.json()
    return data


def _play(http: httpx.Client, gid: str, tokens: dict[int, str], rng: random.Random,
          steps: int) -> int:
    """Both seats are people played by this test (random legal moves); returns the last index."""
    index = http.get(f"/api/games/{gid}").json()["index"]
    for _ in range(steps):
        summary = http.get(f"/api/games/{gid}").json()
        if summary["status"] == "over":
            break
        seat = summary["to_act"]
        legal = _state(http, gid, seat, tokens[seat])["legal"]
        res = http.post(f"/api/games/{gid}/actions",
                        json={"seat": seat, "action": rng.choice(legal), "index": index},
                        headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert res.status_code == 200, res.text
        index = res.json()["index"]
    return int(index)


def test_kill_9_then_restart_resumes_at_the_last_acknowledged_action(tmp_path, servers,
                                                                     database_url):
    port = _free_port()
    first = Server(tmp_path, port, database_url)
    servers.append(first)
    made = first.http.post("/api/games", json={
        "game": "adventure", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}],
    }).json()
    gid = made["game_id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    rng = random.Random(11)
    acked = _play(first.http, gid, tokens, rng, 25)
    assert acked > 0
    before = {seat: _state(first.http, gid, seat, tokens[seat])["view"] for seat in (0, 1)}
    first.kill()

    second = Server(tmp_path, port, database_url)
    servers.append(second)
    summary = second.http.get(f"/api/games/{gid}").json()
    assert summary["index"] == acked and summary["status"] == "running"
    after = {seat: _state(second.http, gid, seat, tokens[seat])["view"] for seat in (0, 1)}
    assert after == before
    # A stale index from before the crash is still refused; the game goes on to the end.
    res = second.http.post(f"/api/games/{gid}/actions",
                           json={"seat": 0, "action": {"type": "Peek", "slot": 0},
                                 "index": acked - 1},
                           headers={"Authorization": f"Bearer {tokens[0]}"})
    assert res.json()["error"]["code"] == "action/stale"
    assert _play(second.http, gid, tokens, rng, 20) > acked
    # To finish quickly, the creator hands both seats to computer players.
    for seat in (0, 1):
        res = second.http.post(f"/api/games/{gid}/seats/{seat}/takeover", json={"bot": "memory"},
                               headers={"Authorization": f"Bearer {made['creator_token']}"})
        assert res.status_code == 200, res.text
    _wait_over(port, gid)
    record = GameRecord.from_json(second.http.get(f"/api/games/{gid}/record").json())
    state, _ = replay(get_game("adventure"), record)
    assert get_game("adventure").outcome(state) is not None


def test_bot_game_interrupted_by_kill_9_is_finished_after_restart(tmp_path, servers):
    port = _free_port()
    first = Server(tmp_path, port)
    servers.append(first)
    made = first.http.post("/api/games", json={
        "game": "adventure", "players": 3,
        "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}],
    }).json()
    gid = made["game_id"]
    res = first.http.post(f"/api/games/{gid}/seats/0/takeover", json={"bot": "random"},
                          headers={"Authorization": f"Bearer {made['creator_token']}"})
    assert res.status_code == 200
    first.kill()  # the computer players may be anywhere in the game now
    stored = _stored_actions(tmp_path, gid)

    second = Server(tmp_path, port)
    servers.append(second)
    # On startup the unfinished game is rebuilt from its log and its bots carry on to the end.
    _wait_over(port, gid)
    record = GameRecord.from_json(second.http.get(f"/api/games/{gid}/record").json())
    # Everything stored before the kill is the start of the finished game.
    assert record.actions[: len(stored)] == stored
    assert second.http.get(f"/api/games/{gid}").json()["seats"][0]["taken_over"] is True


def _wait_over(port: int, gid: str) -> None:
    """Watch the game over its WebSocket until it is over (waits on messages, never sleeps)."""
    with ws_connect(f"ws://127.0.0.1:{port}/ws/{gid}") as ws:
        ws.send(json.dumps({"type": "hello", "seat": None, "token": None, "since": 0}))
        while json.loads(ws.recv(timeout=60)).get("status") != "over":
            pass


def _stored_actions(data_dir: Path, gid: str) -> list[tuple[int, dict[str, Any]]]:
    from pocketgalaxy.web.store import Store

    store = Store(f"sqlite:///{(data_dir / 'games.sqlite3').as_posix()}")
    try:
        return [(a.seat, a.action) for a in store.load_actions(gid)]
    finally:
        store.dispose()
