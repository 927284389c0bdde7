"""The rule-based Perils Hero and the agents' base, on the path in use (compiled with mypyc, see
docs/speed.md "The Perils million"): a Hero pickled or deep-copied mid-game (as the web table's
thinking copies are) decides exactly as the original, interpreted subclasses of `Agent` still
work, and the runner's "keeps no memory" test still tells the players apart."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from pocketgalaxy.agents.base import Agent, RandomAgent
from pocketgalaxy.agents.perils.hero import RuleBasedHero
from pocketgalaxy.agents.perils.plans import PlanWriter
from pocketgalaxy.agents.perils.teller import ComputerTeller
from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import Action, visible_events
from pocketgalaxy.registry import perils_rules


def _play(seed: int, copy_at: int, how: str) -> list[dict[str, Any]]:
    """The Hero's and Teller's actions of one game; the Hero is replaced by a copy of itself
    (`how`: "pickle", "deepcopy" or "none") at its decision number `copy_at`."""
    rules = perils_rules(narrate=False)
    state = rules.new(None, seed)
    agents: dict[int, Agent] = {0: RuleBasedHero(seed=seed), 1: ComputerTeller(seed=seed + 1)}
    for s, agent in agents.items():
        agent.reset(s, 2, state.options)
        agent.observe(visible_events(rules.opening_events(state), s))
    taken: list[dict[str, Any]] = []
    hero_turns = 0
    while (seat := rules.to_act(state)) is not None:
        if seat == 0:
            if hero_turns == copy_at and how == "pickle":
                agents[0] = pickle.loads(pickle.dumps(agents[0]))
            elif hero_turns == copy_at and how == "deepcopy":
                agents[0] = copy.deepcopy(agents[0])
            hero_turns += 1
        action = agents[seat].act(rules.view(state, seat), rules.legal_actions(state, seat))
        taken.append(action.to_json())
        events = rules.apply_unchecked(state, seat, action)
        for s, agent in agents.items():
            agent.observe(visible_events(events, s))
    return taken


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_copied_hero_goes_on_deciding_as_the_original(how: str) -> None:
    for seed in (3, 17):
        plain = _play(seed, 10**9, "none")
        assert sum(a["type"] == "MakePlan" for a in plain) >= 3  # the plan writer was used
        copied = _play(seed, 2, how)
        assert copied == plain
        hero_plans = [i for i, a in enumerate(plain) if a["type"] == "MakePlan"]
        assert hero_plans[-1] > 6  # the copy wrote plans of its own after its third decision


def test_a_copied_hero_keeps_its_memory_settings_and_streams() -> None:
    hero = make_agent("perils", "rulebased:keep_items=2", 0, seed=9)
    assert isinstance(hero, RuleBasedHero)
    hero.seen = {"5D", "KC"}
    hero.rng.below(10)
    again = pickle.loads(pickle.dumps(hero))
    assert type(again) is RuleBasedHero
    assert (again.keep_items, again.seen, again.seat, again.name) == (2, {"5D", "KC"}, -1,
                                                                      "rulebased")
    assert again.rng.state == hero.rng.state and again.rng is not hero.rng
    writer = PlanWriter(5)
    assert pickle.loads(pickle.dumps(writer)).rng.state == writer.rng.state


def test_keep_items_is_read_as_a_number_as_before() -> None:
    assert RuleBasedHero(keep_items="3").keep_items == 3  # int() of what is given, as before
    with pytest.raises(ValueError):
        RuleBasedHero(keep_items="many")
    with pytest.raises(PocketGalaxyError, match="keep_items must be a whole number"):
        make_agent("perils", "rulebased:keep_items=2.7", 0)


class _Counting(Agent):
    """An interpreted subclass, as every other game's players are."""

    name = "counting"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.calls = 0

    def act(self, view: Any, legal: list[Action]) -> Action:
        self.calls += 1
        return legal[-1]


def test_interpreted_subclasses_of_the_base_still_work_and_copy() -> None:
    agent = _Counting(4)
    agent.reset(1, 3, None)
    rules = perils_rules(narrate=False)
    state = rules.new(None, 2)
    legal = rules.legal_actions(state, 0)
    assert agent.act(None, legal) == legal[-1] and agent.calls == 1
    again = pickle.loads(pickle.dumps(agent))
    assert (type(again), again.calls, again.seat, again.players) == (_Counting, 1, 1, 3)
    # (Compiled, mypyc does not refuse `Agent()` itself as an abstract class: docs/speed.md.)


def test_the_runner_can_tell_which_players_keep_a_memory() -> None:
    # sim/runner.py hands events only to players whose `observe` is not the base's no-op.
    assert type(ComputerTeller()).observe is Agent.observe
    assert type(RandomAgent()).observe is Agent.observe
    assert type(RuleBasedHero()).observe is not Agent.observe
    assert RuleBasedHero.forced_is_first and ComputerTeller.forced_is_first
    assert not RandomAgent.forced_is_first
