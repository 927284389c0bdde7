"""The computer Hero's plan writer: varied plans that earn, under the rubric, exactly what the
Hero declares (every source, and the roll-twice whenever the sources reach the threshold)."""

from __future__ import annotations

import pytest

from pocketgalaxy.agents.perils.plans import write_plan
from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.core.cards import DECK_54, card
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.content import load_theme
from pocketgalaxy.games.perils.rubric import stand_in_thing
from pocketgalaxy.registry import perils_rules, plan_judge
from pocketgalaxy.session import Session

JUDGE = plan_judge()
FACED = tuple(c for c in DECK_54 if card(c).is_number and c[-1] != "H") + ("AD", "AC", "AS")


@pytest.mark.parametrize("theme_id", ["cosmic", "dungeon"])
def test_every_written_plan_earns_what_its_writer_meant(theme_id: str) -> None:
    theme = load_theme(theme_id)
    rng = Rng(7)
    codes = list(theme.items)
    for n in range(600):
        faced = FACED[n % len(FACED)]
        target = stand_in_thing(theme, faced)
        channel = rng.choice([None, *(s for s in "DCS" if s != faced[-1])])
        items = tuple(rng.sample(codes, rng.below(5)))
        threshold = rng.choice([None, 1, 2, 3, 4])
        plan = write_plan(theme, channel, items, target, rng)
        verdict = JUDGE.judge(plan, channel, items, theme, threshold, target)
        assert verdict.approve_channel == (channel is not None), plan
        assert verdict.approve_items == items, (plan, verdict.credits)
        sources = int(channel is not None) + len(items)
        meant = threshold is not None and sources >= threshold and sources > 0
        assert verdict.advantage == meant, (plan, verdict.needs)


def test_plans_vary_and_fit_the_thing() -> None:
    theme = load_theme("cosmic")
    target = stand_in_thing(theme, "6D")
    plans = {write_plan(theme, "C", ("JC",), target, Rng(seed)) for seed in range(60)}
    assert len(plans) >= 40
    head = _head_noun(target.name)  # the plan names the thing by its head words
    assert all(head in p for p in plans), head
    other_target = stand_in_thing(theme, "9S")
    assert _head_noun(other_target.name) != head
    other = write_plan(theme, "C", ("JC",), other_target, Rng(1))
    assert head not in other


def _head_noun(name: str) -> str:
    """The thing's name without its article, up to its first linking word, lower case."""
    words = name.lower().split()
    words = words[1:] if words[0] in ("a", "an", "the") else words
    return words[0]


def test_the_same_seed_writes_the_same_plan() -> None:
    theme = load_theme("dungeon")
    target = stand_in_thing(theme, "5C")
    assert (write_plan(theme, "D", ("QH", "JC"), target, Rng(4))
            == write_plan(theme, "D", ("QH", "JC"), target, Rng(4)))
    assert write_plan(theme, None, (), target, Rng(4)) == ""


@pytest.mark.parametrize("hero", ["rulebased", "planner:samples=4"])
def test_the_heroes_plans_are_approved_in_play(hero: str) -> None:
    """In whole games under the rubric, every source a computer Hero declares is approved, and
    it rolls twice whenever its sources reach the threshold (as its odds assume)."""
    rules = perils_rules()
    plans = 0
    for seed in range(6):
        session = Session(rules, {}, seed=seed, agents={
            0: make_agent("perils", hero, 0, seed=seed),
            1: make_agent("perils", "teller", 1, seed=seed)})
        session.run_bots()
        made = None
        for event in session.events_for(0):
            if isinstance(event, ev.PlanMade):
                made = event
            elif isinstance(event, ev.PlanJudged):
                assert made is not None
                plans += 1
                assert event.approve_channel == (made.channel is not None), made.plan
                assert event.approve_items == made.items, made.plan
                sources = int(made.channel is not None) + len(made.items)
                assert event.advantage == (sources >= 3), made.plan
    assert plans >= 10
