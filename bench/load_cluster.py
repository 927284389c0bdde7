"""Load bench of the clustered web table: people at a human pace, then saturation, on loopback.

Two measures, each on its own fresh PostgreSQL database, with a Redis between the workers:

1. **Paced** (`--games`, default 1,000): that many live games of Adventure Cards, two people
   each, spread over `--workers` (default 3); with `--placement spread` (the default) the two
   seats of a game are on two different workers and its watchers on the third, so every move
   crosses workers through Redis; with `--placement game` all of a game's sockets are on one
   worker (what a proxy choosing the worker by the game id in the path gives). Each person
   thinks 0.5 to 2 s (seeded random) before every move. `--watched` games (default 50) have
   `--watchers` (default 5) watchers each. A game that ends is replaced by a new one, so the
   count stays. Reported over `--seconds` after a warm-up: act-to-update p50/p99 (on the actor's
   socket, on the other seat's and on the watchers'), actions/s, CPU and memory of each worker,
   memory per live game (the workers' RSS with the games live minus their RSS idle, divided by
   the number of games) and the CPU the client itself used.
2. **Saturation** (`--sat-games`, default 100, no thinking time): actions/s for 1 worker and for
   `--workers` workers (placed both ways) side by side, alternating, `--sat-rounds` times
   (default 3, medians), plus the one-process default (1 worker on SQLite, no Redis).

Everything runs on 127.0.0.1: PostgreSQL and Redis come from scripts/postgres.sh and
scripts/redis.sh on the bench's own ports and folders (or `--postgres-url` / `--redis-url` on
loopback), the workers are `python -m pocketgalaxy.web.server` subprocesses. The client is one
process, asyncio, one socket per seat and per watcher. Bounded: at most 1,000 games, 10 watchers
on at most 100 games, 600 s per phase; it stops everything it started by itself.

    .venv/bin/python bench/load_cluster.py                       # the issue's figures
    .venv/bin/python bench/load_cluster.py --games 100 --seconds 20 --sat-seconds 10 --sat-rounds 1
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import secrets
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import psutil
from cluster_client import THINK_S, Load, LoopLag, run
from load_ws import _LOOPBACK, start_server

ROOT = Path(__file__).resolve().parents[1]
MAX_GAMES, MAX_WATCHED, MAX_WATCHERS, MAX_SECONDS = 1000, 100, 10, 600.0
LEASE_TTL_S = "5"
# The bench's own PostgreSQL and Redis: not the tests' (54329, 63799) nor cluster.sh's.
PG_ENV = {"POCKETGALAXY_PG_PORT": "54349", "POCKETGALAXY_PG_DIR": "/tmp/pocketgalaxy-bench-pg"}
REDIS_ENV = {"POCKETGALAXY_REDIS_PORT": "63849",
             "POCKETGALAXY_REDIS_DIR": "/tmp/pocketgalaxy-bench-redis"}


# -- infrastructure ----------------------------------------------------------------------------


def _script(name: str, command: str, env: dict[str, str]) -> str:
    done = subprocess.run([str(ROOT / "scripts" / name), command], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=600, check=False)
    if done.returncode != 0:
        raise SystemExit(f"scripts/{name} {command} failed: {done.stderr.strip()}")
    return done.stdout.strip()


def _loopback(url: str) -> str:
    if urlparse(url).hostname not in _LOOPBACK:
        raise SystemExit(f"load tests run on loopback only, not {url}")
    return url


class Database:
    """A fresh PostgreSQL database for one phase, dropped afterwards."""

    def __init__(self, base: str) -> None:
        import sqlalchemy as sa

        self._sa = sa
        self.name = f"bench_{secrets.token_hex(5)}"
        self._admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
        with self._admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{self.name}"'))
        self.url = sa.engine.make_url(base).set(database=self.name).render_as_string(
            hide_password=False)

    def drop(self) -> None:
        with self._admin.connect() as conn:
            conn.execute(self._sa.text(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
        self._admin.dispose()


@dataclass
class Worker:
    proc: subprocess.Popen[str]
    url: str
    ps: psutil.Process
    idle_rss: int = 0
    cpu0: float = 0.0


class Workers:
    """N workers on one database (and one Redis when clustered); stopped by `stop()`."""

    def __init__(self, tmp: Path, n: int, database_url: str | None, redis_url: str | None,
                 pace: bool) -> None:
        self.list: list[Worker] = []
        self.db: Database | None = None
        try:
            for i in range(n):
                env = {"POCKETGALAXY_LEASE_TTL_S": LEASE_TTL_S,
                       "POCKETGALAXY_WORKER_ID": f"w{i + 1}"}
                if redis_url:
                    env["POCKETGALAXY_REDIS_URL"] = redis_url
                if pace:  # people at a human pace: the server's own message limits can stay
                    env.update(POCKETGALAXY_RATE_PER_S="20", POCKETGALAXY_RATE_BURST="20")
                data = tmp / f"w{i + 1}-{secrets.token_hex(3)}"
                data.mkdir()
                proc, url = start_server(data, database_url=database_url, env=env)
                self.list.append(Worker(proc, url, psutil.Process(proc.pid)))
        except BaseException:
            self.stop()
            raise

    def mark_idle(self) -> None:
        for w in self.list:
            w.idle_rss = w.ps.memory_info().rss

    def mark_cpu(self) -> None:
        for w in self.list:
            t = w.ps.cpu_times()
            w.cpu0 = t.user + t.system

    def cpu_since_mark(self) -> list[float]:
        out = []
        for w in self.list:
            t = w.ps.cpu_times()
            out.append(t.user + t.system - w.cpu0)
        return out

    def rss(self) -> list[int]:
        return [w.ps.memory_info().rss for w in self.list]

    def stop(self) -> None:
        for w in self.list:
            w.proc.terminate()
        for w in self.list:
            try:
                w.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                w.proc.kill()
                w.proc.wait(timeout=10)
        self.list = []


class ServerCPU:
    """CPU time of the PostgreSQL or Redis serving a loopback URL: the process listening on its
    port and all its children (PostgreSQL's backends), so the whole cost of an action counts
    the stores too. Counted per process since the mark (a backend that starts meanwhile counts
    whole; one that exits meanwhile loses its share: the workers keep pooled connections, so
    few do); nan when the process cannot be found. Anything else using the same server (other
    databases on it) counts too: run the bench on a server of its own."""

    def __init__(self, url: str) -> None:
        port = urlparse(url.replace("postgresql+psycopg", "postgresql")).port
        self.proc: psutil.Process | None = None
        for conn in psutil.net_connections(kind="tcp"):
            if conn.status == psutil.CONN_LISTEN and conn.laddr and conn.laddr.port == port:
                if conn.pid is not None:
                    self.proc = psutil.Process(conn.pid)
                    break
        self.start: dict[int, float] = {}

    def _each(self) -> dict[int, float]:
        out: dict[int, float] = {}
        if self.proc is None:
            return out
        for proc in [self.proc, *self.proc.children(recursive=True)]:
            try:
                t = proc.cpu_times()
            except psutil.Error:
                continue  # exited meanwhile
            out[proc.pid] = t.user + t.system
        return out

    def mark(self) -> None:
        self.start = self._each()

    def since_mark(self) -> float:
        if self.proc is None:
            return float("nan")
        return sum(cpu - self.start.get(pid, 0.0) for pid, cpu in self._each().items())


# -- phases --------------------------------------------------------------------------------------


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


def _live_games(url: str) -> int:
    """Games held in a worker's memory (`/api/health`), or -1 if it does not answer in time."""
    try:
        return int(httpx.get(f"{url}/api/health", timeout=30).json()["live"])
    except (httpx.HTTPError, KeyError, ValueError):
        return -1


def _client_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def paced(args: argparse.Namespace, pg: str, redis_url: str, tmp: Path) -> dict[str, Any]:
    db = Database(pg)
    workers = Workers(tmp, args.workers, db.url, redis_url, pace=True)
    try:
        time.sleep(2)  # let start-up settle before the idle memory is read
        workers.mark_idle()
        idle = [w.idle_rss for w in workers.list]
        load = Load([w.url for w in workers.list], args.games, args.watched, args.watchers,
                    args.seed, think=True, placement=args.placement)
        marks: dict[str, Any] = {}
        stores = {"pg": ServerCPU(pg), "redis": ServerCPU(redis_url)}

        def measure() -> None:
            workers.mark_cpu()
            for store in stores.values():
                store.mark()
            marks["client_cpu"] = _client_cpu()
            marks["rss_live"] = workers.rss()
            # Games in each worker's memory: a game lives on every worker one of its sockets is on.
            marks["live"] = [_live_games(w.url) for w in workers.list]
            if args.mark_file is not None:  # for a profiler: the workers' pids, measure begun
                args.mark_file.write_text("".join(f"{w.proc.pid}\n" for w in workers.list))

        def end() -> None:
            marks["cpu"] = workers.cpu_since_mark()
            marks["client_cpu"] = _client_cpu() - marks["client_cpu"]
            marks["stores"] = {k: v.since_mark() for k, v in stores.items()}
            marks["rss_end"] = workers.rss()

        async def go() -> float:
            lag = LoopLag()
            lag.start()
            t = time.perf_counter()
            await load.setup()
            marks["setup_s"] = time.perf_counter() - t
            elapsed = await load.run(args.warmup, args.seconds, measure, end)
            lag.stop()
            marks["lag_p99"] = _pct(lag.lags, 0.99)
            await load.close()
            return elapsed

        elapsed = run(go())
    finally:
        workers.stop()
        db.drop()
    s = load.stats
    per_game = (sum(marks["rss_live"]) - sum(idle)) / args.games
    return {
        "games": args.games, "workers": args.workers, "watched": args.watched,
        "placement": args.placement,
        "watchers": args.watchers, "seconds": elapsed, "setup_s": marks["setup_s"],
        "actions": s.actions, "actions_per_s": s.actions / elapsed, "finished": s.finished,
        "refused": dict(s.refused),
        "own_p50": _pct(s.own, 0.5), "own_p99": _pct(s.own, 0.99), "own_n": len(s.own),
        "other_p50": _pct(s.other, 0.5), "other_p99": _pct(s.other, 0.99),
        "watch_p50": _pct(s.watch, 0.5), "watch_p99": _pct(s.watch, 0.99), "watch_n": len(s.watch),
        "worker_cpu_pct": [100 * c / elapsed for c in marks["cpu"]],
        "worker_rss_idle_mb": [r / 2**20 for r in idle],
        "worker_rss_live_mb": [r / 2**20 for r in marks["rss_live"]],
        "worker_rss_end_mb": [r / 2**20 for r in marks["rss_end"]],
        "kb_per_game": per_game / 1024, "live_per_worker": marks["live"],
        "kb_per_copy": ((sum(marks["rss_live"]) - sum(idle)) / sum(marks["live"]) / 1024
                        if min(marks["live"]) > 0 else float("nan")),
        "client_cpu_pct": 100 * marks["client_cpu"] / elapsed, "client_lag_p99": marks["lag_p99"],
        "pg_cpu_pct": 100 * marks["stores"]["pg"] / elapsed,
        "redis_cpu_pct": 100 * marks["stores"]["redis"] / elapsed,
    }


def saturate(n: int, args: argparse.Namespace, pg: str | None, redis_url: str | None,
             tmp: Path, seed: int, placement: str = "spread") -> dict[str, Any]:
    db = Database(pg) if pg else None
    workers = Workers(tmp, n, db.url if db else None, redis_url, pace=False)
    try:
        load = Load([w.url for w in workers.list], args.sat_games, 0, 0, seed, think=False,
                    placement=placement)
        marks: dict[str, Any] = {}
        stores = {"pg": ServerCPU(pg), "redis": ServerCPU(redis_url)} if pg and redis_url else {}

        def measure() -> None:
            workers.mark_cpu()
            for store in stores.values():
                store.mark()
            marks["client_cpu"] = _client_cpu()

        def end() -> None:
            marks["cpu"] = workers.cpu_since_mark()
            marks["client_cpu"] = _client_cpu() - marks["client_cpu"]
            marks["stores"] = {k: v.since_mark() for k, v in stores.items()}

        async def go() -> float:
            await load.setup()
            elapsed = await load.run(2.0, args.sat_seconds, measure, end)
            await load.close()
            return elapsed

        elapsed = run(go())
    finally:
        workers.stop()
        if db:
            db.drop()
    s = load.stats
    return {"workers": n, "actions_per_s": s.actions / elapsed, "p50": _pct(s.own, 0.5),
            "p99": _pct(s.own, 0.99), "worker_cpu_pct": [100 * c / elapsed for c in marks["cpu"]],
            "client_cpu_pct": 100 * marks["client_cpu"] / elapsed, "refused": dict(s.refused),
            "pg_cpu_pct": 100 * marks["stores"].get("pg", 0.0) / elapsed,
            "redis_cpu_pct": 100 * marks["stores"].get("redis", 0.0) / elapsed}


# -- main ----------------------------------------------------------------------------------------


def _bounded(args: argparse.Namespace) -> None:
    checks = [
        (1 <= args.games <= MAX_GAMES, f"--games must be 1..{MAX_GAMES}"),
        (0 <= args.watched <= min(MAX_WATCHED, args.games), f"--watched must be 0..{MAX_WATCHED}"
         " and at most --games"),
        (0 <= args.watchers <= MAX_WATCHERS, f"--watchers must be 0..{MAX_WATCHERS}"),
        (2 <= args.workers <= 8, "--workers must be 2..8"),
        (1 <= args.sat_games <= MAX_GAMES, f"--sat-games must be 1..{MAX_GAMES}"),
        (0 < args.seconds <= MAX_SECONDS and 0 < args.sat_seconds <= MAX_SECONDS,
         f"--seconds and --sat-seconds must be in (0, {MAX_SECONDS:g}]"),
        (0 <= args.warmup <= 120, "--warmup must be 0..120"),
        (0 <= args.sat_rounds <= 5, "--sat-rounds must be 0..5"),
    ]
    for ok, message in checks:
        if not ok:
            raise SystemExit(message)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--games", type=int, default=1000, help="paced live games")
    parser.add_argument("--watched", type=int, default=50, help="games with watchers")
    parser.add_argument("--watchers", type=int, default=5, help="watchers per watched game")
    parser.add_argument("--seconds", type=float, default=60.0, help="paced measure, after warm-up")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--sat-games", type=int, default=100)
    parser.add_argument("--sat-seconds", type=float, default=15.0)
    parser.add_argument("--sat-rounds", type=int, default=3, help="0 skips saturation")
    parser.add_argument("--skip-paced", action="store_true")
    parser.add_argument("--placement", choices=("spread", "game"), default="spread",
                        help="paced: each game's sockets across workers (spread) or on one")
    parser.add_argument("--postgres-url", help="a PostgreSQL on loopback (default: start one)")
    parser.add_argument("--redis-url", help="a Redis on loopback (default: start one)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--mark-file", type=Path,
                        help="when the paced measure begins, write the workers' pids here "
                             "(one a line), e.g. for `py-spy record -p PID`")
    args = parser.parse_args()
    _bounded(args)

    started_pg = started_redis = False
    pg = _loopback(args.postgres_url) if args.postgres_url else None
    redis_url = _loopback(args.redis_url) if args.redis_url else None
    report: dict[str, Any] = {
        "cores": os.cpu_count(), "affinity": len(os.sched_getaffinity(0)),
        "loadavg_before": os.getloadavg(),
    }
    try:
        if pg is None:
            pg, started_pg = _script("postgres.sh", "start", PG_ENV), True
        if redis_url is None:
            redis_url, started_redis = _script("redis.sh", "start", REDIS_ENV), True
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            if not args.skip_paced:
                report["paced"] = paced(args, pg, redis_url, tmp)
                _print_paced(report["paced"])
            rounds: list[dict[str, Any]] = []
            for r in range(args.sat_rounds):
                # Alternating, so a change in the machine's load falls on both alike.
                rounds.append({"setup": "1 worker, SQLite, no Redis", **saturate(
                    1, args, None, None, tmp, args.seed + r)})
                rounds.append({"setup": "1 worker, PostgreSQL + Redis", **saturate(
                    1, args, pg, redis_url, tmp, args.seed + r)})
                for placement in ("game", "spread"):
                    rounds.append({
                        "setup": f"{args.workers} workers, PostgreSQL + Redis, {placement}",
                        **saturate(args.workers, args, pg, redis_url, tmp, args.seed + r,
                                   placement)})
                print(f"saturation round {r + 1}: " + ", ".join(
                    f"{x['setup']}: {x['actions_per_s']:.0f}/s" for x in rounds[-4:]), flush=True)
            if rounds:
                report["saturation"] = _summarise(rounds)
                _print_saturation(report["saturation"], args)
    finally:
        if started_redis:
            _script("redis.sh", "stop", REDIS_ENV)
        if started_pg:
            _script("postgres.sh", "stop", PG_ENV)
    report["loadavg_after"] = os.getloadavg()
    print(f"machine: {report['cores']} cores ({report['affinity']} usable), load average "
          f"before {report['loadavg_before'][0]:.2f}, after {report['loadavg_after'][0]:.2f}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")


def _summarise(rounds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for setup in dict.fromkeys(r["setup"] for r in rounds):  # first-seen order, deterministic
        mine = [r for r in rounds if r["setup"] == setup]
        out.append({
            "setup": setup, "workers": mine[0]["workers"], "rounds": len(mine),
            "actions_per_s": statistics.median(r["actions_per_s"] for r in mine),
            "all_actions_per_s": [r["actions_per_s"] for r in mine],
            "p50": statistics.median(r["p50"] for r in mine),
            "p99": statistics.median(r["p99"] for r in mine),
            "worker_cpu_pct": [statistics.median(c) for c in zip(
                *(r["worker_cpu_pct"] for r in mine), strict=True)],
            "client_cpu_pct": statistics.median(r["client_cpu_pct"] for r in mine),
            "pg_cpu_pct": statistics.median(r["pg_cpu_pct"] for r in mine),
            "redis_cpu_pct": statistics.median(r["redis_cpu_pct"] for r in mine),
        })
    return out


def _print_paced(p: dict[str, Any]) -> None:
    print(f"paced: {p['games']} live games (2 people each, thinking {THINK_S[0]}-{THINK_S[1]} s) "
          f"on {p['workers']} workers ({p['placement']}), {p['watchers']} watchers on "
          f"{p['watched']} of them; "
          f"{p['seconds']:.0f} s measured (set-up {p['setup_s']:.0f} s)")
    print(f"  actions: {p['actions']} = {p['actions_per_s']:.0f}/s, games finished "
          f"{p['finished']}, refused {p['refused'] or 'none'}")
    print(f"  act -> update, actor's socket:     p50 {p['own_p50']:.1f} ms, p99 "
          f"{p['own_p99']:.1f} ms ({p['own_n']} measured)")
    print(f"  act -> update, other seat's:       p50 {p['other_p50']:.1f} ms, p99 "
          f"{p['other_p99']:.1f} ms"
          + (" (another worker, through Redis)" if p["placement"] == "spread" else ""))
    print(f"  act -> update, watchers':          p50 {p['watch_p50']:.1f} ms, p99 "
          f"{p['watch_p99']:.1f} ms ({p['watch_n']} measured)")
    for i, (cpu, idle, live, end) in enumerate(zip(
            p["worker_cpu_pct"], p["worker_rss_idle_mb"], p["worker_rss_live_mb"],
            p["worker_rss_end_mb"], strict=True)):
        print(f"  worker w{i + 1}: CPU {cpu:.0f}% of a core, RSS idle {idle:.0f} MB, with the "
              f"games {live:.0f} MB, at the end {end:.0f} MB")
    print(f"  memory per live game: {p['kb_per_game']:.0f} KB (all workers' RSS with the games "
          f"minus idle, / games); games held in memory per worker {p['live_per_worker']}, "
          f"{p['kb_per_copy']:.0f} KB per game held")
    per_action = 10 * sum(p["worker_cpu_pct"]) / max(p["actions_per_s"], 1e-9)
    print(f"  workers' CPU per action: {per_action:.1f} ms (all workers' CPU time / actions)")
    print(f"  client: CPU {p['client_cpu_pct']:.0f}% of a core, its event loop late by "
          f"{p['client_lag_p99']:.1f} ms at p99")
    _print_whole(p, p["actions_per_s"])


def _print_saturation(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    print(f"saturation: {args.sat_games} games, no thinking time, {args.sat_seconds:g} s each, "
          f"medians of {rows[0]['rounds']} alternating rounds")
    for r in rows:
        cpu = ", ".join(f"{c:.0f}%" for c in r["worker_cpu_pct"])
        per_action = 10 * sum(r["worker_cpu_pct"]) / max(r["actions_per_s"], 1e-9)
        print(f"  {r['setup']:<40} {r['actions_per_s']:6.0f} actions/s  p50 {r['p50']:.1f} ms "
              f"p99 {r['p99']:.1f} ms  worker CPU {cpu} ({per_action:.1f} ms of CPU per action)"
              f"  client CPU {r['client_cpu_pct']:.0f}%")
        if r["workers"] > 1 or "PostgreSQL" in r["setup"]:
            _print_whole(r, r["actions_per_s"])
    base = next(r for r in rows if r["setup"].startswith("1 worker, PostgreSQL"))
    for many in rows[-2:]:
        print(f"  {many['setup']} / 1 worker, PostgreSQL + Redis: "
              f"{many['actions_per_s'] / base['actions_per_s']:.2f}x")


def _print_whole(r: dict[str, Any], rate: float) -> None:
    """The whole CPU of an action: the workers, the client, PostgreSQL and Redis (ms each)."""
    per = {"workers": sum(r["worker_cpu_pct"]), "client": r["client_cpu_pct"],
           "PostgreSQL": r["pg_cpu_pct"], "Redis": r["redis_cpu_pct"]}
    ms = {k: 10 * v / max(rate, 1e-9) for k, v in per.items()}
    print("    CPU per action: " + ", ".join(f"{k} {v:.2f} ms" for k, v in ms.items())
          + f"; whole {sum(ms.values()):.2f} ms")


if __name__ == "__main__":
    main()
