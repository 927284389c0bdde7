"""The fast paths of the Adventure Cards rules that search relies on give the same answers as
the readable definitions: memoised legal lists, mask-built candidates and peek lists, and the
claim check by mission counts."""

from __future__ import annotations

import pytest

from pocketgalaxy.core.game import Event
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.adventure import (
    AdventureOptions,
    AdventureRules,
    AdventureState,
    Peek,
    effects,
)
from pocketgalaxy.games.adventure import listing as adventure_rules
from pocketgalaxy.games.adventure.actions import SkipPeek

RULES = AdventureRules()


def _states(players: int, seed: int, opts: AdventureOptions) -> list[AdventureState]:
    state = RULES.new(opts, seed, players=players)
    rng = Rng(seed)
    out = []
    while RULES.to_act(state) is not None and len(out) < 400:
        out.append(state.clone())
        seat = state.to_move
        RULES.apply_unchecked(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    return out


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("allow_any", [False, True])
def test_memoised_legal_lists_equal_the_readable_definition(players: int, allow_any: bool) -> None:
    opts = AdventureOptions(allow_any_declaration=allow_any)
    adventure_rules._CANDIDATES.clear()
    for state in _states(players, 7 + players, opts):
        seat = state.to_move
        if state.phase == "act":
            slow = adventure_rules._build_candidates(state, seat) or [adventure_rules._PASS]
            assert RULES.legal_actions(state, seat) == slow
            assert RULES.legal_actions(state, seat) == slow  # second time from the memo
            for a in slow[:: max(1, len(slow) // 12)]:
                assert RULES.can(state, seat, a)
        elif state.phase == "peek":
            slots = [s for s, c in enumerate(state.table) if c is not None]
            assert RULES.legal_actions(state, seat) == [*map(Peek, slots), SkipPeek()]


def test_the_memo_is_bounded() -> None:
    adventure_rules._CANDIDATES.clear()
    limit = adventure_rules._MEMO_LIMIT
    try:
        adventure_rules._MEMO_LIMIT = 5
        for state in _states(3, 2, AdventureOptions())[:60]:
            if state.phase == "act":
                RULES.legal_actions(state, state.to_move)
            assert len(adventure_rules._CANDIDATES) <= 5
    finally:
        adventure_rules._MEMO_LIMIT = limit
        adventure_rules._CANDIDATES.clear()


def test_claims_by_mission_counts_claim_every_solved_mission_in_mission_order() -> None:
    missions = [[f"S{k}", f"P{k}", f"A{k}", f"M{k}"] for k in range(1, 7)]
    pinned = {
        "missions": missions,
        "hands": [missions[2] + missions[0], ["S2", "P2", "A2", "S4", "P4", "A4", "S5", "P5"]],
        "table": ["M2", "M4", "M5", "S6", "P6", "A6", "M6", "A5"],
        "first_player": 0,
    }
    state = RULES.new(AdventureOptions(), 1, players=2, pinned=pinned)
    assert state.hands[0] == []
    assert state.claimed_by == [0, -1, 0, -1, -1, -1]
    # three of a mission is not a claim
    state.hands[1].append("M2")  # test set-up: give seat 1 the whole of mission 1
    state.table[0] = None
    events: list[Event] = []
    effects.claims(state, 1, events)
    assert [e.mission for e in events] == [1]  # type: ignore[attr-defined]
