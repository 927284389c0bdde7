"""Teller styles: every verdict is a legal JudgePlan, and each style leans the documented way
(generous approves at least what fair does, harsh at most; adaptive is kinder when the Hero
is in trouble)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pocketgalaxy.agents.perils.styles import (
    STYLES,
    StyledTeller,
    adaptive_mode,
    judge_fair,
    judge_generous,
    judge_harsh,
    standing,
)
from pocketgalaxy.agents.registry import agent_names, make_agent
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.games.perils.actions import ChoosePathway, DescribePathways, JudgePlan, MakePlan
from pocketgalaxy.games.perils.content import load_theme, thing_for
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.rubric import Judgement
from pocketgalaxy.games.perils.state import PerilsState
from pocketgalaxy.registry import perils_rules
from pocketgalaxy.sim.runner import play_one

R = perils_rules()
THEME = load_theme("cosmic")
HUMAN = PerilsOptions(archetype="pilot", teller_policy="human")
ITEMS = ("QD", "KC", "JK1")


def _judge_phase(plan: str, channel: str | None = "S", items: tuple[str, ...] = ITEMS,
                 health: int = 3, **options: Any) -> PerilsState:
    """Test arrangement: the Pilot (Strength 2) faces a 9 of diamonds holding three items,
    has made this plan, and waits for the Teller's judgement."""
    opts = PerilsOptions(**{"archetype": "pilot", "teller_policy": "human", **options})
    state = R.new(opts, 5, pinned={"draw": ["9D", "8D"], "big_bads": ["AD", "AC", "AS"]})
    for code in ITEMS:
        state.draw.remove(code)
        state.inventory.append(code)
    state.health = health
    state, _ = R.apply(state, 1, DescribePathways(R.suggestions(state)))
    state, _ = R.apply(state, 0, ChoosePathway(0))
    state, _ = R.apply(state, 0, MakePlan(channel, items, plan))
    assert state.phase == "judge"
    return state


def _teller(style: str, **settings: Any) -> StyledTeller:
    teller = StyledTeller(seed=1, style=style, **settings)
    teller.reset(1, 2, HUMAN)
    return teller


def _verdict(style: str, state: PerilsState, **settings: Any) -> JudgePlan:
    teller = StyledTeller(seed=1, style=style, **settings)
    teller.reset(1, 2, state.options)
    action = teller.act(R.view(state, 1), R.legal_actions(state, 1))
    assert isinstance(action, JudgePlan)
    return action


NAMED = ("I lean on my Piloting and bring out the " + ", the ".join(
    THEME.items[c].name for c in ITEMS) + ". I pick my moment and push straight through.")
"""Names every source and uses none: the rubric credits nothing (names are not deeds)."""
USED = ("First I steer the cargo sled around the salvage mech. Then I plant the Breaching Charge "
        "and blow the wall. I pull the Smoke Canister to blind its sensors. Next the Stray "
        "Maintenance Drone will distract the mech.")
"""Uses every source, in steps, against the thing (the 9 of diamonds: a salvage mech)."""
KEYWORDS = "I steer hard and fly low, quick as you like."
THING = thing_for(_judge_phase(""), "9D")  # the thing this game's Teller chose for the 9D


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("plan", [NAMED, USED, KEYWORDS, ""])
def test_every_style_answers_with_a_legal_judgement(style: str, plan: str) -> None:
    for health in (1, 3):
        state = _judge_phase(plan, health=health)
        before = state.to_json()
        action = _verdict(style, state)
        R.check(state, 1, action)
        after, _ = R.apply(state, 1, action)
        assert state.to_json() == before and after.phase == "roll"


def test_advantage_is_never_offered_when_the_options_forbid_it() -> None:
    for style in ("generous", "adaptive"):
        state = _judge_phase(NAMED, health=1, advantage_threshold=None)
        action = _verdict(style, state)
        assert action.advantage is False
        R.check(state, 1, action)


def _sources(j: Judgement) -> set[str]:
    return ({"channel"} if j.approve_channel else set()) | set(j.approve_items)


def _at_least(big: Judgement, small: Judgement) -> bool:
    return _sources(big) >= _sources(small) and (big.advantage or not small.advantage)


_WORDS = st.sampled_from(
    ["Piloting", "pilot", "steer", "Agility", "leap", "Strength", "muscle", "the", "and", "then",
     "carefully", "quickly", "plan", "moment"]
    + [THEME.items[c].name for c in ITEMS]
    + [k for c in ITEMS for k in THEME.items[c].keywords]
    + ["plant", "blow", "wall", "blind", "sensors", "distract", "mech", "salvage", "."]
)


@settings(max_examples=150, deadline=None)
@given(words=st.lists(_WORDS, max_size=45), channel=st.sampled_from([None, "C", "S"]),
       n_items=st.integers(0, 3), threshold=st.sampled_from([None, 0, 1, 2, 3, 4]))
