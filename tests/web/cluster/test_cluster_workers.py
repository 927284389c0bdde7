"""Two real worker processes (`python -m pocketgalaxy.web.server`) on one Redis and one
PostgreSQL: moves made through either reach a watcher's WebSocket on the other in order and
exactly once, and a computer players' game goes on after its owner is killed with -9."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from clusterkit import free_port
from websockets.sync.client import connect as ws_connect


class Worker:
    """One worker process; its log goes to a file (a full pipe would stall it)."""

    def __init__(self, name: str, tmp: Path, db: str, redis: str) -> None:
        self.port = free_port()
        self.log = tmp / f"{name}.log"
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "POCKETGALAXY_REDIS_URL": redis,
               "POCKETGALAXY_WORKER_ID": name, "POCKETGALAXY_LEASE_TTL_S": "1",
               "POCKETGALAXY_CLIENT_REQUESTS_PER_S": "0", "POCKETGALAXY_BOT_DELAY_MS": "30"}
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "pocketgalaxy.web.server", "--host", "127.0.0.1",
                 "--port", str(self.port), "--database-url", db, "--data-dir",
                 str(tmp / name), "--log-level", "warning"],
                stdout=out, stderr=subprocess.STDOUT, env=env)
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=20)
        deadline = time.monotonic() + 60
        while True:
            try:
                if self.http.get("/api/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"worker {name} did not start:\n{self.log.read_text()}")
            time.sleep(0.1)

    def health(self) -> dict[str, Any]:
        data: dict[str, Any] = self.http.get("/api/health").json()
        return data

    def stop(self, sig: int = signal.SIGTERM) -> None:
        self.http.close()
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def workers(tmp_path: Path, pg_url: str, redis_url: str) -> Iterator[list[Worker]]:
    started = [Worker(name, tmp_path, pg_url, redis_url) for name in ("w1", "w2")]
    try:
        yield started
    finally:
        for worker in started:
            worker.stop()


def _wait(check: Any, what: str, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_two_worker_processes_share_moves_and_a_killed_owners_game(
    workers: list[Worker],
) -> None:
    w1, w2 = workers
    assert (w1.health()["worker"], w2.health()["worker"]) == ("w1", "w2")
    assert w1.health()["cluster"] is True
    made = w1.http.post("/api/games", json={
        "game": "adventure", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert made.status_code == 201, made.text
    gid = made.json()["game_id"]
    tokens = {s["seat"]: s["token"] for s in made.json()["seats"]}
    events: list[dict[str, Any]] = []
    with ws_connect(f"ws://127.0.0.1:{w2.port}/ws/{gid}") as watcher:
        watcher.send(json.dumps({"type": "hello"}))
        snapshot = json.loads(watcher.recv(timeout=10))
        assert snapshot["type"] == "snapshot" and snapshot["index"] == 0
        events.extend(snapshot["events"])
        index = 0
        for step in range(10):
            worker = (w1, w2)[step % 2]
            summary = _wait(lambda w=worker, i=index: (s := w.http.get(
                f"/api/games/{gid}").json())["index"] == i and s, f"index {index}")
            if summary["status"] == "over":
                break
            seat = summary["to_act"]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            legal = worker.http.get(f"/api/games/{gid}/state", params={"seat": seat},
                                    headers=auth).json()["legal"]
            res = worker.http.post(f"/api/games/{gid}/actions", headers=auth,
                                   json={"seat": seat, "action": legal[0], "index": index})
            assert res.status_code == 200, res.text
            index = res.json()["index"]
        seen = 0
        while seen < index:
            message = json.loads(watcher.recv(timeout=10))
            if message["type"] == "update":
                events.extend(message["events"])
                seen = message["index"]
    # Every event once and in order: what a fresh watcher of w1 is given for the whole game.
    # (w1 may not have heard of w2's last move yet: its snapshot is then followed by an update.)
    whole: list[dict[str, Any]] = []
    with ws_connect(f"ws://127.0.0.1:{w1.port}/ws/{gid}") as fresh:
        fresh.send(json.dumps({"type": "hello", "since": 0}))
        reached = -1
        while reached < index:
            message = json.loads(fresh.recv(timeout=10))
            if message["type"] in ("snapshot", "update"):
                whole.extend(message["events"])
                reached = message["index"]
    assert reached == index
    assert events == whole
    assert sorted({e["index"] for e in events}) == list(range(index))

    # A computer players' game owned by w1; w1 is killed with -9; w2 finishes it.
    made = w1.http.post("/api/games", json={
        "game": "adventure", "players": 2,
        "seats": [{"kind": "bot", "bot": "memory"}, {"kind": "bot", "bot": "memory"}]})
    assert made.status_code == 201, made.text
    bots = made.json()["game_id"]
    _wait(lambda: w1.health()["leases"] >= 1, "w1 to own the bot game")
    _wait(lambda: w2.http.get(f"/api/games/{bots}").json()["index"] >= 3, "moves")
    w1.stop(signal.SIGKILL)
    _wait(lambda: w2.health()["leases"] >= 1, "w2 to take the bot game over", 15.0)
    final = _wait(lambda: (s := w2.http.get(f"/api/games/{bots}").json())["status"] == "over"
                  and s, "the bot game to end on w2", 90.0)
    record = w2.http.get(f"/api/games/{bots}/record").json()
    assert len(record["actions"]) == final["index"]
    assert "Traceback" not in w2.log.read_text()
