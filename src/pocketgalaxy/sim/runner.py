"""Play many computer-only games fast and reproducibly.

`play_one` runs a single game with the rules object directly (no Session, no per-step clone):
each decision asks the seat's agent with that seat's view and the legal actions, then applies
the chosen action in place with `apply_unchecked` (the loop is sim/turns.py, compiled with the
rules core). Agents still see only views and the events their seat may see, exactly as under a
Session (a test holds the two together).

`run_many` plays games 0..n-1. Game i gets the seed `derive_seed(master, i)` and its agents get
`derive_seed(game_seed, 1 + seat)`, so any game can be rerun alone, and `workers=N` gives the
same results as one worker (results are sorted by index).

Speed (docs/simulation.md): no one reads a simulated game's words, so by default the runner
plays with the quiet rules (`registry.perils_rules(narrate=False)`): the computer Teller
suggests placeholders instead of sentences, and every decision and result stays the same
(tests/sim/test_sim_quiet.py holds the two paths together). `narrate=True` plays the full path.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import GameRules, visible_events
from pocketgalaxy.core.options import options_from_json, options_to_json
from pocketgalaxy.registry import get_game, perils_rules
from pocketgalaxy.sim.pool import ProgressFn as ProgressFn  # re-exported: callers import it here
from pocketgalaxy.sim.pool import chunk_size, chunked, run_chunks
from pocketgalaxy.sim.trace import tracer_for
from pocketgalaxy.sim.turns import derive_seed as derive_seed  # re-exported: callers import it here
from pocketgalaxy.sim.turns import play_turns

MAX_DECISIONS = 2_000_000
"""A game that needs more decisions than this is broken: the runner stops it with an error."""


@dataclass
class GameResult:
    """What one simulated game produced (plain data, JSON-ready)."""

    index: int
    seed: int
    specs: tuple[str, ...]
    winners: tuple[int, ...]
    reason: str
    length: int
    """Adventure: turns; Perils: rounds."""
    decisions: int
    first_player: int | None
    seconds: float
    decision_seconds: tuple[float, ...]
    seat_decisions: tuple[int, ...] = ()
    ended_by_cap: bool = False
    scores: tuple[float, ...] = ()
    extras: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "specs": list(self.specs),
            "winners": list(self.winners),
            "reason": self.reason,
            "length": self.length,
            "decisions": self.decisions,
            "first_player": self.first_player,
            "seconds": self.seconds,
            "decision_seconds": list(self.decision_seconds),
            "seat_decisions": list(self.seat_decisions),
            "ended_by_cap": self.ended_by_cap,
            "scores": list(self.scores),
            "extras": dict(self.extras),
        }


def seat_specs(specs: Sequence[str], index: int, rotate: bool) -> tuple[str, ...]:
    """The player spec at each seat for game `index`: with `rotate`, game i shifts the list by i,
    so every spec sits at every seat equally often over a multiple of n games."""
    n = len(specs)
    if not rotate or n == 0:
        return tuple(specs)
    shift = index % n
    return tuple(specs[(seat + shift) % n] for seat in range(n))


def sim_rules(game: str, narrate: bool = False) -> GameRules[Any, Any]:
    """The rules a simulation plays: without `narrate`, Perils' quiet rules (no sentences)."""
    if game == "perils" and not narrate:
        return perils_rules(narrate=False)
    return get_game(game)


def _make_agents(game: str, specs: Sequence[str], players: int, game_seed: int) -> dict[int, Agent]:
    return {
        seat: make_agent(game, spec, seat, players, seed=derive_seed(game_seed, 1 + seat))
        for seat, spec in enumerate(specs)
    }


def _view_field(view: Any, *names: str) -> Any:
    for name in names:
        value = getattr(view, name, None)
        if value is not None:
            return value
    return None


def play_one(
    game: str | GameRules[Any, Any],
    specs: Sequence[str],
    seed: int,
    options: Any = None,
    players: int | None = None,
    *,
    index: int = 0,
    trace: bool = False,
    narrate: bool = False,
) -> GameResult:
    """Play one computer-only game to the end; `specs[seat]` names each seat's agent.

    `seed` is the game's seed (deal, dice); agents are seeded from it per seat. With `trace`,
    the game's course (sim/trace.py) is added to its `extras`. A game named by a string plays
    with `sim_rules(game, narrate)`; a rules object is played as given.
    """
    rules = sim_rules(game, narrate) if isinstance(game, str) else game
    if options is None or isinstance(options, dict):
        options = options_from_json(rules.options_type, options)
    players = players or len(specs)
    if len(specs) != players:
        raise PocketGalaxyError(
            f"{len(specs)} player specs for {players} seats", code="sim/bad_specs"
        )
    agents = _make_agents(rules.name, specs, players, seed)
    started = time.perf_counter()
    state = rules.new(options, seed, players=players)
    # As under a Session: reset, then the setup's own events (the deal) filtered per seat.
    opening = rules.opening_events(state)
    tracer = tracer_for(rules.name, players) if trace else None
    if tracer is not None:
        tracer.see(opening)
    for agent_seat, agent in agents.items():
        agent.reset(agent_seat, players, options)
        agent.observe(visible_events(opening, agent_seat))
    perils = rules.name == "perils"
    # Perils' view reports the rules' own to_act: no need to build a whole view for it.
    first_player = (rules.to_act(state) if perils
                    else _view_field(rules.view(state, None), "to_act"))
    # Agents that keep no memory (Agent.observe as is) are not handed their events.
    observers = [seat for seat, agent in agents.items()
                 if type(agent).observe is not Agent.observe]
    turns = play_turns(rules, state, [agents[seat] for seat in range(players)], observers,
                       tracer, MAX_DECISIONS, index, seed)
    seconds = time.perf_counter() - started
    outcome = rules.outcome(state)
    assert outcome is not None  # to_act is None only when the game is over
    extras: dict[str, Any] = {}
    if perils:
        # What a watcher's view shows of the end (its round, archetype and health are the
        # state's own; tests/sim/test_sim_turns.py holds them to that view), without building
        # the whole view.
        length = int(state.round or 0)
        extras["archetype"] = state.archetype
        extras["health"] = state.health
    else:
        final = rules.view(state, None)
        length = int(_view_field(final, "turn", "turns", "turn_number") or 0)
    if tracer is not None:
        extras.update(tracer.finish(outcome.winners))
    return GameResult(
        index=index,
        seed=seed,
        specs=tuple(specs),
        winners=tuple(outcome.winners),
        reason=outcome.reason,
        length=length,
        decisions=turns.decisions,
        first_player=first_player if isinstance(first_player, int) else None,
        seconds=seconds,
        decision_seconds=tuple(turns.spent),
        seat_decisions=tuple(turns.counts),
        ended_by_cap=outcome.ended_by_cap,
        scores=tuple(outcome.scores),
        extras=extras,
    )