def test_generous_approves_at_least_fair_and_harsh_at_most(
        words: list[str], channel: str | None, n_items: int, threshold: int | None) -> None:
    plan = " ".join(words)
    items = ITEMS[:n_items]
    rubric = R.judge.judge(plan, channel, items, THEME, threshold, THING)
    fair = judge_fair(rubric, channel, items, threshold)
    generous = judge_generous(rubric, channel, items, threshold)
    harsh = judge_harsh(rubric, channel, items, threshold)
    assert _at_least(generous, fair)
    assert _at_least(fair, harsh)


def test_the_styles_differ_on_a_keyword_plan() -> None:
    state = _judge_phase(KEYWORDS)
    fair, generous, harsh = (_verdict(s, state) for s in ("fair", "generous", "harsh"))
    assert fair.approve_channel and not fair.approve_items  # "steer" is a Piloting keyword
    assert generous.approve_channel and generous.approve_items == ITEMS and generous.advantage
    assert harsh.approve_channel and not harsh.approve_items and not harsh.advantage


def test_harsh_approves_what_the_rubric_does_but_rolls_twice_only_with_a_source_to_spare(
) -> None:
    two_items = ITEMS[:2]
    three = _judge_phase(USED, items=two_items)  # channel + two items: the threshold, 3
    assert _verdict("fair", three).advantage
    harsh = _verdict("harsh", three)
    assert harsh.approve_channel and harsh.approve_items == two_items and not harsh.advantage
    four = _verdict("harsh", _judge_phase(USED))  # four sources: one to spare
    assert four.approve_items == ITEMS and four.advantage


def test_adaptive_is_kinder_at_low_health_than_at_high() -> None:
    kinder = 0
    for plan in (NAMED, USED, KEYWORDS, ""):
        low = _verdict("adaptive", _judge_phase(plan, health=1))
        high = _verdict("adaptive", _judge_phase(plan, health=3))
        assert _at_least(Judgement(low.approve_channel, low.approve_items, low.advantage),
                         Judgement(high.approve_channel, high.approve_items, high.advantage))
        kinder += (low != high)
    assert kinder >= 1


def test_standing_falls_with_health_and_rises_with_items() -> None:
    views = {h: R.view(_judge_phase(NAMED, health=h), 1) for h in (1, 2, 3)}
    values = [standing(views[h], HUMAN) for h in (1, 2, 3)]
    assert values[0] < values[1] < values[2]
    # Near the end of the maze, every item in hand counts.
    richer, poorer = _judge_phase(NAMED), _judge_phase(NAMED)
    for state, extra in ((richer, ("QS", "KS", "JS", "JK2")), (poorer, ("QS", "KS", "JS"))):
        for code in extra:
            state.draw.remove(code)
            state.inventory.append(code)
        state.spent.extend(state.draw[2:])
        del state.draw[2:]
    assert standing(R.view(poorer, 1), HUMAN) < standing(R.view(richer, 1), HUMAN)


def test_adaptive_modes_in_order() -> None:
    modes = [adaptive_mode(v / 20, 0.5, 0.6) for v in range(21)]
    order = ["rescue", "generous", "fair", "tough"]
    assert [order.index(m) for m in modes] == sorted(order.index(m) for m in modes)
    assert set(modes) == set(order)


def test_the_fair_style_is_the_documented_rubric() -> None:
    for plan in (NAMED, USED, KEYWORDS, ""):
        state = _judge_phase(plan)
        fair = _verdict("fair", state)
        rubric = R.judge.judge(plan, "S", ITEMS, THEME, 3, THING)
        assert rubric == R.advice(state)
        assert (fair.approve_channel, fair.approve_items, fair.advantage) == (
            rubric.approve_channel, rubric.approve_items, rubric.advantage)


def test_bad_style_is_refused_with_the_choices() -> None:
    with pytest.raises(PocketGalaxyError) as err:
        StyledTeller(style="kind")
    assert err.value.code == "agent/bad_spec" and "adaptive" in err.value.allowed
    with pytest.raises(PocketGalaxyError, match="low"):
        StyledTeller(style="adaptive", low=0.9, high=0.2)


@pytest.mark.parametrize("hero", ["rulebased", "planner:samples=4"])
def test_fair_style_under_human_plays_as_the_rubric(hero: str) -> None:
    """Why simulations may compare styles with the rubric's figures: same seed, same game."""
    for seed in (3, 4):
        rubric = play_one("perils", (hero, "teller"), seed, {"teller_policy": "rubric"})
        fair = play_one("perils", (hero, "teller:style=fair"), seed,
                        {"teller_policy": "human"})
        assert (fair.winners, fair.reason, fair.length, fair.extras) == (
            rubric.winners, rubric.reason, rubric.length, rubric.extras)
        assert fair.seat_decisions[0] == rubric.seat_decisions[0]


def test_registry_builds_the_styles_and_the_planner() -> None:
    teller = make_agent("perils", "teller:style=adaptive,low=0.4,high=0.7", 1)
    assert isinstance(teller, StyledTeller) and teller.style == "adaptive"
    assert (teller.low, teller.high) == (0.4, 0.7)
    assert isinstance(make_agent("perils", "teller", 1), StyledTeller)
    with pytest.raises(PocketGalaxyError) as err:
        make_agent("perils", "teller:style=kind", 1)
    assert err.value.code == "agent/bad_spec"
    assert "planner" in agent_names("perils", 0)
