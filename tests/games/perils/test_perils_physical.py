"""games/perils/physical.py: what may be typed as a round's cards and a real die's result."""

from __future__ import annotations

import pytest
from perils_testkit import R, act, drain, take

from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.games.perils.actions import ChoosePathway, DescribePathways, MakePlan, Roll
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.physical import (
    TypedCardError,
    check_laid,
    check_rolls,
    round_to_lay,
    split_typed,
)
from pocketgalaxy.games.perils.state import PerilsState


def _game(rounds: list[list[str]] | None = None, rolls: list[int] | None = None,
          **options: object) -> PerilsState:
    options.setdefault("archetype", "pilot")
    return R.new(PerilsOptions(**options), 4,  # type: ignore[arg-type]
                 pinned={"rounds": rounds or [], "rolls": rolls or []})


def test_round_to_lay_names_the_cards_still_in_the_maze() -> None:
    state = _game()
    todo = round_to_lay(state)
    assert (todo.round, todo.stage, todo.count, todo.must_type) == (1, "main", 2, True)
    assert len(todo.allowed) == 46
    assert not {"AD", "AC", "AS", "AH", "2D", "4C", "6S", "3H"} & set(todo.allowed)


def test_check_laid_gives_canonical_codes_in_order() -> None:
    assert check_laid(_game(), ["10c", "8♦"]) == ("10C", "8D")


@pytest.mark.parametrize("typed, code, words", [
    (["8X", "3C"], "companion/not_a_card", "'8X' is not a card"),
    (["8D", "8d"], "companion/typed_twice", "8D is typed twice"),
    (["8D"], "companion/wrong_count", r"lays 2 pathway\(s\), not 1"),
    (["AH", "3C"], "companion/not_on_the_table", "AH is the Prize"),
    (["AC", "3C"], "companion/not_on_the_table", "AC is a Big Bad"),
    (["6S", "3C"], "companion/not_on_the_table", "6S is one of the Hero's archetype cards"),
])
def test_check_laid_refuses_with_what_may_be_typed(typed: list[str], code: str,
                                                   words: str) -> None:
    state = _game()
    before = state.to_json()
    with pytest.raises(TypedCardError, match=words) as caught:
        check_laid(state, typed)
    assert caught.value.code == code
    assert "left to right" in caught.value.message
    assert state.to_json() == before


def test_a_card_met_earlier_is_refused_saying_where_it_is() -> None:
    state = _game(rounds=[["5H", "8D"]])
    state, _ = take(state, 0)  # the healing gift is met and set aside
    with pytest.raises(TypedCardError, match="5H was met already"):
        check_laid(state, ["5H", "3C"])
    with pytest.raises(TypedCardError, match="8D was an unchosen pathway"):
        check_laid(state, ["8D", "3C"])


def test_the_showdown_allows_only_waiting_big_bads() -> None:
    state = _game(rounds=[["5H", "6H"]])
    drain(state)
    state, _ = take(state, 0)
    todo = round_to_lay(state)
    assert (todo.stage, todo.count, todo.allowed, todo.must_type) == (
        "showdown", 3, ("AD", "AC", "AS"), True)
    with pytest.raises(TypedCardError, match="8D is not a Big Bad"):
        check_laid(state, ["8D", "AC", "AS"])
    assert check_laid(state, ["as", "ad", "ac"]) == ("AS", "AD", "AC")


def test_big_bads_left_in_a_hero_chooses_showdown_need_no_typing() -> None:
    state = _game(rounds=[["5H", "6H"], ["AS", "AD", "AC"]], rolls=[6])
    drain(state)
    state, _ = take(state, 0)
    state, _ = act(state, DescribePathways(R.suggestions(state)))
    state, _ = act(state, ChoosePathway(0))  # AS: Piloting 6 against 11, a plan and a roll
    state, _ = act(state, MakePlan())
    state, _ = act(state, Roll())
    todo = round_to_lay(state)
    assert (todo.round, todo.count, todo.must_type) == (3, 2, False)
    assert state.pathways == ["AD", "AC"]


def test_round_to_lay_outside_a_deal_is_refused() -> None:
    state = _game()
    state, _ = act(state, DescribePathways(R.suggestions(state)))
    with pytest.raises(PocketGalaxyError, match="no round is being laid"):
        round_to_lay(state)


def test_check_rolls() -> None:
    assert check_rolls(["4"], False) == (4,)
    assert check_rolls(["3", "5"], True) == (3, 5)
    with pytest.raises(TypedCardError, match="'7' is not a die result"):
        check_rolls(["7"], False)
    with pytest.raises(TypedCardError, match="type two dice"):
        check_rolls(["3"], True)
    with pytest.raises(TypedCardError, match="at most 200"):
        split_typed("1 " * 150)
    assert split_typed("8D,3C  JK1") == ["8D", "3C", "JK1"]
