"""Load test of the WebSocket API on loopback: N concurrent games played by random clients.

Starts its own server (a subprocess on a free loopback port, a temp SQLite file, bot_delay_ms=0)
unless --url points at one that is already running on this machine. Each game is Adventure Cards
with two human seats, both played by this script over two WebSockets with random legal moves, so
every action is a real round trip: act -> the server commits it -> the update comes back.

Bounded: at most --games games, --max-actions actions per game, --time-limit seconds in all; it
stops by itself and prints actions per second and the p50/p99 act -> update latency.

    .venv/bin/python bench/load_ws.py                 # 100 games
    .venv/bin/python bench/load_ws.py --games 20 --max-actions 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
from websockets.asyncio.client import connect

_LOOPBACK = {"127.0.0.1", "localhost", "::1"}
UNLIMITED = {f"POCKETGALAXY_{name}": "0" for name in (
    "CLIENT_REQUESTS_PER_S", "CLIENT_GAMES_PER_HOUR", "CLIENT_SOCKETS", "CLIENT_MESSAGES_PER_S",
    "MAX_LIVE_GAMES", "MAX_CONNECTIONS")}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(data_dir: Path, *, database_url: str | None = None,
                 env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str]:
    """Start `python -m pocketgalaxy.web.server` and wait until uvicorn reports it is up.

    SQLite in `data_dir` unless `database_url` is given; `env` adds settings (load_cluster.py
    gives each worker its Redis and worker id this way).
    """
    port = _free_port()
    db = database_url or f"sqlite:///{(data_dir / 'bench.sqlite3').as_posix()}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "pocketgalaxy.web.server", "--host", "127.0.0.1", "--port",
         str(port), "--database-url", db, "--data-dir", str(data_dir), "--bot-delay-ms", "0",
         "--log-level", "info"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        # The message, request and connection limits guard against abuse; this script's clients
        # all come from one address and answer instantly on purpose, so its own server lifts
        # them (0 = no limit) to measure capacity instead.
        env={**os.environ, "PYTHONUNBUFFERED": "1", "POCKETGALAXY_RATE_PER_S": "10000",
             "POCKETGALAXY_RATE_BURST": "10000", **UNLIMITED, **(env or {})},
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if "Uvicorn running on" in line:
            break
    else:
        raise SystemExit("the server did not start")
    # Keep draining its output so the pipe never fills.
    threading.Thread(target=lambda: [None for _ in proc.stdout or ()], daemon=True).start()
    return proc, f"http://127.0.0.1:{port}"


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.refused: dict[str, int] = {}
        self.finished = 0


async def play_game(base: str, made: dict[str, Any], rng: random.Random, max_actions: int,
                    stats: Stats, deadline: float) -> None:
    """Play both seats of one game until it ends, the action cap, or the deadline."""
    gid = made["game_id"]
    ws_url = base.replace("http", "ws", 1) + f"/ws/{gid}"
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    latest: dict[int, dict[str, Any]] = {}
    changed = asyncio.Event()
    sent_at: dict[int, float] = {}
    conns = {seat: await connect(ws_url, max_size=2**22, compression=None) for seat in tokens}

    async def reader(seat: int) -> None:
        async for raw in conns[seat]:
            msg = json.loads(raw)
            if msg["type"] == "error":
                code = msg["error"]["code"]
                stats.refused[code] = stats.refused.get(code, 0) + 1
                # Refused (the rate limit): forget the send so the driver backs off and retries.
                sent_at.pop(latest[seat]["index"], None)
                latest[seat] = {**latest[seat], "retry": True}
            elif msg["type"] in ("snapshot", "update"):
                start = sent_at.pop(msg["index"] - 1, None) if msg["type"] == "update" else None
                if start is not None:
                    stats.latencies.append(time.perf_counter() - start)
                latest[seat] = msg
            changed.set()

    readers = [asyncio.create_task(reader(seat)) for seat in conns]
    try:
        for seat, ws in conns.items():
            await ws.send(json.dumps({"type": "hello", "seat": seat, "token": tokens[seat],
                                      "since": 0}))
        done = 0
        while done < max_actions and time.monotonic() < deadline:
            try:  # never wait past the deadline, whatever the server does
                await asyncio.wait_for(changed.wait(), max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                break
            changed.clear()
            if any(m.get("status") == "over" for m in latest.values()):
                stats.finished += 1
                break
            for seat, msg in list(latest.items()):
                index = max(m["index"] for m in latest.values())
                if msg["legal"] and msg["index"] == index and index not in sent_at:
                    if msg.get("retry"):
                        await asyncio.sleep(0.05)  # refused (rate limit): back off, then again
                    sent_at[index] = time.perf_counter()
                    await conns[seat].send(json.dumps(
                        {"type": "act", "action": rng.choice(msg["legal"]), "index": index}))
                    done += 1
                    stats.actions += 1
                    break
    finally:
        for ws in conns.values():
            await ws.close()
        for task in readers:
            task.cancel()


async def run(base: str, games: int, max_actions: int, time_limit: float, seed: int) -> Stats:
    stats = Stats()
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = []
        for _ in range(games):
            res = await http.post("/api/games", json={
                "game": "adventure", "players": 2,
                "seats": [{"kind": "human"}, {"kind": "human"}],
            })
            res.raise_for_status()
            made.append(res.json())
    deadline = time.monotonic() + time_limit
    rng = random.Random(seed)
    await asyncio.gather(*(
        play_game(base, m, random.Random(rng.random()), max_actions, stats, deadline)
        for m in made
    ))
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--max-actions", type=int, default=150, help="per game")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds, in all")
    parser.add_argument("--url", help="a running server on loopback (default: start one)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 1 <= args.games <= 1000 or not 1 <= args.max_actions <= 10_000:
        raise SystemExit("--games must be 1..1000 and --max-actions 1..10000")
    proc = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.url:
            if urlparse(args.url).hostname not in _LOOPBACK:
                raise SystemExit("load tests run on loopback only")
            base = args.url.rstrip("/")
        else:
            proc, base = start_server(Path(tmp))
        try:
            started = time.perf_counter()
            stats = asyncio.run(run(base, args.games, args.max_actions, args.time_limit,
                                    args.seed))
            elapsed = time.perf_counter() - started
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(timeout=20)
    lat = sorted(stats.latencies)
    if not lat:
        raise SystemExit("no round trips measured")
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000
    print(f"games: {args.games} concurrent (adventure, 2 human seats each, played over WebSockets)")
    print(f"actions: {stats.actions} in {elapsed:.1f} s = {stats.actions / elapsed:.0f} actions/s"
          f" (games finished: {stats.finished}, refused: {stats.refused or 'none'})")
    print(f"act -> update round trip: p50 {p50:.1f} ms, p99 {p99:.1f} ms "
          f"({len(lat)} measured)")


if __name__ == "__main__":
    main()
