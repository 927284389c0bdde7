"""The Adventure Cards action space and observation: round trips, exact masks, known slots."""

from __future__ import annotations

import numpy as np
import pytest

from pocketgalaxy.core.errors import MalformedActionError, OptionsError
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.adventure import (
    AdventureOptions,
    AdventureRules,
    DeclareCard,
    PassTurn,
    Peek,
    RequestCard,
    SkipPeek,
)
from pocketgalaxy.games.adventure.identities import CARD_INDEX, CARDS
from pocketgalaxy.rl.encoding.adventure import (
    AdventureActionCodec,
    AdventureObservation,
    table_slots,
)

RULES = AdventureRules()
MISSIONS = [[f"S{m}", f"P{m}", f"A{m}", f"M{m}"] for m in range(1, 7)]


def _codec(n: int) -> AdventureActionCodec:
    return AdventureActionCodec(n, table_slots(n))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_index_round_trips_for_every_seat(players: int) -> None:
    codec = _codec(players)
    assert codec.size == (players - 1) * 24 + codec.slots * 24 + codec.slots + 1 + 6 + 1
    for seat in range(players):
        for i in range(codec.size):
            action = codec.decode(i, seat=seat)
            assert codec.encode(action, seat=seat) == i
            if isinstance(action, RequestCard):
                assert action.target != seat


def test_request_targets_are_offsets_from_the_acting_seat() -> None:
    codec = _codec(4)
    assert codec.decode(0, seat=2) == RequestCard(3, "S1")
    assert codec.decode(2 * 24 + CARD_INDEX["P4"], seat=2) == RequestCard(1, "P4")
    assert codec.encode(RequestCard(0, "M6"), seat=3) == 23  # offset 1 from seat 3 is seat 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mask_is_exactly_the_legal_actions_along_random_games(players: int) -> None:
    codec = _codec(players)
    rng = Rng(players)
    state = RULES.new(AdventureOptions(), seed=players, players=players)
    checked = 0
    while RULES.to_act(state) is not None and checked < 400:
        seat = RULES.to_act(state)
        assert seat is not None
        legal = RULES.legal_actions(state, seat)
        mask = codec.mask(seat=seat, legal=legal)
        assert mask.dtype == np.int8 and mask.shape == (codec.size,)
        assert int(mask.sum()) == len(legal)
        assert {codec.decode(int(i), seat=seat) for i in np.flatnonzero(mask)} == set(legal)
        for other in range(players):  # nobody else may act
            if other != seat:
                assert not codec.mask(seat=other, legal=RULES.legal_actions(state, other)).any()
        RULES.apply_unchecked(state, seat, rng.choice(legal))
        checked += 1
    assert checked > 50


def test_claims_and_passes_have_indices_under_their_options() -> None:
    opts = AdventureOptions(auto_claim=False, first_player="seat0")
    hands = [[*MISSIONS[0], "S2", "P2", "A2", "M2"], ["S3", "P3", "A3", "M3", "S4", "P4",
                                                       "A4", "M4"]]
    table = [c for c in CARDS if c not in hands[0] + hands[1]]
    state = RULES.new(opts, 0, players=2, pinned={"missions": MISSIONS, "hands": hands,
                                                  "table": table})
    codec = AdventureActionCodec(2, 8)
    legal = RULES.legal_actions(state, 0)
    mask = codec.mask(seat=0, legal=legal)
    claims = codec.layout["ClaimMission"]
    assert mask[claims.slice].tolist() == [1, 1, 0, 0, 0, 0]
    assert codec.decode(codec.layout["PassTurn"].start, seat=0) == PassTurn()
    assert codec.decode(codec.layout["SkipPeek"].start, seat=1) == SkipPeek()


def test_bad_actions_and_indices_raise_typed_errors() -> None:
    codec = _codec(3)
    with pytest.raises(MalformedActionError, match="another seat"):
        codec.encode(RequestCard(1, "S1"), seat=1)
    with pytest.raises(MalformedActionError, match="table slots are 0..5"):
        codec.encode(DeclareCard(6, "S1"), seat=0)
    with pytest.raises(MalformedActionError, match="out of range"):
        codec.decode(codec.size, seat=0)
    with pytest.raises(MalformedActionError, match="whole number"):
        codec.decode(1.5, seat=0)  # type: ignore[arg-type]
    with pytest.raises(MalformedActionError, match="whole number"):
        codec.decode(True, seat=0)
    assert codec.decode(np.int64(3), seat=0) == codec.decode(3, seat=0)
    with pytest.raises(OptionsError, match="2 to 5 players"):
        AdventureActionCodec(6, 4)


# -- observations --------------------------------------------------------------------------
def _pinned(hands: list[list[str]], table: list[str], first: int = 0) -> dict[str, object]:
    return {"missions": MISSIONS, "hands": hands, "table": table, "first_player": first}


HANDS_A = [["S1", "P1", "A1", "S2"], ["M1", "P2", "A2", "M2"], ["S3", "P4", "A3", "M4"],
           ["S4", "P3", "A4", "M3"]]  # no mission complete, so nothing is claimed at once
TABLE_A = ["S5", "P5", "A5", "M5", "S6", "P6", "A6", "M6"]


