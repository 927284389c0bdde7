"""One test per numbered rule AC-R1..AC-R14 (docs/rules/adventure.md), on pinned deals."""

from __future__ import annotations

import pytest
from adventure_testkit import FOUR_PLAYER_DEAL, PLAIN_MISSIONS, RULES, new, play, types_of

from pocketgalaxy.core.errors import IllegalActionError
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.adventure import (
    CARDS,
    AdventureOptions,
    DeclareCard,
    PassTurn,
    Peek,
    RequestCard,
)
from pocketgalaxy.games.adventure.events import (
    CardDeclared,
    CardsDealt,
    GameEnded,
    MissionClaimed,
    MissionsLaid,
    PeekSeen,
    RequestGranted,
    RequestRefused,
    SlotPeeked,
    TurnPassed,
)

# Two players, 8 + 8 + 8: seat 0 holds missions 0 and 1, seat 1 missions 2 and 3, and the table
# missions 4 and 5 in slot order.
TWO_PLAYER_DEAL = {
    "missions": PLAIN_MISSIONS,
    "hands": [
        PLAIN_MISSIONS[0] + PLAIN_MISSIONS[1],
        PLAIN_MISSIONS[2] + PLAIN_MISSIONS[3],
    ],
    "table": PLAIN_MISSIONS[4] + PLAIN_MISSIONS[5],
    "first_player": 0,
}


def test_AC_R1_six_missions_one_card_of_each_pack_all_public() -> None:
    state = RULES.new(AdventureOptions(), seed=11, players=3)
    assert len(state.missions) == 6
    for group in state.missions:
        assert [c[0] for c in group] == ["S", "P", "A", "M"]
    assert sorted(c for g in state.missions for c in g) == sorted(CARDS)
    laid = [e for e in state.log_cur if isinstance(e, MissionsLaid)]
    assert laid and laid[0].audience is None
    for seat in (0, 1, 2, None):
        assert RULES.view(state, seat).missions == state.missions


@pytest.mark.parametrize(("players", "each", "table"), [(2, 8, 8), (3, 6, 6), (4, 4, 8), (5, 4, 4)])
def test_AC_R2_printed_deal_private_hands_face_down_table(
    players: int, each: int, table: int
) -> None:
    state = RULES.new(AdventureOptions(), seed=3, players=players)
    assert [len(h) for h in state.hands] == [each] * players
    assert len(state.table) == table
    placed = [c for h in state.hands for c in h] + [c for c in state.table if c]
    assert sorted(placed) == sorted(CARDS)
    dealt = [e for e in state.log_cur if isinstance(e, CardsDealt)]
    assert [(e.seat, e.audience) for e in dealt] == [(s, (s,)) for s in range(players)]
    view = RULES.view(state, 0)
    assert view.table == (True,) * table and view.known == (None,) * table


