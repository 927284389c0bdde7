"""Computer players: they act legally from views only, and the rule-based Hero clearly beats
the random Hero (Wilson intervals over 2,000 games each, marked slow)."""

from __future__ import annotations

import pytest
from perils_testkit import R, describe, new, take

from pocketgalaxy.agents.base import Agent, RandomAgent
from pocketgalaxy.agents.perils import ComputerTeller, RuleBasedHero, agents_for_seat
from pocketgalaxy.agents.perils.common import read_hint, success_chance
from pocketgalaxy.agents.perils.plans import write_plan
from pocketgalaxy.core.game import visible_events
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils.actions import (
    ChooseLostLevels,
    ChoosePathway,
    ChooseShuffleBack,
    DescribePathways,
    JudgePlan,
    MakePlan,
)
from pocketgalaxy.games.perils.content import load_theme
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.rubric import stand_in_thing
from pocketgalaxy.session import Session
from pocketgalaxy.sim.stats import wilson


def _ready(agent: Agent, seat: int, options: PerilsOptions) -> Agent:
    agent.reset(seat, 2, options)
    return agent


def play(hero: type[Agent], seed: int, options: PerilsOptions | None = None) -> bool:
    """One game of computer players; only views that an agent reads are built."""
    opts = options or PerilsOptions()
    state = R.new(opts, seed)
    agents = {0: _ready(hero(seed=seed), 0, opts), 1: _ready(ComputerTeller(seed=seed), 1, opts)}
    while (seat := R.to_act(state)) is not None:
        agent = agents[seat]
        view = None if isinstance(agent, RandomAgent) else R.view(state, seat)
        action = agent.act(view, R.legal_actions(state, seat))
        state, events = R.apply(state, seat, action)
        for who, other in agents.items():
            other.observe(visible_events(events, who))
    return state.result == "won"


def test_agents_for_seat_names() -> None:
    assert {"random", "rulebased"} <= set(agents_for_seat(0, 2))
    assert sorted(agents_for_seat(1, 2)) == ["random", "teller"]
    assert agents_for_seat(2, 2) == {}
    assert isinstance(agents_for_seat(0, 2)["rulebased"](seed=1, keep_items=3), RuleBasedHero)


def test_rulebased_hero_takes_the_heal_when_hurt_and_the_item_otherwise() -> None:
    hero = _ready(RuleBasedHero(), 0, PerilsOptions())
    state, _ = describe(new(draw=("JD", "4H")))
    assert hero.act(R.view(state, 0), R.legal_actions(state, 0)) == ChoosePathway(0)
    state.health = 1
    assert hero.act(R.view(state, 0), R.legal_actions(state, 0)) == ChoosePathway(1)


def test_rulebased_hero_prefers_the_safer_peril() -> None:
    hero = _ready(RuleBasedHero(), 0, PerilsOptions())
    state, _ = describe(new(draw=("9D", "3S")))  # Strength 2 against high; Piloting 6 passes
    assert hero.act(R.view(state, 0), R.legal_actions(state, 0)) == ChoosePathway(1)


def test_rulebased_plan_names_what_it_uses_and_the_rubric_agrees() -> None:
    theme = load_theme("cosmic")
    thing = stand_in_thing(theme, "7C")
    text = write_plan(theme, "S", ("JC", "KS"), thing, Rng(3))
    verdict = R.judge.judge(text, "S", ("JC", "KS"), theme, 3, thing)
    assert verdict.approve_channel and verdict.approve_items == ("JC", "KS") and verdict.advantage
    hero = _ready(RuleBasedHero(keep_items=0), 0, PerilsOptions())
    state = new(draw=("JC", "4H", "KS", "5H", "6C", "6H"))
    for _ in range(3):
        state, _ = take(state, 0)
    plan = hero.act(R.view(state, 0), R.legal_actions(state, 0))
    assert isinstance(plan, MakePlan) and plan.channel == "S" and plan.items == ("JC", "KS")
    R.apply(state, 0, plan)


def test_read_hint_recognises_the_themes_fragments() -> None:
    theme = load_theme("cosmic")
    state, _ = describe(new(draw=("9C", "JD")))
    view = R.view(state, 0)
    assert read_hint(view.pathways[0].description or "", theme) == view.pathways[0].hint
    assert read_hint("Nothing I wrote from the playsheet.", theme) == {}


