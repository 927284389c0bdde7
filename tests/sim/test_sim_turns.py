"""The runner's fast pieces against what they replaced, kept here as the reference: the compiled
turn loop (sim/turns.py) and the end figures read from the state play every game to the same
result as the interpreted loop that read them from a watcher's view; `derive_seed` on native
integers gives the big-integer seeds; a player spec resolved once builds the same players."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

import pytest

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import Event, GameRules, visible_events
from pocketgalaxy.core.options import options_from_json
from pocketgalaxy.registry import get_game
from pocketgalaxy.sim.runner import GameResult, play_one, sim_rules
from pocketgalaxy.sim.turns import derive_seed, play_turns

_MASK64 = (1 << 64) - 1


# -- the reference: the runner as it was ------------------------------------------------------
def _old_derive_seed(master: int, index: int) -> int:
    z = (master * 0x9E3779B97F4A7C15 + (index + 1) * 0xD1B54A32D192ED03) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z ^= z >> 31
    return z % (1 << 31)


def _view_field(view: Any, *names: str) -> Any:
    for name in names:
        value = getattr(view, name, None)
        if value is not None:
            return value
    return None


def _old_play_one(rules: GameRules[Any, Any], specs: Sequence[str], seed: int,
                  options: Any) -> GameResult:
    """play_one before the compiled loop: interpreted, the end figures from a watcher's view."""
    players = len(specs)
    agents = {seat: make_agent(rules.name, spec, seat, players,
                               seed=_old_derive_seed(seed, 1 + seat))
              for seat, spec in enumerate(specs)}
    state = rules.new(options, seed, players=players)
    opening = rules.opening_events(state)
    for agent_seat, agent in agents.items():
        agent.reset(agent_seat, players, options)
        agent.observe(visible_events(opening, agent_seat))
    first_player = _view_field(rules.view(state, None), "to_act")
    counts = [0] * players
    decisions = 0
    observe = [(seat, agent) for seat, agent in agents.items()
               if type(agent).observe is not Agent.observe]
    seat: int | None = rules.to_act(state)
    while seat is not None:
        legal = rules.legal_actions(state, seat)
        agent = agents[seat]
        if len(legal) == 1 and agent.forced_is_first:
            action = legal[0]
        else:
            action = agent.act(rules.view_for_turn(state, seat, legal), legal)
        counts[seat] += 1
        events: list[Event] = rules.apply_unchecked(state, seat, action)
        for s, watcher in observe:
            watcher.observe(visible_events(events, s))
        decisions += 1
        seat = rules.to_act(state)
    outcome = rules.outcome(state)
    assert outcome is not None
    final = rules.view(state, None)
    extras: dict[str, Any] = {}
    if rules.name == "perils":
        length = int(_view_field(final, "round") or 0)
        archetype = _view_field(final, "archetype")
        extras["archetype"] = getattr(archetype, "id", archetype)
        extras["health"] = _view_field(final, "health")
    else:
        length = int(_view_field(final, "turn", "turns", "turn_number") or 0)
    return GameResult(0, seed, tuple(specs), tuple(outcome.winners), outcome.reason, length,
                      decisions, first_player if isinstance(first_player, int) else None, 0.0,
                      (0.0,) * players, tuple(counts), outcome.ended_by_cap,
                      tuple(outcome.scores), extras)


def _untimed(result: GameResult) -> dict[str, Any]:
    data = result.to_json()
    for key in ("seconds", "decision_seconds"):
        data.pop(key)
    return data


@pytest.mark.parametrize(("game", "specs", "options"), [
    ("perils", ("rulebased", "teller"), {}),
    ("perils", ("rulebased", "teller"), {"skill_adds_to_roll": True, "pathways_per_round": 3,
                                         "archetype": "scout"}),
    ("perils", ("rulebased", "teller:style=adaptive"), {"teller_policy": "human",
                                                        "lost_levels_chooser": "teller"}),
    ("perils", ("random", "random"), {"start_health": 1, "max_health": 1}),
    ("adventure", ("memory", "forgetful", "random"), {}),
    ("adventure", ("random", "memory"), {}),
])
def test_the_runner_plays_every_game_as_the_old_loop(game: str, specs: tuple[str, ...],
                                                     options: dict[str, Any]) -> None:
    rules = sim_rules(game)
    opts = options_from_json(rules.options_type, options)
    for seed in range(12):
        new = play_one(rules, specs, 500 + seed, opts)
        old = _old_play_one(rules, specs, 500 + seed, opts)
        assert _untimed(new) == _untimed(old)
        assert len(new.decision_seconds) == len(specs)
    if game == "perils":
        assert new.length > 0 and new.extras["archetype"]


def test_derive_seed_on_native_integers_is_the_old_one() -> None:
    edges = [0, 1, 2, 3, 2**31 - 1, 2**31, 2**32, 2**53 + 1, 2**62, 2**63 - 1, 2**63, 2**64 - 2,
             2**64 - 1, 2**64, 2**64 + 5, 2**100 + 7, -1, -2, -(2**63), -(2**64) - 3]
    rng = random.Random(11)
    pairs = [(m, i) for m in edges for i in edges]
    pairs += [(rng.getrandbits(rng.choice((8, 31, 63, 64, 70))),
               rng.getrandbits(rng.choice((4, 20, 64)))) for _ in range(3000)]
    for master, index in pairs:
        assert derive_seed(master, index) == _old_derive_seed(master, index), (master, index)


def test_a_runaway_game_is_stopped_by_the_loop() -> None:
    rules = get_game("perils")
    state = rules.new(None, 3)
    agents = [make_agent("perils", "random", 0, 2, seed=1), make_agent("perils", "random", 1, 2)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, 2, state.options)
    with pytest.raises(PocketGalaxyError, match=r"game 7 \(seed 3\) did not end within 5 "
                                                r"decisions") as caught:
        play_turns(rules, state, agents, [], None, 5, 7, 3)
    assert caught.value.code == "sim/runaway"


def test_the_loop_counts_and_times_only_asked_decisions() -> None:
    rules = sim_rules("perils")
    state = rules.new(None, 4)
    agents = [make_agent("perils", "rulebased", 0, 2, seed=2),
              make_agent("perils", "teller", 1, 2, seed=3)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, 2, state.options)
    started = time.perf_counter()
    turns = play_turns(rules, state, agents, [0], None, 10**6, 0, 4)
    assert rules.outcome(state) is not None
    assert sum(turns.counts) == turns.decisions > 0
    assert turns.spent[1] == 0.0  # the Teller's one listed description is taken unasked
    assert 0.0 < turns.spent[0] <= time.perf_counter() - started


def test_a_spec_resolved_once_builds_fresh_players_and_refuses_every_time() -> None:
    first = make_agent("perils", "rulebased:keep_items=2", 0, seed=9)
    second = make_agent("perils", "rulebased:keep_items=2", 0, seed=9)
    assert first is not second and first.rng.state == second.rng.state
    assert getattr(second, "keep_items", None) == 2
    shared = make_agent("adventure", "random:note=1", 0, 3, seed=4)
    assert shared.settings == {"note": 1}
    shared.settings["note"] = 7  # a player's settings are its own, not the resolved spec's
    assert make_agent("adventure", "random:note=1", 0, 3, seed=4).settings == {"note": 1}
    assert make_agent("perils", "bot", 1).name == "teller"
    for _ in range(2):
        with pytest.raises(PocketGalaxyError, match="unknown computer player"):
            make_agent("perils", "wizard", 0)
        with pytest.raises(PocketGalaxyError, match="keep_items"):
            make_agent("perils", "rulebased:keep_items=2.5", 0)
