"""Skill versus luck: a ladder of players on the same deals, from random to the card-seer.

The rungs, weakest to strongest: `random` (uniform over the legal moves), `rule-based` (Perils:
`rulebased`; Adventure: `memory`), `search` (Perils: `planner`; Adventure: `ismcts`) and `oracle`
(sim/balance/oracle.py: the best player here, reading every face-down card). Perils puts each
rung in the Hero's seat against the study's computer Teller; Adventure puts it in one seat
against a field of `forgetful:level=normal` players, the ladder's seat moving one place each
game (game i: seat i mod players).

Game i of every rung gets the study's seed for game i (`derive_seed(seed, i)`), and the field's
players the seeds `run_jobs` gives them: the rungs play the same deals, dice and opponents
(common random numbers), so their differences are paired. The Perils rule-based rung therefore
plays exactly the games of a study's `rulebased` baseline.

Measures (ladder_measures): each rung's win rate (Adventure: the ladder seat's win share, a
shared win counting 1/k) with a Wilson interval; the spread, oracle minus random, as a paired
mean difference with its t interval; and each middle rung's skill share, the part of the
random-to-oracle gap it closes, (W - W_random) / (W_oracle - W_random), with a seeded paired
bootstrap interval (SciPy). docs/balance.md says where the idea comes from.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import Event, GameRules, visible_events
from pocketgalaxy.core.options import options_from_json
from pocketgalaxy.registry import get_game
from pocketgalaxy.sim.balance.measures import _mean, _prop, r6
from pocketgalaxy.sim.balance.oracle import ORACLE, make_oracle
from pocketgalaxy.sim.pool import ProgressFn, chunk_size, chunked, run_chunks
from pocketgalaxy.sim.runner import MAX_DECISIONS, derive_seed

RUNGS = ("random", "rule-based", "search", "oracle")
SPECS: dict[str, dict[str, str]] = {
    "perils": {"random": "random", "rule-based": "rulebased", "search": "planner",
               "oracle": ORACLE},
    "adventure": {"random": "random", "rule-based": "memory",
                  "search": "ismcts:iterations=100", "oracle": ORACLE},
}
"""The player on each rung. Adventure's search player runs 100 iterations a move (its default is
300) so a ladder of a few thousand games takes minutes; docs/balance.md gives the figures."""
ADVENTURE_FIELD = "forgetful:level=normal"
ADVENTURE_PLAYERS = 4
MAX_LADDER_GAMES = 100_000
"""Games per rung at most: the search rungs play a few dozen games a second at best."""
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_GAMES = 100_000
MEANING = ("Skill versus luck: the same deals played by a ladder of players, from random to one "
           "who sees every face-down card. The spread (oracle minus random) is how far play can "
           "move the result; a rung's skill share is the part of that gap it closes (0: no "
           "better than random, 1: as good as seeing the cards).")


class LadderJob(NamedTuple):
    """One ladder game: plain data, so it travels to a worker process."""

    game: str
    rung: str
    specs: tuple[str, ...]
    """Every seat's player; the ladder seat's is the rung's spec."""
    seat: int
    seed: int
    options: dict[str, Any]
    number: int


class LadderResult(NamedTuple):
    rung: str
    number: int
    seed: int
    seat: int
    share: float
    """1 if the ladder's player won (1/k of a k-way shared win), else 0."""
    length: int
    capped: bool


def ladder_jobs(game: str, options: dict[str, Any], seed: int, games: int,
                rungs: Sequence[str] = RUNGS, teller: str = "teller") -> list[LadderJob]:
    """Games 0..games-1 for every rung (the rung inner, so an interrupted ladder stays paired)."""
    if not 1 <= games <= MAX_LADDER_GAMES:
        raise PocketGalaxyError(f"ladder games per rung must be 1..{MAX_LADDER_GAMES:,}, got "
                                f"{games}", code="balance/bad_study")
    unknown = [r for r in rungs if r not in RUNGS]
    if unknown or not rungs:
        raise PocketGalaxyError(f"unknown ladder rung(s) {unknown}", code="balance/bad_study",
                                allowed=list(RUNGS))
    jobs = []
    for i in range(games):
        for rung in rungs:
            spec = SPECS[game][rung]
            specs: tuple[str, ...]
            if game == "perils":
                seat, specs = 0, (spec, teller)
            else:
                seat = i % ADVENTURE_PLAYERS
                specs = tuple(spec if s == seat else ADVENTURE_FIELD
                              for s in range(ADVENTURE_PLAYERS))
            jobs.append(LadderJob(game, rung, specs, seat, derive_seed(seed, i), options, i))
    return jobs


def _agent(job: LadderJob, seat: int, players: int) -> Agent:
    seed = derive_seed(job.seed, 1 + seat)  # as sim/runner.py seeds every seat
    if seat == job.seat and job.specs[seat] == ORACLE:
        return make_oracle(job.game, seed)
    return make_agent(job.game, job.specs[seat], seat, players, seed=seed)


