"""Play scheduled games on a Ray cluster: the same jobs as `run_jobs`, the same results.

Games travel in batches (at most `DEFAULT_BATCH` per task, and at least `TASKS_PER_CPU` tasks
per cluster CPU): large enough that Ray's per-task cost (about a millisecond) stays small
beside the games, small enough that the last tasks of a study do not leave CPUs idle while one
long batch finishes. Each task runs `play_chunk`, the very function a local worker runs. Every
job carries its own seed, so the results (sorted by index) are identical to `run_jobs` with any
`--workers`. Results
stream back as tasks finish (`ray.wait`), so a caller's `sink` keeps them if the run is
interrupted.

`address=None` starts a private Ray instance in this process (for one machine); otherwise it
joins the cluster at HOST:PORT (`ray start --head --port PORT` on the head node). Either way
`ray_session` then pre-starts one worker per CPU and imports the game code in it, so the
study's first batches do not each pay a fresh interpreter's start (it is start-up, measured as
such by bench/bench_balance_backends.py). Ray is an
optional dependency (`pip install 'pocketgalaxy[cluster]'`).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.sim.pool import chunked
from pocketgalaxy.sim.runner import GameResult, Job, ProgressFn, play_chunk

DEFAULT_BATCH = 100
TASKS_PER_CPU = 16
"""Batches per CPU at least: the idle tail at the end of a study is at most one batch per CPU,
about 1/16 of each CPU's share."""
MAX_IN_FLIGHT_PER_CPU = 4
"""Tasks queued per cluster CPU: enough to keep every CPU busy, not the whole study at once."""


def _ray() -> Any:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no reporting home from a study
    try:
        import ray
    except ModuleNotFoundError:
        raise PocketGalaxyError(
            "--backend ray needs Ray: pip install 'pocketgalaxy[cluster]' (or ray>=2.9)",
            code="sim/no_ray") from None
    return ray


CONNECT_TIMEOUT_S = 5.0


def _check_reachable(address: str) -> None:
    """Refuse at once when nothing listens at HOST:PORT (Ray itself retries for minutes)."""
    host, colon, port = address.rpartition(":")
    if not colon or not port.isdigit() or not host:
        raise PocketGalaxyError(f"bad --address {address!r}: expected HOST:PORT, e.g. "
                                "10.0.0.5:6379", code="sim/bad_address")
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as exc:
        raise PocketGalaxyError(
            f"cannot reach the Ray cluster at {address}: {exc.strerror or exc} (start one with "
            "`ray start --head --port PORT`)", code="sim/ray_unreachable") from exc


@contextmanager
def ray_session(address: str | None = None) -> Iterator[None]:
    """Connect to Ray (or start a private instance) for the block, unless already connected."""
    ray = _ray()
    if ray.is_initialized():
        yield
        return
    if address:
        _check_reachable(address)
    try:
        if address:
            ray.init(address=address, log_to_driver=False, include_dashboard=False)
        else:
            ray.init(log_to_driver=False, include_dashboard=False,
                     _system_config={"worker_niceness": private_niceness()})
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise PocketGalaxyError(f"cannot reach the Ray cluster at {address}: {exc}",
                                code="sim/ray_unreachable") from exc
    try:
        prestart_workers()
        yield
    finally:
        ray.shutdown()


PRIVATE_WORKER_NICENESS = 0
"""Ray runs its workers at niceness 15 unless told otherwise, so on a machine that is doing
anything else they get a small share of the CPU that `--workers` processes (niceness 0) get. A
private instance is this study's own: its workers run at the same niceness as local workers
(`RAY_worker_niceness` in the environment still wins). On a cluster the nodes' own setting
applies (docs/balance.md)."""


def private_niceness() -> int:
    text = os.environ.get("RAY_worker_niceness", "")
    return int(text) if text.strip().lstrip("-").isdigit() else PRIVATE_WORKER_NICENESS


def _warm(games: Sequence[str]) -> int:
    """A worker's first task: import the rules (and wait a moment, so each CPU gets its own)."""
    import time

    from pocketgalaxy.registry import get_game

    for game in games:
        get_game(game)
    time.sleep(0.2)
    return os.getpid()


def prestart_workers(games: Sequence[str] = ("perils", "adventure")) -> int:
    """Start one Ray worker per cluster CPU and import the game code in each; returns how many
    distinct worker processes answered."""
    ray = _ray()
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    task = ray.remote(_warm)
    return len(set(ray.get([task.remote(tuple(games)) for _ in range(cpus)])))


def batch_size(jobs: int, cpus: int) -> int:
    """Games per task: at most DEFAULT_BATCH, and at least TASKS_PER_CPU tasks per CPU, so a
    study keeps every CPU busy to the end."""
    return max(1, min(DEFAULT_BATCH, jobs // (max(1, cpus) * TASKS_PER_CPU)))


def run_jobs_ray(
    jobs: Sequence[Job], *, address: str | None = None, batch: int | None = None,
    progress: ProgressFn | None = None,
    sink: Callable[[list[GameResult]], None] | None = None,
) -> list[GameResult]:
    """Play `jobs` on Ray; results sorted by index, as `run_jobs` gives them."""
    ray = _ray()
    with ray_session(address):
        task = ray.remote(play_chunk)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = batch or batch_size(len(jobs), cpus)
        chunks = chunked(jobs, size)
        limit = max(2, cpus * MAX_IN_FLIGHT_PER_CPU)
        results: list[GameResult] = []
        pending: list[Any] = []
        if progress:
            progress(0, len(jobs))
        next_chunk = 0
        while next_chunk < len(chunks) or pending:
            while next_chunk < len(chunks) and len(pending) < limit:
                pending.append(task.remote(chunks[next_chunk]))
                next_chunk += 1
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                part: list[GameResult] = ray.get(ref)
                results.extend(part)
                if sink:
                    sink(part)
                if progress:
                    progress(len(results), len(jobs))
    results.sort(key=lambda r: r.index)
    return results