def test_AC_R3_first_player_is_seeded_and_play_passes_left() -> None:
    firsts = {RULES.new(AdventureOptions(), seed=s, players=4).to_move for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    again = [RULES.new(AdventureOptions(), seed=s, players=4).to_move for s in range(10)]
    assert again == [RULES.new(AdventureOptions(), seed=s, players=4).to_move for s in range(10)]
    pinned = dict(FOUR_PLAYER_DEAL, first_player=3)
    state, events = play(new(pinned), (3, DeclareCard(0, "P5")))  # a miss: slot 0 is M4
    assert state.to_move == 0
    assert TurnPassed(3, 0, "declaration_missed") in events


def test_AC_R4_holding_the_four_test_cards_solves_a_mission() -> None:
    state = new()
    assert RULES.outcome(state) is None and state.claimed_by[0] == -1  # S1 P1 A1 only
    state, events = play(state, (0, RequestCard(1, "M1")))
    assert MissionClaimed(0, 0, ("S1", "P1", "A1", "M1")) in events
    assert state.claimed_by[0] == 0


def test_AC_R5_claims_at_turn_start_and_after_each_gain_cards_discarded() -> None:
    pinned = {
        **FOUR_PLAYER_DEAL,
        "hands": [
            ["S2", "P2", "A2", "M2"],  # seat 0: mission 1, dealt complete
            ["S1", "P1", "A1", "S3"],
            ["M1", "P3", "A3", "S4"],
            ["M3", "P4", "A4", "S5"],
        ],
        "first_player": 3,
    }
    state = new(pinned)
    assert state.claimed_by[1] == -1  # not seat 0's turn: no claim yet
    state, events = play(state, (3, DeclareCard(0, "P5")))  # seat 3 misses; seat 0's turn starts
    assert types_of(events) == ["CardDeclared", "TurnPassed", "MissionClaimed"]
    assert state.claimed_by[1] == 0 and state.hands[0] == []
    assert sorted(state.discard) == ["A2", "M2", "P2", "S2"]
    assert state.to_move == 0 and state.phase == "act"  # the turn goes on (AC-A6)


def test_AC_R6_the_sixth_claim_ends_the_game_at_once() -> None:
    state = RULES.new(AdventureOptions(), seed=1, players=2, pinned=TWO_PLAYER_DEAL)
    assert state.claimed_by[:2] == [0, 0]  # seat 0 starts holding two solved missions
    claims = [e for e in RULES.opening_events(state) if isinstance(e, MissionClaimed)]
    assert [e.mission for e in claims] == [0, 1]  # each announced once in the deal's events
    state, _ = play(state, (0, DeclareCard(0, "P5")), (1, DeclareCard(1, "S5")))
    assert state.claimed_by[2:4] == [1, 1]
    steps = [(0, DeclareCard(s, face)) for s, face in enumerate(TWO_PLAYER_DEAL["table"])]
    state, events = play(state, *steps)
    assert events[-1] == GameEnded((0,), "all_missions_claimed", False)
    assert not any(isinstance(e, TurnPassed) for e in events)
    assert RULES.to_act(state) is None and RULES.legal_actions(state, 0) == []
    with pytest.raises(IllegalActionError, match="game_over"):
        RULES.check(state, 0, RequestCard(1, "S1"))


def test_AC_R7_a_turn_is_a_chain_of_successes_ended_by_a_failure() -> None:
    state, _ = play(new(), (0, RequestCard(3, "P4")), (0, DeclareCard(7, "M6")))
    assert state.to_move == 0 and state.phase == "act"
    state, events = play(state, (0, DeclareCard(6, "S6")))  # slot 6 is A6
    assert state.to_move == 1 and isinstance(events[-1], TurnPassed)


def test_AC_R8_request_granted_or_refused_then_peek_then_left() -> None:
    state, events = play(new(), (0, RequestCard(2, "P3")))
    assert events == [RequestGranted(0, 2, "P3")] and events[0].audience is None
    assert "P3" in state.hands[0] and "P3" not in state.hands[2]
    state, events = play(state, (0, RequestCard(1, "P5")))  # P5 is on the table
    assert events == [RequestRefused(0, 1, "P5")]
    assert state.phase == "peek" and state.to_move == 0
    state, events = play(state, (0, Peek(1)))
    assert events[:2] == [SlotPeeked(0, 1), PeekSeen(0, 1, "P5", (0,))]
    assert events[0].audience is None and events[1].audience == (0,)
    assert state.to_move == 1 and state.phase == "act"
    assert RULES.view(state, 0).known[1] == "P5" and RULES.view(state, 1).known[1] is None


def test_AC_R9_declare_hit_takes_card_miss_shows_everyone_same_slot() -> None:
    state, events = play(new(), (0, DeclareCard(3, "S6")))
    assert events == [CardDeclared(0, 3, "S6", True, "S6")]
    assert "S6" in state.hands[0] and state.table[3] is None and state.to_move == 0
    state, events = play(state, (0, DeclareCard(0, "P5")))
    assert events[0] == CardDeclared(0, 0, "P5", False, "M4")
    assert state.table[0] == "M4" and state.to_move == 1 and state.phase == "act"
    for seat in (0, 1, 2, 3, None):
        assert RULES.view(state, seat).known[0] == "M4"


def test_AC_R10_empty_hand_still_plays_and_pass_only_without_legal_action() -> None:
    state = new(
        {
            "missions": PLAIN_MISSIONS,
            "hands": [
                ["S1", "S2", "S3", "S4", "S5", "S6", "P1", "P2"],
                ["A1", "A2", "A3", "A4", "A5", "A6", "M1", "M2"],
                ["P3", "P4", "P5", "P6", "M3", "M4", "M5", "M6"],
            ],
            "table": [],
            "first_player": 0,
        },
        players=3,
        deal="even",
        require_mission_card_to_request=True,
    )
    steps = [(0, RequestCard(1, c)) for c in ["A1", "A2", "A3", "A4", "A5", "A6", "M1", "M2"]]
    state, _ = play(state, *steps)
    assert state.hands[1] == [] and state.claimed_by[:2] == [0, 0]
    state, _ = play(state, (0, RequestCard(1, "P3")))  # refused; empty table: no peek
    assert state.to_move == 1
    assert RULES.legal_actions(state, 1) == [PassTurn()]
    state, events = play(state, (1, PassTurn()))
    assert events[0] == TurnPassed(1, 2, "no_legal_action")
    with pytest.raises(IllegalActionError, match="has_legal_action"):
        RULES.check(state, 2, PassTurn())
    # Without AC-A1 an empty-handed player may still request and declare.
    plain = new()
    plain, _ = play(plain, *[(0, RequestCard(1, c)) for c in ["M1", "P2", "A2", "S3"]])
    plain, _ = play(plain, (0, DeclareCard(0, "P6")), (1, RequestCard(2, "M2")))
    assert plain.to_move == 1 and plain.hands[1] == ["M2"]


def test_AC_R11_cards_move_only_hand_to_hand_slot_to_hand_hand_to_discard() -> None:
    state = new()

    def where(s: object) -> dict[str, str]:
        return {c: state_holder(s, c) for c in CARDS}

    def state_holder(s: object, c: str) -> str:
        return s.holder_of(c)  # type: ignore[attr-defined]

    before = where(state)
    after_state, _ = play(state, (0, RequestCard(2, "P3")))
    after = where(after_state)
    assert {c for c in CARDS if before[c] != after[c]} == {"P3"}
    assert (before["P3"], after["P3"]) == ("hand:2", "hand:0")
    before, (after_state, _) = after, play(after_state, (0, DeclareCard(4, "M5")))
    after = where(after_state)
    assert {c for c in CARDS if before[c] != after[c]} == {"M5"}
    assert (before["M5"], after["M5"]) == ("slot:4", "hand:0")
    before, (after_state, _) = after, play(after_state, (0, RequestCard(1, "M1")))
    after = where(after_state)
    changed = {c for c in CARDS if before[c] != after[c]}
    assert changed == {"S1", "P1", "A1", "M1"}
    assert all(after[c] == "discard" for c in changed)


def test_AC_R12_most_missions_wins() -> None:
    state = RULES.new(AdventureOptions(), seed=1, players=2, pinned=TWO_PLAYER_DEAL)
    state, _ = play(state, (0, DeclareCard(0, "P5")), (1, DeclareCard(1, "S5")))
    steps = [(0, DeclareCard(s, face)) for s, face in enumerate(TWO_PLAYER_DEAL["table"])]
    state, _ = play(state, *steps)
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.scores == (4.0, 2.0)


def _tie_game(missions: list[list[str]], **options: object) -> tuple[int, ...]:
    """Seat 0 is dealt mission 0, seat 1 mission 1; both claim; the cap ends it 1-1."""
    rest = [g[i] for i in range(4) for g in missions[2:]]  # ships, planets, aliens, marvels
    pinned = {
        "missions": missions,
        "hands": [missions[0] + rest[:4], missions[1] + rest[4:8]],
        "table": rest[8:],
        "first_player": 0,
    }
    opts = AdventureOptions(max_turns=2, **options)  # type: ignore[arg-type]
    state = RULES.new(opts, 0, players=2, pinned=pinned)
    miss = rest[8]  # the face of slot 0, never of slot 1
    state, _ = play(state, (0, DeclareCard(1, miss)))
    state, _ = play(state, (1, DeclareCard(1, miss)))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.scores == (1.0, 1.0) and outcome.ended_by_cap
    return outcome.winners


def test_AC_R13_tie_broken_by_the_sum_of_all_claimed_mission_card_numbers() -> None:
    missions = [list(g) for g in PLAIN_MISSIONS]
    missions[0], missions[1] = PLAIN_MISSIONS[0], PLAIN_MISSIONS[5]  # sums 4 and 24
    missions[5] = PLAIN_MISSIONS[1]
    assert _tie_game(missions) == (1,)
    missions[0], missions[1] = PLAIN_MISSIONS[5], PLAIN_MISSIONS[0]
    missions[5] = PLAIN_MISSIONS[1]
    assert _tie_game(missions) == (0,)


def test_AC_R14_turn_cap_ends_and_scores_the_game() -> None:
    state = new(max_turns=3)
    state, _ = play(state, (0, DeclareCard(0, "P5")), (1, DeclareCard(0, "P5")))
    assert RULES.outcome(state) is None
    state, events = play(state, (2, RequestCard(0, "S1")), (2, DeclareCard(0, "P5")))
    assert events[-1] == GameEnded((0, 1, 2, 3), "turn_cap", True)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.ended_by_cap and outcome.reason == "turn_cap"
    assert state.turn == 3


def test_AC_R14_one_turn_has_at_most_24_successes() -> None:
    rng = Rng(5)
    for seed in range(20):
        state = RULES.new(AdventureOptions(), seed=seed, players=4)
        streak = 0
        while RULES.to_act(state) is not None:
            seat = state.to_move
            before = state.turn
            RULES.apply_unchecked(state, seat, rng.choice(RULES.legal_actions(state, seat)))
            streak = 0 if state.turn != before else streak + 1
            assert streak <= 24 + 1  # 24 gains, plus at most one peek decision
