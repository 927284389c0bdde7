"""Play a study: every variant plays the same deals (common random numbers).

Game i of every variant gets the seed `derive_seed(study.seed, i)`, and its players the seeds
derived from that, so two variants differ only by their rules: their results are paired, and a
difference shows with far fewer games than two independent runs need.

With a target precision the games are played in growing batches (1,000 per variant, then
doubling) until every interval of interest is narrower than the target, or the cap is reached.
The batches are cut at game numbers, so a study stopped after k games holds exactly the games
0..k-1 of a longer one. Ctrl-C keeps every game already finished.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.sim.balance.study import Study
from pocketgalaxy.sim.pool import ProgressFn
from pocketgalaxy.sim.runner import GameResult, Job, derive_seed, run_jobs, seat_specs

FIRST_BATCH = 1000
BACKENDS = ("processes", "ray")


@dataclass
class StudyRun:
    """The games a study played, by variant, each list sorted by game number."""

    study: Study
    games: dict[str, list[GameResult]] = field(default_factory=dict)
    stopped: str = "games"
    """Why it ended: "games" (all played), "precision" (the target was met) or "interrupted"."""

    def paired_count(self) -> int:
        """How many game numbers every variant has played (the pairs the comparisons use)."""
        return len(self.common_numbers())

    def common_numbers(self) -> list[int]:
        sets = [{game_number(r, len(self.study.variants)) for r in rs}
                for rs in self.games.values()]
        if not sets:
            return []
        return sorted(set.intersection(*sets))


def game_number(result: GameResult, variants: int) -> int:
    return result.index // variants


def _jobs(study: Study, start: int, stop: int) -> list[Job]:
    count = len(study.variants)
    return [
        Job(study.game, seat_specs(variant.players or study.players, i, study.rotate),
            derive_seed(study.seed, i), variant.options, len(variant.players or study.players),
            i * count + v, True)
        for i in range(start, stop)
        for v, variant in enumerate(study.variants)
    ]


def run_study(
    study: Study,
    *,
    workers: int = 1,
    progress: ProgressFn | None = None,
    precise_enough: Callable[[StudyRun], bool] | None = None,
    first_batch: int = FIRST_BATCH,
    backend: str = "processes",
    address: str | None = None,
) -> StudyRun:
    """Play the study's games; `precise_enough(run)` decides when a precision study may stop
    (checked after each batch: `first_batch` games per variant, then doubling).

    `backend="ray"` plays them on a Ray cluster at `address` (None: a private instance); the
    results are the same as with any number of local `workers`."""
    if backend not in BACKENDS:
        raise PocketGalaxyError(f"unknown backend {backend!r}", code="sim/bad_backend",
                                allowed=list(BACKENDS))
    if backend == "ray":
        from pocketgalaxy.sim.ray_runner import ray_session, run_jobs_ray

        def play(jobs: list[Job], sink: Callable[[list[GameResult]], None]) -> None:
            run_jobs_ray(jobs, address=address, sink=sink)

        with ray_session(address):
            return _run(study, play, progress, precise_enough, first_batch)

    def play_local(jobs: list[Job], sink: Callable[[list[GameResult]], None]) -> None:
        run_jobs(jobs, workers=workers, sink=sink)

    return _run(study, play_local, progress, precise_enough, first_batch)


def _run(
    study: Study,
    play: Callable[[list[Job], Callable[[list[GameResult]], None]], None],
    progress: ProgressFn | None,
    precise_enough: Callable[[StudyRun], bool] | None,
    first_batch: int,
) -> StudyRun:
    run = StudyRun(study, {v.name: [] for v in study.variants})
    names = [v.name for v in study.variants]
    total = study.games * len(names)
    played = 0

    def keep(results: list[GameResult]) -> None:
        nonlocal played
        for r in results:
            run.games[names[r.index % len(names)]].append(r)
        played += len(results)
        if progress:
            progress(played, total)

    bounds = [(0, study.games)]
    if study.precision is not None and precise_enough is not None:
        bounds, start, size = [], 0, max(1, first_batch)
        while start < study.games:
            stop = min(study.games, start + size)
            bounds.append((start, stop))
            start, size = stop, size * 2
    try:
        for start, stop in bounds:
            play(_jobs(study, start, stop), keep)
            if study.precision is not None and precise_enough is not None:
                if stop < study.games and precise_enough(run):
                    run.stopped = "precision"
                    break
    except KeyboardInterrupt:
        run.stopped = "interrupted"
    for results in run.games.values():
        results.sort(key=lambda r: r.index)
    return run