def test_observation_slots_match_the_view() -> None:
    state = RULES.new(AdventureOptions(), 0, players=4, pinned=_pinned(HANDS_A, TABLE_A))
    enc = AdventureObservation(4, 8)
    obs = enc.encode(RULES.view(state, 0))
    lay = enc.layout
    assert obs.dtype == np.float32 and obs.shape == (enc.size,)
    assert obs.min() >= 0.0 and obs.max() <= 1.0
    hand = obs[lay["hand"].slice]
    assert {CARDS[i] for i in np.flatnonzero(hand)} == {"S1", "P1", "A1", "S2"}
    assert obs[lay["mission_held"].slice].tolist() == [0.75, 0.25, 0, 0, 0, 0]
    assert obs[lay["to_act"].slice].tolist() == [1, 0, 0, 0]
    assert obs[lay["table"].slice].tolist() == [1] * 8
    mo = obs[lay["mission_of"].slice].reshape(24, 6)
    assert mo[CARD_INDEX["M4"]].tolist() == [0, 0, 0, 1, 0, 0]
    # Seat 0 asks seat 2 for M1 (seat 1 holds it): refused, everyone sees seat 2 lacks M1.
    state, _ = RULES.apply(state, 0, RequestCard(2, "M1"))
    state, _ = RULES.apply(state, 0, Peek(3))
    mine = enc.encode(RULES.view(state, 0))
    known = mine[lay["known"].slice].reshape(8, 24)
    assert np.flatnonzero(known[3]).tolist() == [CARD_INDEX["M5"]]
    assert known.sum() == 1
    lacks = mine[lay["recent_lacks"].slice].reshape(4, 24)
    assert np.flatnonzero(lacks[2]).tolist() == [CARD_INDEX["M1"]]
    # Seat 1's view: to act (offset 0), sees the refusal from offset 1 (seat 2), not the face.
    theirs = enc.encode(RULES.view(state, 1))
    assert theirs[lay["to_act"].slice].tolist() == [1, 0, 0, 0]
    assert np.flatnonzero(theirs[lay["recent_lacks"].slice].reshape(4, 24)[1]).tolist() == [
        CARD_INDEX["M1"]]
    assert theirs[lay["known"].slice].sum() == 0
    assert theirs[lay["recent_peeked"].slice].reshape(4, 8)[3, 3] == 1  # seat 0 = offset 3


def test_a_seat_cannot_tell_apart_states_that_differ_only_in_hidden_cards() -> None:
    # Seats 2 and 3 swap two cards, and two face-down table cards swap slots: seat 0's
    # observation is the same; seat 2's (whose hand changed) is not.
    hands_b = [list(h) for h in HANDS_A]
    hands_b[2][0], hands_b[3][0] = hands_b[3][0], hands_b[2][0]
    table_b = list(TABLE_A)
    table_b[0], table_b[5] = table_b[5], table_b[0]
    a = RULES.new(AdventureOptions(), 0, players=4, pinned=_pinned(HANDS_A, TABLE_A))
    b = RULES.new(AdventureOptions(), 0, players=4, pinned=_pinned(hands_b, table_b))
    enc = AdventureObservation(4, 8)
    for _ in range(2):
        assert np.array_equal(enc.encode(RULES.view(a, 0)), enc.encode(RULES.view(b, 0)))
        assert np.array_equal(enc.encode(RULES.view(a, 1)), enc.encode(RULES.view(b, 1)))
        assert not np.array_equal(enc.encode(RULES.view(a, 2)), enc.encode(RULES.view(b, 2)))
        # The same public action in both: seat 0 asks seat 1 for a card seat 1 lacks in both.
        a, _ = RULES.apply(a, 0, RequestCard(1, "S6"))
        b, _ = RULES.apply(b, 0, RequestCard(1, "S6"))
        a, _ = RULES.apply(a, 0, SkipPeek())
        b, _ = RULES.apply(b, 0, SkipPeek())
        a, _ = RULES.apply(a, 1, RequestCard(2, "S6"))
        b, _ = RULES.apply(b, 1, RequestCard(2, "S6"))
        a, _ = RULES.apply(a, 1, SkipPeek())
        b, _ = RULES.apply(b, 1, SkipPeek())
        a, _ = RULES.apply(a, 2, RequestCard(1, "S6"))
        b, _ = RULES.apply(b, 2, RequestCard(1, "S6"))
        a, _ = RULES.apply(a, 2, SkipPeek())
        b, _ = RULES.apply(b, 2, SkipPeek())
        a, _ = RULES.apply(a, 3, RequestCard(1, "S6"))
        b, _ = RULES.apply(b, 3, RequestCard(1, "S6"))
        a, _ = RULES.apply(a, 3, SkipPeek())
        b, _ = RULES.apply(b, 3, SkipPeek())


def test_encoder_refuses_a_watcher_and_a_view_of_another_size() -> None:
    state = RULES.new(AdventureOptions(), 1, players=3)
    with pytest.raises(OptionsError, match="watcher"):
        AdventureObservation(3, 6).encode(RULES.view(state, None))
    with pytest.raises(OptionsError, match="4 players"):
        AdventureObservation(4, 8).encode(RULES.view(state, 0))