class Job(NamedTuple):
    """One scheduled game: plain data, so it travels to a worker process."""

    game: str
    specs: tuple[str, ...]
    seed: int
    options: dict[str, Any]
    players: int
    number: int
    trace: bool = False
    narrate: bool = False
    """Play the full path with every sentence (default: the quiet rules, same results)."""


def play_chunk(jobs: Sequence[Job]) -> list[GameResult]:
    """Play scheduled games one after another in this process (a worker's unit of work)."""
    rules_cache: dict[tuple[str, bool], GameRules[Any, Any]] = {}
    # Jobs of one run mostly share their options: parse each distinct set once (options are
    # frozen, so sharing the object is safe).
    options_cache: dict[tuple[str, str], Any] = {}
    # An unpickled chunk's jobs hold one dict of options (pickle writes a shared object once):
    # the last dict seen is recognised by identity, without writing it out as a key again.
    last: tuple[str, dict[str, Any] | None, Any] = ("", None, None)
    out = []
    for job in jobs:
        key = (job.game, job.narrate)
        rules = rules_cache.get(key)
        if rules is None:
            rules = rules_cache[key] = sim_rules(job.game, job.narrate)
        if last[1] is job.options and last[0] == job.game:
            options = last[2]
        else:
            okey = (job.game, json.dumps(job.options, sort_keys=True))
            options = options_cache.get(okey)
            if options is None:
                options = options_cache[okey] = options_from_json(rules.options_type,
                                                                  job.options)
            last = (job.game, job.options, options)
        out.append(play_one(rules, job.specs, job.seed, options, job.players, index=job.number,
                            trace=job.trace))
    return out


def run_jobs(
    jobs: Sequence[Job], *, workers: int = 1, progress: ProgressFn | None = None, chunk: int = 0,
    sink: Callable[[list[GameResult]], None] | None = None,
) -> list[GameResult]:
    """Play scheduled games in `workers` processes; results sorted by index.

    Each job carries its own seed, so the results do not depend on `workers` or on `chunk`
    (the number of games handed to a process at a time). `sink`, if given, receives each
    chunk's results as it finishes, so a caller keeps them even if the run is interrupted.
    """
    if workers < 1:
        raise PocketGalaxyError(f"workers must be >= 1, got {workers}", code="sim/bad_workers")
    size = chunk or chunk_size(len(jobs), workers, 200)
    results: list[GameResult] = []
    for part in run_chunks(play_chunk, chunked(jobs, size), workers=workers, progress=progress):
        results.extend(part)
        if sink:
            sink(part)
    results.sort(key=lambda r: r.index)
    return results


def run_many(
    game: str,
    specs: Sequence[str],
    n: int,
    seed: int,
    options: Any = None,
    players: int | None = None,
    *,
    workers: int = 1,
    rotate: bool = False,
    progress: ProgressFn | None = None,
    chunk: int = 0,
    vary: Callable[[int], dict[str, Any]] | None = None,
    narrate: bool = False,
) -> list[GameResult]:
    """Play games 0..n-1 and return their results sorted by index.

    `vary(i)` may override options for game i (for example a different Perils archetype in
    turn); it is called here, in this process, so it needs no pickling.

    `progress(done, total)` is called in this process as games finish. With `workers > 1` the
    games are shared among processes in chunks; the results do not depend on `workers`, nor on
    `narrate` (the full path with every sentence, slower).
    """
    if n < 0:
        raise PocketGalaxyError(f"number of games must be >= 0, got {n}", code="sim/bad_count")
    if workers < 1:
        raise PocketGalaxyError(f"workers must be >= 1, got {workers}", code="sim/bad_workers")
    rules = get_game(game)
    if options is None or isinstance(options, dict):
        options = options_from_json(rules.options_type, options)
    players = players or len(specs)
    specs = tuple(specs)
    if len(specs) != players:
        raise PocketGalaxyError(
            f"{len(specs)} player specs for {players} seats",
            code="sim/bad_specs",
        )
    # Fail fast in this process on a bad spec, before any worker starts.
    _make_agents(game, specs, players, 0)
    options_json = options_to_json(options)

    def options_for(i: int) -> dict[str, Any]:
        if vary is None:
            return options_json
        varied = {**options_json, **vary(i)}
        options_from_json(rules.options_type, varied)  # a bad override fails here, clearly
        return varied

    jobs = [
        Job(game, seat_specs(specs, i, rotate), derive_seed(seed, i), options_for(i), players, i,
            narrate=narrate)
        for i in range(n)
    ]
    return run_jobs(jobs, workers=workers, progress=progress, chunk=chunk)
