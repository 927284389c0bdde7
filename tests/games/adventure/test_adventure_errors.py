"""Bad input raises typed errors naming what was wrong, the rule and what is allowed."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from adventure_testkit import FOUR_PLAYER_DEAL, RULES, new, play

from pocketgalaxy.core.errors import (
    IllegalActionError,
    MalformedActionError,
    OptionsError,
    RecordError,
)
from pocketgalaxy.games.adventure import DeclareCard, Peek, RequestCard, SkipPeek


def test_illegal_action_message_names_action_seat_reason_rule_and_allowed() -> None:
    state = new()
    with pytest.raises(IllegalActionError) as info:
        RULES.check(state, 1, RequestCard(3, "P4"))
    err = info.value
    assert str(err) == (
        "illegal action RequestCard(target=3, card='P4') for seat 1: not_your_turn "
        "(AC-R7; seat 0 to act)"
    )
    assert err.code == "action/not_your_turn" and err.allowed == ()
    with pytest.raises(IllegalActionError) as info:
        RULES.check(state, 0, RequestCard(0, "P4"))
    assert info.value.reason == "self_request"
    assert "RequestCard(target=1, card='P4')" in info.value.allowed
    assert info.value.to_json()["code"] == "action/self_request"


@pytest.mark.parametrize(
    ("seat", "action", "reason"),
    [
        (0, RequestCard(7, "P4"), "no_such_seat"),
        (0, RequestCard(-1, "P4"), "no_such_seat"),
        (9, RequestCard(1, "P4"), "no_such_seat"),
        (0, DeclareCard(-1, "P4"), "no_such_slot"),
        (0, Peek(0), "wrong_phase"),
        (0, SkipPeek(), "wrong_phase"),
    ],
)
def test_stable_reasons(seat: int, action: Any, reason: str) -> None:
    state = new()
    before = state.to_json()
    with pytest.raises(IllegalActionError) as info:
        RULES.apply(state, seat, action)
    assert info.value.reason == reason
    assert state.to_json() == before


@pytest.mark.parametrize(
    "data",
    [
        {"type": "RequestCard", "target": 1, "card": "Z9"},
        {"type": "RequestCard", "target": "1", "card": "P4"},
        {"type": "RequestCard", "card": "P4"},
        {"type": "DeclareCard", "slot": 1, "card": "P4", "extra": 1},
        {"type": "Shout"},
        "RequestCard",
    ],
)
def test_malformed_actions(data: Any) -> None:
    with pytest.raises(MalformedActionError):
        RULES.parse_action(data)


def test_action_json_round_trips_and_normalises() -> None:
    for action in (RequestCard(2, "p3"), DeclareCard(5, "M6"), Peek(3), SkipPeek()):
        assert RULES.parse_action(json.loads(json.dumps(action.to_json()))) == action
    assert RULES.parse_action({"type": "RequestCard", "target": 1, "card": " a2"}).card == "A2"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"table": ["M4"] * 8}, "exactly once"),
        ({"hands": [["S1"]] * 4}, "must hold 4 cards"),
        ({"first_player": 4}, "first_player"),
        ({"missions": [["S1", "P1", "A1", "M1"]] * 6}, "pinned missions"),
        ({"dealer": 1}, "unknown pinned key"),
    ],
)
def test_bad_pinned_deals_are_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        RULES.new(None, 0, players=4, pinned={**FOUR_PLAYER_DEAL, **change})
    with pytest.raises(OptionsError, match="go together"):
        RULES.new(None, 0, players=4, pinned={"hands": FOUR_PLAYER_DEAL["hands"]})


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("hands", 0, 0), "P2"),  # P2 twice
        (("players",), 7),
        (("phase",), "lunch"),
        (("missions", 0, 0), "P1"),
        (("seen", 0, 0), "S1"),  # a face that is not there
        (("claimed_by", 0), 0),  # claimed, but the cards are not discarded
        (("log_cur", 0), {"type": "Nope"}),
        (("rng",), "seed"),
        (("lacks", 0), ["Q9"]),
    ],
)
def test_corrupt_state_json_raises_record_error(path: tuple[Any, ...], value: Any) -> None:
    state, _ = play(new(), (0, RequestCard(1, "P5")))
    data = copy.deepcopy(state.to_json())
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(RecordError):
        RULES.state_from_json(data)
    assert RULES.state_from_json(state.to_json()).to_json() == state.to_json()


def test_view_of_a_missing_seat_is_refused() -> None:
    with pytest.raises(OptionsError, match="no seat 4"):
        RULES.view(new(), 4)


def test_player_count_comes_from_the_pinned_hands_when_not_given() -> None:
    assert RULES.new(None, 0, pinned=FOUR_PLAYER_DEAL).players == 4
    assert RULES.new(None, 0).players == 2
    with pytest.raises(OptionsError, match="one list per seat"):
        RULES.new(None, 0, players=3, pinned=FOUR_PLAYER_DEAL)
