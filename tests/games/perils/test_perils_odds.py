"""The target line (games/perils/odds.py): needed face and exact chance, from pinned games."""

from __future__ import annotations

from fractions import Fraction

import pytest
from perils_testkit import R, act, attempt, drain, new, take

from pocketgalaxy.games.perils.actions import JudgePlan, MakePlan, Roll
from pocketgalaxy.games.perils.odds import percent, roll_odds


@pytest.mark.parametrize(("difficulty", "bonus", "strict", "needed", "ways"), [
    (7, 2, False, 5, 2), (7, 2, True, 6, 1), (3, 0, False, 3, 4), (1, 0, False, 1, 6),
    (2, 5, False, 1, 6), (7, 0, False, None, 0), (10, 3, False, None, 0), (11, 5, False, 6, 1),
    (6, 0, True, None, 0),
])
def test_needed_face_and_ways(difficulty: int, bonus: int, strict: bool, needed: int | None,
                              ways: int) -> None:
    odds = roll_odds(difficulty, bonus, strict=strict)
    assert (odds.needed, odds.ways) == (needed, ways)
    assert odds.chance == Fraction(ways, 6)
    assert odds.impossible is (ways == 0) and odds.certain is (ways == 6)


def test_advantage_is_one_minus_both_failing() -> None:
    odds = roll_odds(7, 2, advantage=True)  # needs 5: p = 1/3 per die
    assert odds.chance == 1 - Fraction(2, 3) ** 2 == Fraction(20, 36)
    assert odds.to_json()["chance"] == [5, 9] and odds.to_json()["percent"] == 56
    assert roll_odds(12, 0, advantage=True).chance == 0


def test_percent_never_rounds_to_a_false_certainty() -> None:
    assert percent(Fraction(1, 1000)) == 1 and percent(Fraction(999, 1000)) == 99
    assert (percent(Fraction(0)), percent(Fraction(1)), percent(Fraction(1, 3))) == (0, 100, 33)


def test_plan_moment_counts_no_bonus_now_and_every_usable_source_at_best() -> None:
    # The Pilot (Strength 2, Agility 4, Piloting 6) holds the JD item and meets the 7D peril.
    state, _ = take(new(draw=("JD", "4H", "7D", "5H")), 0)
    state, _ = take(state, 0)
    assert state.phase == "plan" and state.current == "7D"
    odds = R.view(state, 0).odds
    assert odds is not None and odds.moment == "plan"
    assert (odds.now.bonus, odds.now.needed, odds.now.impossible) == (0, None, True)
    assert odds.best is not None and (odds.best.bonus, odds.best.needed) == (2, 5)
    assert odds.best.chance == Fraction(1, 3)
    assert odds.words.startswith("The total must be 7 or more. With no bonus even a 6 cannot")
    assert "With +2 (if the Teller approves every source you can use) you need 5 or more on " \
           "the die: 2 chances in 6 (33%)." in odds.words
    # Three sources are needed for the roll-twice; two are all this Hero has: not offered.
    assert odds.best_twice is None and "roll-twice" not in odds.words
    # The same numbers in every seat's view (nothing hidden in them); the others read about
    # the Hero instead of "you".
    teller, watcher = R.view(state, 1).odds, R.view(state, None).odds
    assert teller is not None and teller == watcher
    assert (teller.now, teller.best) == (odds.now, odds.best)
    assert "the Hero needs 5 or more" in teller.words and "you" not in teller.words


def test_impossible_even_with_every_bonus_is_said_plainly() -> None:
    state, _ = take(new(draw=("10C", "4H")), 0)  # Agility 4 against 10: at most 6 + 1
    odds = R.view(state, 0).odds
    assert odds is not None and odds.best is not None and odds.best.impossible
    assert "Even a 6 with every bonus you could earn (+1) cannot reach it: the attempt will " \
           "fail." in odds.words


def test_roll_moment_uses_the_approved_bonus_and_advantage() -> None:
    state, _ = take(new(draw=("5C", "4H"), teller_policy="human"), 0)
    state, _ = act(state, MakePlan("D", (), "I brace my strength against it."))
    judging = R.view(state, 1).odds
    assert judging is not None and judging.moment == "judge" and judging.best is not None
    assert (judging.now.needed, judging.best.needed) == (5, 4)
    # A person Teller may grant the roll-twice to any plan.
    assert judging.best_twice is not None and judging.best_twice.chance == Fraction(27, 36)
    state, _ = act(state, JudgePlan(True, (), True))
    odds = R.view(state, 0).odds
    assert odds is not None and odds.moment == "roll" and odds.best is None
    assert (odds.now.bonus, odds.now.advantage, odds.now.needed) == (1, True, 4)
    assert odds.words == ("The total must be 5 or more. With +1 you need 4 or more on the die: "
                          "27 chances in 36 with two dice (75%).")
    state, _ = act(state, Roll())
    assert R.view(state, 0).odds is None


def test_strict_comparison_and_skill_added_to_the_roll() -> None:
    state, _ = take(new(draw=("5C", "4H"), success_comparison=">", skill_adds_to_roll=True), 0)
    odds = R.view(state, 0).odds
    # Agility 4 is added: 4 + face > 5 needs a 2 or more.
    assert odds is not None and (odds.now.bonus, odds.now.needed, odds.now.ways) == (4, 2, 5)
    assert odds.words.startswith("The total must be more than 5. With +4 you need 2 or more")


def test_big_bad_line_names_the_showdown_stake() -> None:
    state = new(draw=("4H", "5H"), bigs=("AD", "AC", "AS"))
    drain(state)
    state, _ = take(state, 0)  # a heal at full health; then the Big Bads are laid
    assert state.stage == "showdown"
    state, _ = take(state, 0)
    assert state.phase == "plan" and state.current is not None
    odds = R.view(state, 0).odds
    assert odds is not None and odds.now.difficulty == 11 and odds.now.impossible
    assert "at zero health in the showdown the Hero loses" in odds.words


def test_no_odds_without_a_peril_waiting() -> None:
    state = new(draw=("9C", "JD"))
    assert state.phase == "describe" and R.view(state, 0).odds is None
    assert R.view(state, 0).to_json()["odds"] is None


def test_wounds_are_the_damage_still_carried_after_healing() -> None:
    # Fail the 8S peril (die 1 + 0), then take the 5H healing gift.
    state, _ = take(new(draw=("8S", "5C", "5H", "7C"), rolls=(1,)), 0)
    state, _ = attempt(state)
    view = R.view(state, 0)
    assert (view.health, view.damage, view.wounds) == (2, ("8S",), ("8S",))
    state, _ = take(state, 0)
    view = R.view(state, 0)
    assert (view.health, view.damage, view.wounds) == (3, ("8S",), ())
    assert view.to_json()["wounds"] == [] and view.to_json()["damage"] == ["8S"]
