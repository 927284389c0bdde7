"""Perils & Pathways refusals in the player's words (games/perils/explain.py)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from perils_testkit import R, act, new, take

from pocketgalaxy.core.errors import IllegalActionError
from pocketgalaxy.games.perils import explain as X
from pocketgalaxy.games.perils.actions import (
    ChooseArchetype,
    ChooseLostLevels,
    ChoosePathway,
    ChooseShuffleBack,
    DescribePathways,
    JudgePlan,
    MakePlan,
    Roll,
)
from pocketgalaxy.games.perils.content import load_theme
from pocketgalaxy.games.perils.state import PerilsState

SRC = Path(__file__).resolve().parents[3] / "src" / "pocketgalaxy" / "games" / "perils"
FORBIDDEN = ("ChoosePathway(", "MakePlan(", "JudgePlan(", "Roll(", "ChooseArchetype(",
             "DescribePathways(", "ChooseLostLevels(", "ChooseShuffleBack(", "seat 0",
             "seat 1", "position=", "channel=", "0..", "illegal action", "phase plan")
CODE_WORD = re.compile(r"\b[a-z]+_[a-z_]+\b")


def refusal(state: PerilsState, seat: int, action: Any) -> tuple[IllegalActionError, str]:
    with pytest.raises(IllegalActionError) as info:
        R.check(state, seat, action)
    err = info.value
    return err, X.explain(err.code, err.rule, err.action, R.view(state, seat))


def at_plan(**options: Any) -> PerilsState:
    """The cosmic Pilot (Strength 2, Agility 4, Piloting 6) facing 9♦, a Strength peril."""
    state = new(draw=("9D", "7S", "8C", "5D"), rolls=(1, 1, 1), **options)
    state, _ = take(state, 0)
    assert state.phase == "plan" and state.current == "9D"
    return state


def test_every_refusal_code_of_the_rules_has_an_explanation() -> None:
    sources = "".join(p.read_text(encoding="utf-8") for p in sorted(SRC.glob("*.py"))
                      if p.name != "explain.py")
    codes = set(re.findall(r'"([a-z][a-z_]+)",\s*(?:"PP-[A-Z]\d+"|rule\b)', sources))
    assert len(codes) >= 20  # the scan itself works
    assert sorted(codes - set(X.EXPLAINERS)) == []
    assert sorted(set(X.EXPLAINERS) - codes) == []


def test_pathways_count_from_one() -> None:
    state = new(draw=("9D", "7S", "8C", "5D"))
    state, _ = act(state, DescribePathways(R.suggestions(state)))
    _, text = refusal(state, 0, ChoosePathway(2))
    assert text == "There is no pathway 3: choose pathway 1-2. (PP-R9)"


@pytest.mark.parametrize(
    ("seat", "action", "expected"),
    [
        (0, MakePlan("D"), "This peril already tests Strength: channel another skill (Agility "
                           "or Piloting), or none. (PP-A6)"),
        (0, MakePlan("H"), "Health (the heart) is not a skill you can channel in this game: "
                           "channel Agility or Piloting, or none. (PP-A6)"),
        (0, MakePlan(None, ("KD",)), "You do not carry {KD}: your items are nothing. (PP-R13)"),
        (0, MakePlan("C", (), "x" * 2001), "A plan can be at most 2000 characters: say it more "
                                           "shortly. (PP-R13)"),
        (0, Roll(), "That is not the step now: now you make a plan. (PP-R1)"),
        (1, JudgePlan(False, (), False), "It is not your turn: the Hero is to make a plan. "
                                         "(PP-R1)"),
    ],
)
def test_plan_refusals_read_as_sentences(seat: int, action: Any, expected: str) -> None:
    state = at_plan()
    _, text = refusal(state, seat, action)
    item = f"{load_theme('cosmic').items['KD'].name} ({X.label('KD')})"
    assert text == expected.replace("{KD}", item)


def test_judge_refusals_name_the_committed_items() -> None:
    state = at_plan(teller_policy="human", advantage_threshold=None)
    state, _ = act(state, MakePlan(None, (), ""))
    assert state.phase == "judge"
    _, text = refusal(state, 1, JudgePlan(True, (), False))
    assert text == "The plan channels no skill, so there is no skill to approve. (PP-R13)"
    _, text = refusal(state, 1, JudgePlan(False, ("QS",), False))
    assert text == "Approve only items the Hero committed to the plan: none were. (PP-R13)"
    _, text = refusal(state, 1, JudgePlan(False, (), True))
    assert text == "Advantage is switched off in this game: judge the plan without it. (PP-A7)"


def test_archetype_refusal_lists_the_playsheet_names() -> None:
    state = R.new(None, 3)
    _, text = refusal(state, 0, ChooseArchetype("wizard"))
    assert text.startswith("'wizard' is not an archetype of this playsheet: choose ")
    assert "Pilot" in text and text.endswith("(PP-R2)")


def _random_action(rng: random.Random, state: PerilsState) -> Any:
    kind = rng.randrange(8)
    codes = ["KD", "QS", "JC", "JK1", "9D", "3H", *state.inventory,
             *[c for s in "DCS" for c in state.tucked[s]], *state.limbo]
    if kind == 0:
        return ChoosePathway(rng.randrange(-1, 4))
    if kind == 1:
        return MakePlan(rng.choice([None, "D", "C", "S", "H"]),
                        tuple(rng.sample(codes, rng.randrange(3))), "")
    if kind == 2:
        return JudgePlan(rng.random() < 0.5, tuple(rng.sample(codes, rng.randrange(2))),
                         rng.random() < 0.5)
    if kind == 3:
        return Roll()
    if kind == 4:
        return ChooseLostLevels(tuple(rng.sample(codes, rng.randrange(3))))
    if kind == 5:
        return ChooseShuffleBack(tuple(rng.sample(codes, rng.randrange(3))))
    if kind == 6:
        return DescribePathways(tuple("" if rng.random() < 0.3 else "a hum"
                                      for _ in range(rng.randrange(1, 4))))
    return ChooseArchetype(rng.choice(["pilot", "wizard", "envoy"]))


@pytest.mark.parametrize(
    "options",
    [{}, {"teller_policy": "human", "lost_levels_chooser": "hero", "half_scope": "per_skill",
          "item_suit_restriction": True, "shuffle_back_rule": "teller_chooses"}],
)
def test_no_sentence_shows_an_internal_spelling(options: dict[str, Any]) -> None:
    rng = random.Random(3)
    seen: set[str] = set()
    for seed in range(5):
        state = R.new(R.options_type(**options), seed)
        for _ in range(400):
            if R.to_act(state) is None:
                break
            seat = rng.randrange(2)
            legal = R.legal_actions(state, seat)
            action = rng.choice(legal) if legal and rng.random() < 0.5 else _random_action(
                rng, state)
            try:
                R.check(state, seat, action)
            except IllegalActionError as err:
                text = X.explain(err.code, err.rule, err.action, R.view(state, seat))
                seen.add(err.reason)
                assert err.reason in X.EXPLAINERS
                assert text.endswith(f"({err.rule})"), text
                assert not [f for f in FORBIDDEN if f in text], text
                assert not CODE_WORD.search(text), text
                continue
            state, _ = R.apply(state, seat, action)
    assert len(seen) >= 8
