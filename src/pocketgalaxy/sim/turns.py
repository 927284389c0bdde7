"""The turns of one simulated game, the loop inside `sim/runner.py` `play_one`, and the seeds
of each game and seat (`derive_seed`).

Each turn asks the acting seat's agent with that seat's view and the legal actions (an agent
that takes a lone legal action without a look, `Agent.forced_is_first`, is not asked and no
view is built), applies the choice in place with `apply_unchecked`, and hands every seat that
keeps a memory the events it may see. The runner sets the game up and reads its end.

Compiled with mypyc (scripts/compile_core.py; docs/speed.md, "The Perils million"): a Perils
game has about 67 turns, and interpreted, each paid the interpreter and the Python wrappers of
the compiled rules and Hero it called; compiled, it calls them directly. `derive_seed` runs
three times a game; compiled, it works on native `i64` as core/rng.py does (its 64-bit values
are big integers otherwise, about 7,500 instructions a call).
"""

from __future__ import annotations

import time
from typing import Any, Final

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import Action, Event, GameRules, visible_events
from pocketgalaxy.core.mypyc_marks import i64

_MASK64: Final = (1 << 64) - 1
_TWO64: Final = 1 << 64
_TWO63: Final = 1 << 63
_SEED_RANGE: Final = 1 << 31
# The constants as signed 64-bit values (each is the unsigned constant minus 2**64).
_GOLDEN_S: Final[i64] = -7046029254386353131  # 0x9E3779B97F4A7C15
_STEP_S: Final[i64] = -3335678366873096957  # 0xD1B54A32D192ED03
_MIX1_S: Final[i64] = -4658895280553007687  # 0xBF58476D1CE4E5B9
_MIX2_S: Final[i64] = -7723592293110705685  # 0x94D049BB133111EB


def _probe() -> None:
    """A function whose type tells whether this module runs compiled (no `__code__` then)."""


_NATIVE: Final = not hasattr(_probe, "__code__")


def derive_seed(master: int, index: int) -> int:
    """A seed for item `index` of a run with seed `master` (SplitMix64 finaliser, 31 bits).

    >>> derive_seed(1, 0) == derive_seed(1, 0) != derive_seed(1, 1)
    True
    """
    if _NATIVE:
        return _derive_native(_signed(master & _MASK64), _signed((index + 1) & _MASK64))
    z = (master * 0x9E3779B97F4A7C15 + (index + 1) * 0xD1B54A32D192ED03) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z ^= z >> 31
    return z % _SEED_RANGE


def _signed(u: int) -> i64:
    """The signed 64-bit twin of an unsigned 64-bit value."""
    return u - _TWO64 if u >= _TWO63 else u


def _derive_native(m: i64, i: i64) -> int:
    """Compiled only: `derive_seed` on signed 64-bit twins, whose products and sums wrap (as
    the unsigned ones do modulo 2**64); right shifts are masked to act unsigned."""
    z: i64 = m * _GOLDEN_S + i * _STEP_S
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * _MIX1_S
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _MIX2_S
    z = z ^ ((z >> 31) & 0x1FFFFFFFF)
    return int(z & 0x7FFFFFFF)


class Turns:
    """What the loop counted: the decisions, each seat's decisions, and each seat's seconds of
    thinking (only decisions its agent was asked about)."""

    def __init__(self, players: int) -> None:
        self.decisions = 0
        self.counts = [0] * players
        self.spent = [0.0] * players


def play_turns(rules: GameRules[Any, Any], state: Any, agents: list[Agent],
               observers: list[int], tracer: Any, limit: int, index: int, seed: int) -> Turns:
    """Play `state` (game `index`, seed `seed`) to its end in place. `agents[seat]` acts for
    each seat, `observers` are the seats whose agents are handed their events, `tracer` (or
    None) sees every event; a game past `limit` decisions stops with an error."""
    turns = Turns(len(agents))
    spent, counts = turns.spent, turns.counts
    forced = [agent.forced_is_first for agent in agents]
    decisions = 0
    clock = time.perf_counter
    seat = rules.to_act(state)
    while seat is not None:
        legal: list[Action] = rules.legal_actions(state, seat)
        agent = agents[seat]
        if len(legal) == 1 and forced[seat]:
            action = legal[0]  # the agent would take it without a look (Agent.forced_is_first)
        else:
            view = rules.view_for_turn(state, seat, legal)  # the list just made, not again
            t0 = clock()
            action = agent.act(view, legal)
            spent[seat] += clock() - t0
        counts[seat] += 1
        events: list[Event] = rules.apply_unchecked(state, seat, action)
        for s in observers:
            agents[s].observe(visible_events(events, s))
        if tracer is not None:
            tracer.see(events)
        decisions += 1
        if decisions > limit:
            raise PocketGalaxyError(
                f"game {index} (seed {seed}) did not end within {limit} decisions",
                code="sim/runaway",
            )
        seat = rules.to_act(state)
    turns.decisions = decisions
    return turns