def test_rulebased_hero_remembers_cards_seen_face_up() -> None:
    hero = _ready(RuleBasedHero(), 0, PerilsOptions())
    state, events = take(new(draw=("5H", "4H", "3S", "9C", "10C", "7H")), 0)
    hero.observe(visible_events(events, 0))
    assert hero.seen == {"5H"}
    state, events = take(state, 0)  # the 3S is passed automatically, face up
    hero.observe(visible_events(events, 0))
    view = R.view(state, 0)
    assert hero._possible(view, "10C") and not hero._possible(view, "3S")
    assert not hero._possible(view, "6S")  # its own Piloting card


def test_success_chance() -> None:
    assert success_chance(1, False) == 1.0 and success_chance(7, True) == 0.0
    assert success_chance(4, False) == pytest.approx(0.5)
    assert success_chance(4, True) == pytest.approx(0.75)


def test_teller_describes_judges_and_chooses() -> None:
    opts = PerilsOptions(teller_policy="human", shuffle_back_rule="teller_chooses")
    teller = _ready(ComputerTeller(), 1, opts)
    state = new(draw=("JC", "4H", "9D", "5H"), rolls=(1,), teller_policy="human",
                shuffle_back_rule="teller_chooses")
    action = teller.act(R.view(state, 1), R.legal_actions(state, 1))
    assert action == DescribePathways(R.suggestions(state))
    state, _ = R.apply(state, 1, action)
    state, _ = R.apply(state, 0, ChoosePathway(0))
    state, _ = take(state, 0)
    state, _ = R.apply(state, 0, MakePlan("C", ("JC",),
                                          "I leap the gap, swinging on the grappling hook"))
    verdict = teller.act(R.view(state, 1), R.legal_actions(state, 1))
    assert verdict == JudgePlan(True, ("JC",), False)
    state.health = 1
    state, _ = R.apply(state, 1, JudgePlan(False, (), False))
    from perils_testkit import act

    from pocketgalaxy.games.perils.actions import Roll

    state, _ = act(state, Roll())
    assert state.phase == "shuffle_back"
    choice = teller.act(R.view(state, 1), R.legal_actions(state, 1))
    assert choice == ChooseShuffleBack(("JC",))
    R.apply(state, 1, choice)


def test_teller_loses_the_largest_skills_levels() -> None:
    from perils_testkit import attempt, move

    opts = PerilsOptions(lost_levels_chooser="teller")
    state = new(draw=("9D", "4H"), rolls=(1,), lost_levels_chooser="teller")
    for code, place in [("7C", "tucked_C"), ("9S", "tucked_S"), ("10S", "tucked_S"),
                        ("5S", "tucked_S")]:
        move(state, code, place)
    state.health = 1
    state, _ = take(state, 0)
    state, _ = attempt(state, "C")
    choice = _ready(ComputerTeller(), 1, opts).act(R.view(state, 1), R.legal_actions(state, 1))
    assert choice == ChooseLostLevels(("5S", "10S"))
    R.apply(state, 1, choice)


def test_bots_finish_games_under_many_options() -> None:
    for i, opts in enumerate([
        PerilsOptions(theme="dungeon", pathways_per_round=3),
        PerilsOptions(teller_policy="human", lost_levels_chooser="teller"),
        PerilsOptions(shuffle_back_rule="teller_chooses", half_scope="per_skill"),
        PerilsOptions(item_suit_restriction=True, heart_is_skill=True, channel_bonus="level"),
        PerilsOptions(hint_fidelity="none", showdown_order="sequential"),
    ]):
        for seed in range(3):
            session = Session(R, opts, seed=seed + 10 * i,
                              agents={0: RuleBasedHero(seed=seed), 1: ComputerTeller(seed=seed)})
            session.run_bots()
            assert session.is_over


@pytest.mark.slow
def test_rulebased_hero_clearly_beats_the_random_hero() -> None:
    n = 2000
    smart = sum(play(RuleBasedHero, seed) for seed in range(n))
    blind = sum(play(RandomAgent, seed) for seed in range(n))
    smart_low = wilson(smart, n, z=2.58).low  # 99% intervals
    blind_high = wilson(blind, n, z=2.58).high
    assert smart_low > blind_high + 0.3, (smart, blind)
