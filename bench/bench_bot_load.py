"""Does thinking by computer players hold up the server? Latency under searching bots.

Starts a real server (`python -m pocketgalaxy.web.server` on a free 127.0.0.1 port, a temp
SQLite file, bot_delay_ms=0) for each source tree given, and keeps --games games running whose
computer players think at their maximum settings: Adventure Cards with four `ismcts` seats and
Perils & Pathways with a `planner` Hero (a finished one is replaced). Meanwhile it measures:

- `GET /api/themes` (unrelated to any game), about 20 a second;
- a person's act in another game: an Adventure game with two human seats, both played by this
  script over REST (`POST /api/games/{id}/actions` with the seat's token) as fast as replies come.

It reports p50/p99/max of each, side by side for every tree. The "before" tree is another
checkout (e.g. `git worktree add /tmp/before <commit>`), run with PYTHONPATH=<its src>.
Bounded: --seconds of measuring per tree after --warmup, requests time out after 30 s, and each
server is stopped (SIGINT, then killed) at the end.

    .venv/bin/python bench/bench_bot_load.py                         # this tree only
    .venv/bin/python bench/bench_bot_load.py --before /tmp/before/src --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
OWN_SRC = HERE.parent / "src"
ISMCTS_MAX = "ismcts:iterations=10000"  # agents/limits.py: the largest allowed
PLANNER_MAX = "planner:samples=1000"
TIMEOUT_S = 30.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _env(src: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(src), "PYTHONUNBUFFERED": "1",
            # Measure latency, not the abuse limits: this client is the only one (a tree that
            # predates a limit ignores its variable).
            "POCKETGALAXY_RATE_PER_S": "10000", "POCKETGALAXY_RATE_BURST": "10000",
            **{f"POCKETGALAXY_{name}": "0" for name in (
                "CLIENT_REQUESTS_PER_S", "CLIENT_GAMES_PER_HOUR", "CLIENT_SOCKETS",
                "CLIENT_MESSAGES_PER_S", "MAX_LIVE_GAMES", "MAX_CONNECTIONS")}}


def module_path(src: Path) -> str:
    """Which pocketgalaxy the server will import from `src` (printed, so a mix-up shows)."""
    out = subprocess.run([sys.executable, "-c", "import pocketgalaxy.web.server as s; "
                          "print(s.__file__)"], env=_env(src), capture_output=True, text=True,
                         timeout=60, check=True)
    return out.stdout.strip()


def start_server(src: Path, data_dir: Path,
                 log: list[str]) -> tuple[subprocess.Popen[str], str]:
    port = _free_port()
    db = f"sqlite:///{(data_dir / 'bench.sqlite3').as_posix()}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "pocketgalaxy.web.server", "--host", "127.0.0.1", "--port",
         str(port), "--database-url", db, "--data-dir", str(data_dir), "--bot-delay-ms", "0",
         "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=_env(src),
    )
    assert proc.stdout is not None
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/themes", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.2)
    else:
        proc.kill()
        raise SystemExit("the server did not start")
    def drain() -> None:  # keep the pipe empty; keep the server's warnings for the report
        for line in proc.stdout or ():
            if "WARNING" in line or "ERROR" in line or "budget" in line:
                log.append(line.rstrip())

    threading.Thread(target=drain, daemon=True).start()
    return proc, base


def stop_server(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


@dataclass
class Figures:
    themes: list[float] = field(default_factory=list)
    acts: list[float] = field(default_factory=list)
    refused: int = 0
    failed: int = 0  # requests that timed out or broke (counted at their time in the figures)
    bot_games: list[str] = field(default_factory=list)
    bot_moves: int = 0


async def _bot_games(client: httpx.AsyncClient, games: int, stop: asyncio.Event,
                     figures: Figures, ismcts: str, planner: str) -> None:
    """Keep `games` all-computer games running; replace each one that ends."""
    bodies = [
        {"game": "adventure", "players": 4, "seats": [{"kind": "bot", "bot": ismcts}] * 4},
        {"game": "perils", "players": 2, "seats": [{"kind": "bot", "bot": planner},
                                                   {"kind": "bot", "bot": "teller"}]},
    ]
    running: list[str] = []
    turn = 0
    while not stop.is_set():
        still = []
        for gid in running:
            try:
                summary = (await client.get(f"/api/games/{gid}")).json()
            except httpx.HTTPError:
                still.append(gid)
                continue
            if summary.get("status") == "running":
                still.append(gid)
        running = still
        while len(running) < games and not stop.is_set():
            try:
                res = await client.post("/api/games", json=bodies[turn % 2])
                res.raise_for_status()
            except httpx.HTTPError:
                continue
            turn += 1
            running.append(res.json()["game_id"])
            figures.bot_games.append(running[-1])
        await _sleep(stop, 1.0)


async def _themes(client: httpx.AsyncClient, stop: asyncio.Event, out: list[float],
                  measuring: asyncio.Event) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        try:
            (await client.get("/api/themes")).raise_for_status()
        except httpx.HTTPError:
            pass  # a timeout counts at its full time
        if measuring.is_set():
            out.append(time.perf_counter() - started)
        await _sleep(stop, 0.05)


async def _person(client: httpx.AsyncClient, stop: asyncio.Event, figures: Figures,
                  measuring: asyncio.Event, rng: random.Random) -> None:
    """Play Adventure games between two people (this script), timing each act."""
    while not stop.is_set():
        try:
            await _person_game(client, stop, figures, measuring, rng)
        except httpx.HTTPError:
            figures.failed += 1


async def _person_game(client: httpx.AsyncClient, stop: asyncio.Event, figures: Figures,
                       measuring: asyncio.Event, rng: random.Random) -> None:
    made = (await client.post("/api/games", json={
        "game": "adventure", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})).json()
    gid = made["game_id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    while not stop.is_set():
        summary = (await client.get(f"/api/games/{gid}")).json()
        seat = summary["to_act"]
        if summary["status"] != "running" or seat is None:
            return
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        state = (await client.get(f"/api/games/{gid}/state?seat={seat}", headers=auth)).json()
        if not state["legal"]:
            return
        body = {"seat": seat, "action": rng.choice(state["legal"]), "index": state["index"]}
        started = time.perf_counter()
        try:
            res = await client.post(f"/api/games/{gid}/actions", json=body, headers=auth)
        except httpx.HTTPError:
            figures.failed += 1
            res = None
        took = time.perf_counter() - started
        if res is not None and res.status_code != 200:
            figures.refused += 1
        elif measuring.is_set():
            figures.acts.append(took)


async def _sleep(stop: asyncio.Event, seconds: float) -> None:
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        pass


async def measure(base: str, games: int, warmup: float, seconds: float, ismcts: str,
                  planner: str) -> Figures:
    figures = Figures()
    stop, measuring = asyncio.Event(), asyncio.Event()
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT_S, limits=limits) as client:
        tasks = [
            asyncio.create_task(_bot_games(client, games, stop, figures, ismcts, planner)),
            asyncio.create_task(_themes(client, stop, figures.themes, measuring)),
            asyncio.create_task(_person(client, stop, figures, measuring, random.Random(1))),
        ]
        await asyncio.sleep(warmup)
        measuring.set()
        await asyncio.sleep(seconds)
        stop.set()
        done, pending = await asyncio.wait(tasks, timeout=TIMEOUT_S + 5)
        for task in pending:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                print(f"  a client task failed: {task.exception()!r}", flush=True)
        for gid in figures.bot_games:  # how much the computer players got done
            try:
                figures.bot_moves += int((await client.get(f"/api/games/{gid}")).json()["index"])
            except (httpx.HTTPError, KeyError, ValueError):
                pass
    return figures


def _ms(values: list[float]) -> str:
    if len(values) < 2:
        return f"{'n/a':>8} {'n/a':>8} {'n/a':>8} {len(values):>6}"
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return (f"{cuts[49] * 1000:8.1f} {cuts[98] * 1000:8.1f} {max(values) * 1000:8.1f} "
            f"{len(values):>6}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="the src folder of the tree to compare with")
    parser.add_argument("--after", type=Path, default=OWN_SRC, help="default: this tree's src")
    parser.add_argument("--games", type=int, default=10,
                        help="computer-player games (0..20; 0 measures the idle server)")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=20.0, help="measuring time per tree")
    parser.add_argument("--idle", action="store_true",
                        help="also measure the after tree with no computer games (the machine's "
                             "own noise floor)")
    parser.add_argument("--ismcts", default=ISMCTS_MAX)
    parser.add_argument("--planner", default=PLANNER_MAX)
    args = parser.parse_args(argv)
    if not 0 <= args.games <= 20 or not 1 <= args.seconds <= 300:
        raise SystemExit("--games must be 0..20 and --seconds 1..300")
    trees = ([("before", args.before, args.games)] if args.before else []) + [
        ("after", args.after, args.games)] + ([("idle", args.after, 0)] if args.idle else [])
    results: list[tuple[str, Figures]] = []
    for label, src, games in trees:
        print(f"{label}: {module_path(src)}, {games} computer games", flush=True)
        with tempfile.TemporaryDirectory(prefix="pg-bot-load-") as tmp:
            log: list[str] = []
            proc, base = start_server(src, Path(tmp), log)
            try:
                figures = asyncio.run(measure(base, games, args.warmup, args.seconds,
                                              args.ismcts, args.planner))
            finally:
                stop_server(proc)
        if log:
            print(f"  the server logged {len(log)} warning(s), e.g. {log[0][:160]}", flush=True)
        results.append((label, figures))
    print(f"\n{args.games} computer-player games ({args.ismcts} x4 for Adventure, "
          f"{args.planner} for Perils), {args.seconds:g} s measured after {args.warmup:g} s, "
          f"{os.cpu_count()} cores")
    print(f"{'tree':<7} {'request':<22} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'count':>6}")
    for label, f in results:
        print(f"{label:<7} {'GET /api/themes':<22} {_ms(f.themes)}")
        print(f"{label:<7} {'POST .../actions':<22} {_ms(f.acts)}")
        print(f"{label:<7} computer games {len(f.bot_games)}, their moves {f.bot_moves}, "
              f"refused acts {f.refused}, failed requests {f.failed}")


if __name__ == "__main__":
    main()
