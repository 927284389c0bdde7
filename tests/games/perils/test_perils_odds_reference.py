"""`odds_for_state` (bonuses summed first, then the odds and words remembered by a handful of
numbers; compiled) against the reference it replaced: the whole computation from every input,
over thousands of seeded inputs and rulings. RollOdds and PerilOdds pickle and copy."""

from __future__ import annotations

import copy
import pickle
from dataclasses import replace
from typing import Any

from pocketgalaxy.core.cards import DECK_54
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils.odds import (
    PerilOdds,
    _suit,
    about_the_hero,
    best_bonus,
    odds_for_state,
    odds_words,
    roll_odds,
)
from pocketgalaxy.games.perils.options import PerilsOptions


def reference_odds(phase: str, current: str, difficulty: int, levels: dict[str, int],
                   inventory: list[str], options: PerilsOptions, plan_channel: str | None,
                   plan_items: list[str], judged_bonus: int, advantage: bool, stage: str,
                   hero: bool) -> PerilOdds:
    """The body `odds_for_state` had before (one memo keyed on all of this)."""
    strict = options.success_comparison == ">"
    extra = levels[_suit(current)] if options.skill_adds_to_roll else 0
    sources = 0
    if phase == "roll":
        now = roll_odds(difficulty, judged_bonus + extra, advantage=advantage, strict=strict)
        best = None
    elif phase == "judge":
        declared = len(plan_items)
        if plan_channel is not None:
            declared += levels[plan_channel] if options.channel_bonus == "level" else 1
        sources = len(plan_items) + (plan_channel is not None)
        now = roll_odds(difficulty, extra, strict=strict)
        best = roll_odds(difficulty, declared + extra, strict=strict)
    else:
        most, sources = best_bonus(current, levels, inventory, options)
        now = roll_odds(difficulty, extra, strict=strict)
        best = roll_odds(difficulty, most + extra, strict=strict)
    twice = None
    threshold = options.advantage_threshold
    if best is not None and threshold is not None and (
            options.teller_policy == "human" or sources >= threshold):
        twice = roll_odds(difficulty, best.bonus, advantage=True, strict=strict)
    words = odds_words(phase, now, best, twice, showdown=stage == "showdown")
    if not hero:
        words = about_the_hero(words)
    return PerilOdds(phase, now, best, words, twice)


_ITEMS = [c for c in DECK_54 if c[0] in "JQK"]
_PERILS = [c for c in DECK_54 if c[-1] in "DCS" and c[0] not in "JQK"]


def _rulings(rng: Rng) -> PerilsOptions:
    return replace(
        PerilsOptions(),
        success_comparison=rng.choice((">=", ">")),
        skill_adds_to_roll=bool(rng.below(2)),
        channel_bonus=rng.choice(("flat1", "level")),
        item_suit_restriction=bool(rng.below(2)),
        heart_is_skill=bool(rng.below(2)),
        advantage_threshold=rng.choice((None, 1, 2, 3, 4)),
        teller_policy=rng.choice(("rubric", "approve_all", "human")),
    )


def test_odds_for_state_equal_the_reference() -> None:
    rng = Rng(77)
    seen: set[tuple[str, bool, bool]] = set()
    for _ in range(6000):
        options = _rulings(rng)
        current = rng.choice(_PERILS)
        inventory = rng.sample(_ITEMS, rng.below(5))
        args: dict[str, Any] = {
            "phase": rng.choice(("plan", "judge", "roll")), "current": current,
            "difficulty": 11 if current[0] == "A" else int(current[:-1]),
            "levels": {s: rng.below(13) for s in ("D", "C", "S", "H")},
            "inventory": inventory, "options": options,
            "plan_channel": rng.choice((None, "D", "C", "S", "H")),
            "plan_items": rng.sample(inventory, rng.below(len(inventory) + 1)),
            "judged_bonus": rng.below(9), "advantage": bool(rng.below(2)),
            "stage": rng.choice(("main", "showdown")), "hero": bool(rng.below(2)),
        }
        got = odds_for_state(**args)
        want = reference_odds(**args)
        assert got == want, args
        assert got is not None and got.to_json() == want.to_json()
        seen.add((got.moment, got.best_twice is not None, got.now.impossible))
    assert len(seen) >= 10  # every moment, with and without the roll-twice, reachable or not


def test_no_odds_outside_a_waiting_peril() -> None:
    args: dict[str, Any] = {
        "current": "7D", "difficulty": 7, "levels": {"D": 2, "C": 4, "S": 6, "H": 3},
        "inventory": [], "options": PerilsOptions(), "plan_channel": None, "plan_items": [],
        "judged_bonus": 0, "advantage": False, "stage": "main"}
    for phase in ("archetype", "describe", "choose", "lose_levels", "shuffle_back", "over"):
        assert odds_for_state(phase=phase, **args) is None
    assert odds_for_state(phase="plan", **{**args, "current": None}) is None
    assert odds_for_state(phase="plan", **{**args, "difficulty": None}) is None


def test_odds_pickle_and_copy_to_equal_odds() -> None:
    odds = odds_for_state(
        phase="judge", current="7D", difficulty=7, levels={"D": 2, "C": 4, "S": 6, "H": 3},
        inventory=["JD", "QC"], options=replace(PerilsOptions(), teller_policy="human"),
        plan_channel="S", plan_items=["JD"], judged_bonus=0, advantage=False, stage="main")
    assert odds is not None and odds.best is not None and odds.best_twice is not None
    for obj in (odds, odds.now, odds.best, odds.best_twice):
        again = pickle.loads(pickle.dumps(obj))
        assert type(again) is type(obj) and again == obj and hash(again) == hash(obj)
        assert copy.deepcopy(obj) == obj and copy.copy(obj) == obj
    assert pickle.loads(pickle.dumps(odds)).to_json() == odds.to_json()
