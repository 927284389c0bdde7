"""One test per ruling AC-A1..AC-A16: each option's default and its alternative, pinned."""

from __future__ import annotations

import dataclasses

import pytest
from adventure_testkit import FOUR_PLAYER_DEAL, PLAIN_MISSIONS, RULES, new, play, types_of

from pocketgalaxy.core.errors import CardCodeError, IllegalActionError, OptionsError
from pocketgalaxy.core.options import options_from_json
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.adventure import (
    AdventureOptions,
    ClaimMission,
    DeclareCard,
    Peek,
    RequestCard,
    SkipPeek,
    parse_identity,
)
from pocketgalaxy.games.adventure.content import card_info
from pocketgalaxy.games.adventure.events import MissionClaimed, PeekSkipped, TurnPassed


def _refused(state: object, seat: int, action: object, reason: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        RULES.check(state, seat, action)  # type: ignore[arg-type]
    assert info.value.reason == reason
    return info.value


def test_AC_A1_require_mission_card_to_request() -> None:
    # Seat 0 holds S1 P1 A1 S2: nothing of mission 2 (S3 P3 A3 M3).
    state, _ = play(new(), (0, RequestCard(2, "P3")))
    assert "P3" in state.hands[0]
    strict = new(require_mission_card_to_request=True)
    err = _refused(strict, 0, RequestCard(2, "P3"), "need_mission_card")
    assert err.rule == "AC-A1" and "require_mission_card_to_request" in str(err)
    asked = {a.card for a in RULES.legal_actions(strict, 0) if isinstance(a, RequestCard)}
    assert asked and all(c[1] in "12" for c in asked)
    play(strict, (0, RequestCard(1, "M1")))  # a mission-mate of S1: fine


def test_AC_A2_requestable_cards_and_forbid_known_misses() -> None:
    state = new()
    _refused(state, 0, RequestCard(1, "S1"), "card_in_own_hand")
    state, _ = play(state, (0, RequestCard(1, "M1")))  # claims mission 0
    _refused(state, 0, RequestCard(1, "P1"), "card_discarded")
    state, _ = play(state, (0, RequestCard(3, "M6")), (0, SkipPeek()))  # seat 3 lacks M6
    state, _ = play(state, (1, RequestCard(3, "M6")))  # asking again is legal by default
    strict = new(forbid_known_misses=True)
    strict, _ = play(strict, (0, RequestCard(3, "M6")), (0, SkipPeek()))
    err = _refused(strict, 1, RequestCard(3, "M6"), "known_miss")
    assert err.rule == "AC-A2"
    assert RequestCard(3, "M6") not in RULES.legal_actions(strict, 1)


def test_AC_A3_peek_only_after_refused_request_and_optional() -> None:
    state, _ = play(new(), (0, RequestCard(1, "P5")))
    assert state.phase == "peek"
    legal = RULES.legal_actions(state, 0)
    assert legal == [Peek(s) for s in range(8)] + [SkipPeek()]
    _refused(state, 0, RequestCard(1, "P4"), "wrong_phase")
    skipped, events = play(state, (0, SkipPeek()))
    assert events[:2] == [PeekSkipped(0), TurnPassed(0, 1, "request_refused")]
    missed, _ = play(new(), (0, DeclareCard(0, "P5")))  # a missed declaration: no peek
    assert missed.phase == "act" and missed.to_move == 1
    _refused(missed, 1, Peek(0), "wrong_phase")
    off, events = play(new(peek_after_failed_request=False), (0, RequestCard(1, "P5")))
    assert off.phase == "act" and off.to_move == 1
    assert types_of(events) == ["RequestRefused", "TurnPassed"]


def test_AC_A4_missed_declaration_face_is_public_and_stays_in_its_slot() -> None:
    state, events = play(new(), (0, DeclareCard(2, "M4")))
    assert events[0].revealed_card == "A5" and events[0].audience is None  # type: ignore[attr-defined]
    assert state.table[2] == "A5"
    assert all(RULES.view(state, s).known[2] == "A5" for s in (0, 1, 2, 3, None))


def test_AC_A5_auto_claim_off_gives_a_manual_claim_that_keeps_the_turn() -> None:
    state, events = play(new(auto_claim=False), (0, RequestCard(1, "M1")))
    assert not any(isinstance(e, MissionClaimed) for e in events)
    assert ClaimMission(0) in RULES.legal_actions(state, 0)
    _refused(state, 0, ClaimMission(1), "mission_not_solved")
    state, events = play(state, (0, ClaimMission(0)))
    assert events == [MissionClaimed(0, 0, ("S1", "P1", "A1", "M1"))]
    assert state.to_move == 0 and state.phase == "act"
    _refused(state, 0, ClaimMission(0), "mission_claimed")
    auto = new()
    _refused(auto, 0, ClaimMission(0), "claims_automatic")


def test_AC_A6_turn_continues_after_a_completing_success() -> None:
    state, events = play(new(), (0, RequestCard(1, "M1")))
    assert isinstance(events[-1], MissionClaimed) and state.to_move == 0
    assert state.phase == "act" and RULES.legal_actions(state, 0)


def test_AC_A6_completing_declaration_keeps_the_turn() -> None:
    pinned = {
        **FOUR_PLAYER_DEAL,
        "hands": [["S1", "P1", "A1", "S2"], ["M4", "P2", "A2", "S3"],
                  ["M2", "P3", "A3", "S4"], ["M3", "P4", "A4", "S5"]],
        "table": ["M1", "P5", "A5", "S6", "M5", "P6", "A6", "M6"],
    }
    state, events = play(new(pinned), (0, DeclareCard(0, "M1")))
    assert isinstance(events[-1], MissionClaimed) and state.to_move == 0 and state.phase == "act"


@pytest.mark.parametrize(
    ("missions", "options", "winners"),
    [
        # mission 0 sums 19 (marvel 1), mission 1 sums 9 (marvel 6)
        ("scope", {}, (0,)),
        ("scope", {"tiebreak_scope": "marvels_only"}, (1,)),
        # both sum 12; marvels 6 and 1
        ("final", {}, (0, 1)),
        ("final", {"final_tie": "marvel_sum"}, (0,)),
    ],
)
def test_AC_A7_tiebreak_scope_and_final_tie(
    missions: str, options: dict[str, str], winners: tuple[int, ...]
) -> None:
    table = {
        "scope": [["S6", "P6", "A6", "M1"], ["S1", "P1", "A1", "M6"]]
        + [[f"S{k}", f"P{k}", f"A{k}", f"M{k}"] for k in range(2, 6)],
        "final": [["S1", "P2", "A3", "M6"], ["S2", "P3", "A6", "M1"], ["S3", "P1", "A1", "M2"],
                  ["S4", "P4", "A2", "M3"], ["S5", "P5", "A4", "M4"], ["S6", "P6", "A5", "M5"]],
    }[missions]
    rest = [g[i] for i in range(4) for g in table[2:]]
    pinned = {
        "missions": table,
        "hands": [table[0] + rest[:4], table[1] + rest[4:8]],
        "table": rest[8:],
        "first_player": 0,
    }
    opts = options_from_json(AdventureOptions, {"max_turns": 2, **options})
    state = RULES.new(opts, 0, players=2, pinned=pinned)
    state, _ = play(state, (0, DeclareCard(1, rest[8])), (1, DeclareCard(1, rest[8])))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.scores == (1.0, 1.0)
    assert outcome.winners == winners


def test_AC_A8_deal_printed_or_even_and_player_count() -> None:
    assert [len(h) for h in RULES.new(None, 1, players=4).hands] == [4] * 4
    even = RULES.new(AdventureOptions(deal="even"), 1, players=4)
    assert [len(h) for h in even.hands] == [6] * 4 and even.table == []
    five = RULES.new(AdventureOptions(deal="even"), 1, players=5)
    assert [len(h) for h in five.hands] == [4] * 5 and len(five.table) == 4
    for bad in (1, 6):
        with pytest.raises(OptionsError, match="2 to 5 players"):
            RULES.new(None, 1, players=bad)
    with pytest.raises(OptionsError, match="not allowed"):
        options_from_json(AdventureOptions, {"deal": "generous"})


def test_AC_A9_first_player_random_or_seat0() -> None:
    seat0 = AdventureOptions(first_player="seat0")
    starts = {RULES.new(seat0, s, players=5).to_move for s in range(20)}
    assert starts == {0}
    randoms = {RULES.new(AdventureOptions(), s, players=5).to_move for s in range(60)}
    assert randoms == {0, 1, 2, 3, 4}


def test_AC_A10_no_deadlock_and_the_cap_is_only_a_safety_net() -> None:
    rng = Rng(2)
    for seed in range(12):
        state = RULES.new(AdventureOptions(require_mission_card_to_request=True), seed, players=5)
        while RULES.to_act(state) is not None:
            seat = state.to_move
            legal = RULES.legal_actions(state, seat)
            assert legal  # someone always has a move, even if it is PassTurn
            RULES.apply_unchecked(state, seat, rng.choice(legal))
        assert not state.ended_by_cap and all(s >= 0 for s in state.claimed_by)


def test_AC_A11_next_after_failed_request_left_or_asked_player() -> None:
    state, _ = play(new(), (0, RequestCard(2, "P5")), (0, SkipPeek()))
    assert state.to_move == 1
    asked = new(next_after_failed_request="asked_player")
    asked, _ = play(asked, (0, RequestCard(2, "P5")), (0, Peek(3)))
    assert asked.to_move == 2
    missed, _ = play(new(next_after_failed_request="asked_player"), (0, DeclareCard(0, "P5")))
    assert missed.to_move == 1  # a missed declaration always passes left


def test_AC_A12_forbid_empty_targets() -> None:
    steps = [(0, RequestCard(1, c)) for c in ["M1", "P2", "A2", "S3"]]
    state, _ = play(new(), *steps)
    assert state.hands[1] == []
    play(state, (0, RequestCard(1, "P6")))  # allowed by default, and always refused
    strict, _ = play(new(forbid_empty_targets=True), *steps)
    err = _refused(strict, 0, RequestCard(1, "P6"), "empty_target")
    assert err.rule == "AC-A12"
    assert not any(
        isinstance(a, RequestCard) and a.target == 1 for a in RULES.legal_actions(strict, 0)
    )


def test_AC_A13_declarations_of_own_or_discarded_cards() -> None:
    err = _refused(new(), 0, DeclareCard(0, "S1"), "card_in_own_hand")
    assert err.rule == "AC-A13"
    loose, events = play(new(allow_any_declaration=True), (0, DeclareCard(0, "S1")))
    assert events[0].correct is False and loose.to_move == 1  # type: ignore[attr-defined]


def test_AC_A14_identity_notation_round_trips() -> None:
    assert parse_identity("p4") == "P4" and parse_identity(" m6 ") == "M6"
    assert RequestCard(1, "a2") == RequestCard(1, "A2")
    for bad in ("P7", "X1", "", "P", 4):
        with pytest.raises(CardCodeError):
            parse_identity(bad)  # type: ignore[arg-type]
    assert card_info("P4").colour == "black" and card_info("M1").colour == "yellow"


def test_AC_A15_slots_are_stable() -> None:
    state, _ = play(new(), (0, DeclareCard(2, "A5")))
    assert state.table[2] is None and len(state.table) == 8
    assert state.table[3] == "S6"
    assert RULES.view(state, 1).table == (True, True, False, True, True, True, True, True)
    _refused(state, 0, DeclareCard(2, "A5"), "empty_slot")
    _refused(state, 0, DeclareCard(8, "A5"), "no_such_slot")


def test_AC_A16_missions_pair_the_shuffled_packs_position_by_position() -> None:
    state = RULES.new(AdventureOptions(), seed=99, players=3)
    rng = Rng(99)
    packs = []
    for p in "SPAM":
        pack = [f"{p}{k}" for k in range(1, 7)]
        rng.shuffle(pack)
        packs.append(pack)
    assert [list(g) for g in state.missions] == [[pk[m] for pk in packs] for m in range(6)]
    pairs = set()
    for seed in range(400):
        for group in RULES.new(None, seed).missions:
            pairs.add((group[0], group[3]))
    assert len(pairs) == 36  # every ship has met every marvel
    pinned = RULES.new(None, 0, pinned={"missions": PLAIN_MISSIONS})
    assert [list(g) for g in pinned.missions] == PLAIN_MISSIONS


def test_options_are_frozen_keyword_only_and_validated() -> None:
    opts = AdventureOptions()
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.auto_claim = False  # type: ignore[misc]
    with pytest.raises(TypeError):
        AdventureOptions(True)  # type: ignore[misc]
    with pytest.raises(OptionsError, match="max_turns"):
        AdventureOptions(max_turns=0)
    with pytest.raises(OptionsError, match="unknown option"):
        options_from_json(AdventureOptions, {"houserule": 1})