def play_ladder_game(rules: GameRules[Any, Any], job: LadderJob) -> LadderResult:
    """One game as sim/runner.py plays it, but the oracle (if seated) also sees the state."""
    players = len(job.specs)
    options = options_from_json(rules.options_type, job.options)
    agents = [_agent(job, i, players) for i in range(players)]
    state = rules.new(options, job.seed, players=players)
    opening: list[Event] = rules.opening_events(state)
    for i, agent in enumerate(agents):
        agent.reset(i, players, options)
        agent.observe(visible_events(opening, i))
    oracle = agents[job.seat] if job.specs[job.seat] == ORACLE else None
    if oracle is not None:
        oracle.see(state)  # type: ignore[attr-defined]  # the oracle's one extra door
    decisions = 0
    seat: int | None = rules.to_act(state)
    while seat is not None:
        action = agents[seat].act(rules.view(state, seat), rules.legal_actions(state, seat))
        events = rules.apply_unchecked(state, seat, action)
        for s, agent in enumerate(agents):
            agent.observe(visible_events(events, s))
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise PocketGalaxyError(f"ladder game {job.number} (seed {job.seed}) did not end",
                                    code="sim/runaway")
        seat = rules.to_act(state)
    outcome = rules.outcome(state)
    assert outcome is not None
    final = rules.view(state, None)
    length = int(getattr(final, "round" if job.game == "perils" else "turn", 0) or 0)
    won = job.seat in outcome.winners
    share = (1.0 / len(outcome.winners)) if won else 0.0
    if job.game == "perils":
        share = 1.0 if outcome.winners else 0.0  # the Hero and Teller win together
    return LadderResult(job.rung, job.number, job.seed, job.seat, share, length,
                        outcome.ended_by_cap)


def play_ladder_chunk(jobs: Sequence[LadderJob]) -> list[LadderResult]:
    """A worker's unit of work."""
    cache: dict[str, GameRules[Any, Any]] = {}
    return [play_ladder_game(cache.setdefault(j.game, get_game(j.game)), j) for j in jobs]


def run_ladder(jobs: Sequence[LadderJob], *, workers: int = 1,
               progress: ProgressFn | None = None) -> list[LadderResult]:
    """Play the ladder in `workers` processes; results by (number, rung order), the same with
    any number of workers. Ctrl-C keeps the games already finished."""
    chunks = chunked(jobs, chunk_size(len(jobs), workers, 50))
    out: list[LadderResult] = []
    try:
        for part in run_chunks(play_ladder_chunk, chunks, workers=workers, progress=progress):
            out.extend(part)
    except KeyboardInterrupt:
        pass
    order = {r: i for i, r in enumerate(RUNGS)}
    out.sort(key=lambda r: (r.number, order[r.rung]))
    return out


LADDER_CSV_FIELDS = ("rung", "player", "game", "seed", "seat", "win", "length", "capped")


def write_ladder_rows(results: Sequence[LadderResult], game: str, folder: Path) -> Path:
    """ladder.csv: one row per ladder game (seats from 1), enough to replay any of them."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(LADDER_CSV_FIELDS)
    for r in results:
        writer.writerow([r.rung, SPECS[game][r.rung], r.number, r.seed, r.seat + 1,
                         r6(r.share), r.length, r.capped])
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "ladder.csv"
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


def ladder_measures(game: str, results: Sequence[LadderResult], seed: int) -> dict[str, Any]:
    """The ladder's table, spread and skill shares (JSON-ready, 6-place floats)."""
    from scipy.stats import bootstrap

    lengths: dict[str, list[int]] = {}
    for r in results:
        lengths.setdefault(r.rung, []).append(r.length)
    by_rung: dict[str, dict[int, float]] = {}
    for r in results:
        by_rung.setdefault(r.rung, {})[r.number] = r.share
    rungs = [r for r in RUNGS if r in by_rung]
    numbers = sorted(set.intersection(*(set(by_rung[r]) for r in rungs))) if rungs else []
    arrays = {r: np.array([by_rung[r][n] for n in numbers], dtype=float) for r in rungs}
    table = [{"rung": r, "player": SPECS[game][r], "games": len(numbers),
              "win_rate": _prop(float(arrays[r].sum()), len(numbers)),
              "length": _mean(lengths[r])} for r in rungs]
    out: dict[str, Any] = {
        "meaning": MEANING, "game": game, "games": len(numbers), "rungs": table,
        "field": ("the computer Teller" if game == "perils"
                  else f"{ADVENTURE_PLAYERS - 1} x {ADVENTURE_FIELD}, ladder seat rotated"),
        "fair_share": None if game == "perils" else r6(1 / ADVENTURE_PLAYERS),
        "spread": None, "skill_share": {},
    }
    if "random" in arrays and "oracle" in arrays and numbers:
        lo, hi = arrays["random"], arrays["oracle"]
        d = _mean(hi - lo)
        out["spread"] = {"diff": d["mean"], "ci_low": d["ci_low"], "ci_high": d["ci_high"],
                         "pairs": len(numbers)}
        for rung in rungs:
            if rung in ("random", "oracle"):
                continue
            mid = arrays[rung]
            gap = float(hi.mean() - lo.mean())
            value = float(mid.mean() - lo.mean()) / gap if gap > 0 else None
            low = high = None
            if value is not None and len(numbers) >= 2:
                def stat(a: np.ndarray, b: np.ndarray, c: np.ndarray,
                         axis: int = -1) -> np.ndarray:
                    g = c.mean(axis=axis) - a.mean(axis=axis)
                    with np.errstate(divide="ignore", invalid="ignore"):
                        return np.asarray((b.mean(axis=axis) - a.mean(axis=axis)) / g)

                n = min(len(numbers), BOOTSTRAP_GAMES)
                res = bootstrap((lo[:n], mid[:n], hi[:n]), stat, paired=True, vectorized=True,
                                n_resamples=BOOTSTRAP_RESAMPLES, method="percentile",
                                random_state=np.random.default_rng(seed))
                low, high = float(res.confidence_interval.low), float(
                    res.confidence_interval.high)
            out["skill_share"][rung] = {"value": r6(value), "ci_low": r6(low),
                                     "ci_high": r6(high)}
    return out
