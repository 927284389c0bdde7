"""The planning Hero of Perils & Pathways: it reads only views, its exact showdown, its
sampling of the unseen cards, and that it beats the rule-based Hero."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.perils import ComputerTeller, RuleBasedHero
from pocketgalaxy.agents.perils.planner import (
    PlannerHero,
    matches_hint,
    model_for,
    sim_for,
)
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import visible_events
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.actions import (
    ChoosePathway,
    DescribePathways,
    MakePlan,
)
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.state import PerilsState
from pocketgalaxy.registry import perils_rules

R = perils_rules()
OPTS = PerilsOptions(archetype="pilot")  # Strength 2 (D), Agility 4 (C), Piloting 6 (S)


def _pinned(draw: list[str], seed: int = 3, rolls: tuple[int, ...] = (),
            **options: Any) -> PerilsState:
    opts = PerilsOptions(**{"archetype": "pilot", **options})
    return R.new(opts, seed, pinned={"draw": draw, "big_bads": ["AD", "AC", "AS"],
                                     "rolls": list(rolls)})


def _describe(state: PerilsState) -> PerilsState:
    state, _ = R.apply(state, 1, DescribePathways(R.suggestions(state)))
    return state


def _planner(seed: int = 11, **settings: Any) -> PlannerHero:
    hero = PlannerHero(seed=seed, **settings)
    hero.reset(0, 2, OPTS)
    return hero


def play(hero: Agent, teller: Agent, seed: int, opts: PerilsOptions | None = None) -> bool:
    """One computer game through the rules; agents see only views and their events."""
    opts = opts or PerilsOptions()
    agents = {0: hero, 1: teller}
    for seat, agent in agents.items():
        agent.reset(seat, 2, opts)
    state = R.new(opts, seed)
    while (seat := R.to_act(state)) is not None:
        action = agents[seat].act(R.view(state, seat), R.legal_actions(state, seat))
        events = R.apply_unchecked(state, seat, action)
        for s, agent in agents.items():
            agent.observe(visible_events(events, s))
    outcome = R.outcome(state)
    assert outcome is not None
    return bool(outcome.winners)


# -- reads only its view -------------------------------------------------------------------
def _hide_differently(state: PerilsState) -> PerilsState:
    """The same game as the Hero sees it, with every hidden card elsewhere: the draw pile
    reversed, the Big Bads in another order and another random generator."""
    other = state.clone()
    other.draw = list(reversed(other.draw))
    other.big_bads = list(reversed(other.big_bads))
    other.rng.state ^= 0x5555
    return other


@pytest.mark.parametrize("draw", [
    ["5C", "QD"],          # a peril against an item
    ["9S", "4H", "7D"],    # a hard peril against a gift, then more
])
def test_same_view_same_choice_whatever_the_hidden_cards(draw: list[str]) -> None:
    state = _describe(_pinned(draw))
    other = _hide_differently(state)
    assert state.draw != other.draw
    assert R.view(state, 0).to_json() == R.view(other, 0).to_json()
    a = _planner().act(R.view(state, 0), R.legal_actions(state, 0))
    b = _planner().act(R.view(other, 0), R.legal_actions(other, 0))
    assert a == b


def test_same_view_same_plan_whatever_the_hidden_cards() -> None:
    state = _describe(_pinned(["9D", "9C"]))
    state, _ = R.apply(state, 0, ChoosePathway(0))
    assert state.phase == "plan"
    other = _hide_differently(state)
    assert R.view(state, 0).to_json() == R.view(other, 0).to_json()
    a = _planner().act(R.view(state, 0), R.legal_actions(state, 0))
    b = _planner().act(R.view(other, 0), R.legal_actions(other, 0))
    assert isinstance(a, MakePlan) and a == b


def test_decisions_are_legal_and_repeatable_with_a_seed() -> None:
    traces = []
    for _ in range(2):
        hero, teller = PlannerHero(seed=5, samples=4), ComputerTeller(seed=5)
        hero.reset(0, 2, PerilsOptions())
        teller.reset(1, 2, PerilsOptions())
        state = R.new(PerilsOptions(), 99)
        trace = []
        while (seat := R.to_act(state)) is not None:
            agent = hero if seat == 0 else teller
            action = agent.act(R.view(state, seat), R.legal_actions(state, seat))
            R.check(state, seat, action)  # raises if illegal
            trace.append(action)
            events = R.apply_unchecked(state, seat, action)
            hero.observe(visible_events(events, 0))
            teller.observe(visible_events(events, 1))
        traces.append(trace)
    assert traces[0] == traces[1]


# -- what it remembers and samples ---------------------------------------------------------
def test_memory_keeps_only_what_the_hero_saw() -> None:
    hero = _planner()
    state = _describe(_pinned(["QD", "8C", "KS", "4D"]))
    view = R.view(state, 0)
    assert hero.act(view, R.legal_actions(state, 0)) == ChoosePathway(0)  # the item
    state, events = R.apply(state, 0, ChoosePathway(0))
    hero.observe(visible_events(events, 0))
    assert all(not isinstance(e, ev.PathwaysDealt) for e in visible_events(events, 0))
    # The hint of the pathway not taken (a high club peril), never its face.
    assert hero._unchosen_hints == [view.pathways[1].hint]
    assert view.pathways[1].hint and view.pathways[1].hint.get("kind") == "peril"
    pos = hero._position(R.view(state, 0))
    assert "QD" not in pos.pool and "2D" not in pos.pool and "8C" in pos.pool
    assert len(pos.pool) == pos.draw_count + 1 + 2  # draw + the unchosen + the new pathways


def test_samples_match_every_hint() -> None:
    hero = _planner()
    state = _describe(_pinned(["5C", "QD"]))
    pos = hero._position(R.view(state, 0))
    rnd = random.Random(1)
    hints = [{"kind": "peril", "suit": "C", "band": "mid"}, {"kind": "item"}]
    for _ in range(200):
        pathways, draw = hero._deal(pos, rnd, hints, [])
        assert pathways[0][0] == 0 and pathways[0][1] == 1 and 5 <= pathways[0][2] <= 7
        assert pathways[1][0] == 2
        assert len(draw) == pos.draw_count


def test_matches_hint() -> None:
    assert matches_hint("6C", {"kind": "peril", "suit": "C", "band": "mid"})
    assert not matches_hint("6C", {"kind": "peril", "suit": "D"})
    assert not matches_hint("8C", {"band": "mid"})
    assert matches_hint("JK1", {"kind": "item"}) and matches_hint("4H", {})
    assert not matches_hint("4H", {"kind": "item"})


# -- the exact showdown --------------------------------------------------------------------
def test_showdown_odds_are_exact() -> None:
    sim = sim_for(model_for(PerilsOptions(), 3))
    one_suit = 0b001  # only the Big Bad of D remains
    # Level 3, no items, health 1: need 10 on a d6 (+1 channel): hopeless.
    assert sim.showdown((3, 3, 3), one_suit, 1, 0, False) == 0.0
    # Five items: need 5+, and six sources earn advantage: 1 - (4/6)^2.
    assert sim.showdown((3, 3, 3), one_suit, 1, 5, False) == pytest.approx(20 / 36)
    # Health to spare on the last Big Bad: a failure still survives, so keep the items.
    assert sim.facing((3, 3, 3), one_suit, 0, 2, 5, False) == (1.0, 0)
    # Level 12 passes a Big Bad (11) automatically.
    assert sim.showdown((12, 3, 3), one_suit, 1, 0, False) == 1.0


def test_showdown_value_grows_with_items_and_health() -> None:
    sim = sim_for(model_for(PerilsOptions(), 3))
    values = [sim.showdown((4, 4, 4), 0b111, 3, n, False) for n in range(11)]
    assert values == sorted(values) and values[0] < 0.05 and values[10] > 0.95
    assert sim.showdown((4, 4, 4), 0b111, 1, 6, False) < sim.showdown((4, 4, 4), 0b111, 3, 6,
                                                                        False)


def _showdown(items: tuple[str, ...], health: int) -> PerilsState:
    """Test arrangement: the Pilot meets the Big Bads with these items and this health."""
    state = _pinned(["4H", "5H"])
    for code in items:
        state.draw.remove(code)
        state.inventory.append(code)
    state.spent.extend(state.draw)
    state.draw.clear()
    state.health = 3
    state, _ = R.apply(_describe(state), 0, ChoosePathway(0))  # a wasted gift
    state.health = health
    assert state.stage == "showdown" and state.phase == "describe"
    return _describe(state)


def test_showdown_order_and_items_follow_the_exact_values() -> None:
    state = _showdown(("QD", "KD", "JC", "QC", "KC", "JK1"), health=2)
    hero = _planner()
    sim = sim_for(model_for(OPTS, 3))
    choice = hero.act(R.view(state, 0), R.legal_actions(state, 0))
    assert isinstance(choice, ChoosePathway)
    faced = {p: state.pathways[p][-1] for p in range(3)}
    values = {p: sim.facing((2, 4, 6), 0b111, "DCS".index(faced[p]), 2, 6, False)[0]
              for p in range(3)}
    assert values[choice.position] == max(values.values())
    state, _ = R.apply(state, 0, choice)
    assert state.phase == "plan"
    plan = hero.act(R.view(state, 0), R.legal_actions(state, 0))
    assert isinstance(plan, MakePlan)
    R.check(state, 0, plan)
    s = "DCS".index(faced[choice.position])
    rest = 0b111
    assert len(plan.items) == sim.facing((2, 4, 6), rest, s, 2, 6, False)[1]
    assert plan.channel is not None and plan.channel != faced[choice.position]


def test_last_big_bad_at_one_health_gets_every_item_it_needs() -> None:
    sim = sim_for(model_for(OPTS, 3))
    # Nine items make the last Big Bad certain (1 + 9 + die >= 11), so all nine go in.
    assert sim.facing((2, 4, 6), 0b100, 2, 1, 9, False) == (1.0, 9)
    # With health to spare, none are needed.
    assert sim.facing((2, 4, 6), 0b100, 2, 3, 9, False) == (1.0, 0)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(PocketGalaxyError, match="samples"):
        PlannerHero(samples=0)


# -- strength ------------------------------------------------------------------------------
@pytest.mark.slow
def test_planner_beats_rulebased_on_the_same_deals() -> None:
    seeds = range(1000, 1240)
    planner = sum(play(PlannerHero(seed=s, samples=12), ComputerTeller(seed=s), s)
                  for s in seeds)
    rulebased = sum(play(RuleBasedHero(seed=s), ComputerTeller(seed=s), s) for s in seeds)
    assert planner > rulebased, (planner, rulebased)
