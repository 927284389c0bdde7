"""The pinned deal's "rounds" key (penalty.validate_pinned, lay_pinned_round): the cards a round
lays, read when the round is dealt, so a longer list never changes the rounds before it."""

from __future__ import annotations

import pytest
from perils_testkit import R, attempt, drain, take

from pocketgalaxy.core.errors import OptionsError
from pocketgalaxy.games.perils.actions import ChooseArchetype
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.state import PerilsState


def _game(rounds: list[list[str]], rolls: list[int] = (), seed: int = 11,  # type: ignore[assignment]
          **options: object) -> PerilsState:
    options.setdefault("archetype", "pilot")
    return R.new(PerilsOptions(**options), seed,  # type: ignore[arg-type]
                 pinned={"rounds": rounds, "rolls": list(rolls)})


def test_rounds_lay_the_named_cards_in_order() -> None:
    state = _game([["8D", "3C"]])
    assert state.pathways == ["8D", "3C"]
    assert len(state.draw) == 44


def test_an_empty_or_missing_round_leaves_the_pile() -> None:
    plain = _game([])
    assert _game([[]]).pathways == plain.pathways
    assert _game([[plain.draw[5]]]).pathways[0] == plain.draw[5]


def test_a_longer_list_does_not_change_earlier_rounds_or_the_generator() -> None:
    short = _game([["8D", "3C"]], rolls=[2])
    longer = _game([["8D", "3C"], ["KD", "9S"]], rolls=[2])
    assert short.to_json()["rng"] == longer.to_json()["rng"]
    a, _ = take(short, 0)
    b, _ = take(longer, 0)
    a, _ = attempt(a)
    b, _ = attempt(b)
    assert a.health == b.health == 2  # 8D at difficulty 8 with a roll of 2 fails
    assert b.pathways == ["KD", "9S"]
    assert a.rng == b.rng


def test_a_card_named_again_after_it_left_the_pile_is_refused() -> None:
    state = _game([["8D", "3C"], ["8D", "9S"]], rolls=[6])
    state, _ = take(state, 0)
    with pytest.raises(OptionsError, match="pinned round 2 names"):
        attempt(state)


def test_the_showdown_lays_the_named_big_bads() -> None:
    state = _game([["5H", "6H"], ["AS", "AD", "AC"]])
    drain(state)
    state, events = take(state, 0)  # a healing gift, then the maze is empty
    assert state.stage == "showdown"
    assert state.pathways == ["AS", "AD", "AC"]


def test_an_ace_named_for_a_maze_round_is_refused() -> None:
    with pytest.raises(OptionsError, match="not waiting to be laid"):
        _game([["AS"]])
    state = R.new(PerilsOptions(), 3, pinned={"rounds": [["AS"]]})
    before = state.to_json()
    with pytest.raises(OptionsError, match="pinned round 1 names"):
        R.apply(state, 0, ChooseArchetype("pilot"))
    assert state.to_json() == before


@pytest.mark.parametrize("bad, words", [
    ({"rounds": "8D"}, "list of at most"),
    ({"rounds": [["8D", "8D"]]}, "different cards"),
    ({"rounds": [["AH"]]}, "never AH"),
    ({"rounds": [["8X"]]}, "pinned round 1"),
    ({"rounds": [["2D", "3D", "4D", "5D"]]}, "at most 3"),
    ({"rounds": [[]] * 501}, "at most 500"),
])
def test_bad_rounds_are_refused_clearly(bad: dict[str, object], words: str) -> None:
    with pytest.raises(OptionsError, match=words):
        R.new(PerilsOptions(), 1, pinned=bad)
