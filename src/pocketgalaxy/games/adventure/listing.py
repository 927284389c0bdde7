"""The legal actions of Adventure Cards, listed fast (rules.md section 3).

`legal_list` is what `AdventureRules.legal_actions` returns. `_build_candidates` is the readable
definition, built from the same predicates as the refusals in `legality.py`; the fast path must
give the same actions in the same order (tests/agents/test_ismcts_rules_speed.py holds them
equal). Order: requests by target then card, then declarations by slot then card, then claims.

Why a memo: a random playout or a search spends most of its time listing. Under the options that
do not narrow requests (the defaults), the whole list depends only on the player count, the seat,
the cards it cannot name (own hand and discard), the occupied slots and
`allow_any_declaration`. Those fit in one integer, the key of `_CANDIDATES`, whose values are
tuples of shared action objects: a listing is then one dictionary look-up and one list copy.
(About 40% of listings in a random playout miss, since every card that changes hands changes
two keys; a small table keeps the garbage collector's full passes short.)
"""

from __future__ import annotations

from typing import Final

from pocketgalaxy.core.game import Action
from pocketgalaxy.games.adventure.actions import (
    ClaimMission,
    DeclareCard,
    PassTurn,
    Peek,
    RequestCard,
    SkipPeek,
)
from pocketgalaxy.games.adventure.identities import CARD_INDEX, CARDS
from pocketgalaxy.games.adventure.state import AdventureState

# Actions are immutable, so every RequestCard / DeclareCard is built once and shared.
# (Final: compiled with mypyc, these are C statics rather than module-dict look-ups.)
_REQUESTS: Final = {(t, c): RequestCard(t, c) for t in range(5) for c in CARDS}
_DECLARES: Final = {(s, c): DeclareCard(s, c) for s in range(24) for c in CARDS}
_PEEKS: Final = {s: Peek(s) for s in range(24)}
_SKIP: Final = SkipPeek()
_PASS: Final = PassTurn()
_BIT: Final = {c: 1 << i for i, c in enumerate(CARDS)}
_REQUEST_ROWS: Final = [[_REQUESTS[t, c] for c in CARDS] for t in range(5)]
_DECLARE_ROWS: Final = [[_DECLARES[s, c] for c in CARDS] for s in range(24)]

# Memo tables (see the module docstring). Keys repeat heavily within a game, rarely across
# deals, so a full table is simply emptied.
_CANDIDATES: Final[dict[int, tuple[Action, ...]]] = {}
_PEEK_LISTS: Final[dict[int, tuple[Action, ...]]] = {}
_MEMO_LIMIT = 2048  # about 1.5 MB of shared tuples at most (not Final: a test lowers it)


def legal_list(state: AdventureState, seat: int) -> list[Action]:
    """Every action `check` accepts for `seat` now (empty when it is not its turn)."""
    if state.phase == "over" or seat != state.to_move:
        return []
    table = state.table
    occupied = 0
    slot = 0
    for face in table:
        if face is not None:
            occupied |= 1 << slot
        slot += 1
    if state.phase == "peek":
        peeks = _PEEK_LISTS.get(occupied)
        if peeks is None:
            peeks = _PEEK_LISTS[occupied] = (
                *(_PEEKS[s] for s, c in enumerate(table) if c is not None),
                _SKIP,
            )
        return list(peeks)
    flag = state.flow.listing_key
    if flag < 0:  # options that narrow the choice: built afresh
        out = _build_candidates(state, seat)
        if not out:
            out.append(_PASS)
        return out
    gone = 0
    for c in state.hands[seat]:
        gone |= _BIT[c]
    m = 0
    for holder in state.claimed_by:  # the discard is the claimed missions' cards (AC-R5)
        if holder >= 0:
            gone |= state.mission_bits[m]
        m += 1
    key = gone | occupied << 24 | seat << 48 | state.players << 51 | flag
    got = _CANDIDATES.get(key)
    if got is None:
        if len(_CANDIDATES) >= _MEMO_LIMIT:
            _CANDIDATES.clear()
        got = _CANDIDATES[key] = _plain_list(state.players, seat, gone, occupied, flag != 0)
    return list(got)


def act_candidates(state: AdventureState, seat: int) -> list[Action]:
    """Every legal phase-"act" action except PassTurn (for the PassTurn refusal)."""
    legal = legal_list(state, seat)
    return [] if legal == [_PASS] else legal


def _plain_list(
    players: int, seat: int, gone: int, occupied: int, any_declaration: bool
) -> tuple[Action, ...]:
    """The list of `_build_candidates` under the plain options, from the bit masks."""
    askable = [i for i in range(len(CARDS)) if not gone >> i & 1]
    nameable = list(range(len(CARDS))) if any_declaration else askable
    out: list[Action] = []
    for target in range(players):  # plain loops: compiled, each pick is a C list read
        if target != seat:
            row = _REQUEST_ROWS[target]
            for i in askable:
                out.append(row[i])
    for slot in range(24):
        if occupied >> slot & 1:
            declares = _DECLARE_ROWS[slot]
            for i in nameable:
                out.append(declares[i])
    if not out:
        out.append(_PASS)
    return tuple(out)


def holds_mission_mate(state: AdventureState, seat: int, card: str) -> bool:
    """Whether `seat` holds another card of `card`'s mission (AC-A1)."""
    hand = state.hands[seat]
    for group in state.missions:
        if card in group:
            return any(c in hand for c in group)
    return False


def _build_candidates(state: AdventureState, seat: int) -> list[Action]:
    """Every legal phase-"act" action except PassTurn, built from the same predicates."""
    out: list[Action] = []
    opts = state.options
    hand = state.hands[seat]
    gone = set(hand)
    gone.update(state.discard)
    askable = [c for c in CARDS if c not in gone]
    if opts.require_mission_card_to_request:
        askable = [c for c in askable if holds_mission_mate(state, seat, c)]
    for target in range(state.players):
        if target == seat or (opts.forbid_empty_targets and not state.hands[target]):
            continue
        lacks = state.lacks[target] if opts.forbid_known_misses else 0
        out.extend(
            _REQUESTS[target, c] for c in askable if not lacks >> CARD_INDEX[c] & 1
        )
    nameable = CARDS if opts.allow_any_declaration else [c for c in CARDS if c not in gone]
    for slot, face in enumerate(state.table):
        if face is not None:
            out.extend(_DECLARES[slot, c] for c in nameable)
    if not opts.auto_claim:  # AC-A5: a solved, unclaimed mission may be claimed
        out.extend(
            ClaimMission(m)
            for m, group in enumerate(state.missions)
            if state.claimed_by[m] < 0 and all(c in hand for c in group)
        )
    return out
