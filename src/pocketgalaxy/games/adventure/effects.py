"""What a checked Adventure Cards action does to the state (rules.md section 3).

`act` carries out one action in place. With an `out` list it appends the action's events to it
and to the state's turn log (`log_cur`, `log_prev`: what views show as the recent log). With
`out=None` it is quiet: the same state changes, in the same order, with no event built and no
log kept (a quiet action leaves both logs empty). Random playouts, simulations and search use the
quiet form; everything a person or a record sees uses the other one. One body serves both, so
the two cannot drift apart (tests/games/adventure/test_adventure_quiet.py plays both side by side).
"""

from __future__ import annotations

from typing import Final

from pocketgalaxy.core.errors import MalformedActionError
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.games.adventure.actions import (
    ClaimMission,
    DeclareCard,
    PassTurn,
    Peek,
    RequestCard,
    SkipPeek,
)
from pocketgalaxy.games.adventure.events import (
    CardDeclared,
    GameEnded,
    MissionClaimed,
    PeekSeen,
    PeekSkipped,
    RequestGranted,
    RequestRefused,
    SlotPeeked,
    TurnPassed,
)
from pocketgalaxy.games.adventure.identities import CARD_INDEX, number_of
from pocketgalaxy.games.adventure.state import AdventureState

_ANY_FOUR: Final = sum(4 << 3 * m for m in range(6))
"""In `claims`' packed counts, the bit that is set when a mission's count reaches 4."""

Sink = list[Event] | None
"""Where an effect's events go: a list, or None for a quiet effect (no events, no log)."""


def act(state: AdventureState, seat: int, action: Action, out: Sink) -> None:
    """Carry out a checked action of `seat` in place."""
    if out is None and (state.log_cur or state.log_prev):  # quiet: no log kept
        state.log_cur = []  # fresh lists: a later loud action appends to them
        state.log_prev = []
    if isinstance(action, RequestCard):
        _request(state, seat, action.target, action.card, out)
    elif isinstance(action, DeclareCard):
        _declare(state, seat, action.slot, action.card, out)
    elif isinstance(action, Peek):
        _peek(state, seat, action.slot, out)
    elif isinstance(action, SkipPeek):
        if out is not None:
            _emit(state, out, PeekSkipped(seat))
        _pass_turn(state, seat, state.next_seat, "request_refused", out)
    elif isinstance(action, ClaimMission):
        _claim(state, seat, action.mission, out)
    elif isinstance(action, PassTurn):
        _pass_turn(state, seat, (seat + 1) % state.players, "no_legal_action", out)
    else:  # check() stops these before they get here
        raise MalformedActionError(action, "not an Adventure Cards action")


def _emit(state: AdventureState, out: list[Event], event: Event) -> None:
    out.append(event)
    state.log_cur.append(event)


def _request(state: AdventureState, seat: int, target: int, card: str, out: Sink) -> None:
    bit = 1 << CARD_INDEX[card]
    state.lacks[target] |= bit  # either way, everyone now knows the target lacks it
    held = state.hands[target]
    if card in held:
        held.remove(card)
        state.hands[seat].append(card)
        state.lacks[seat] &= ~bit
        if out is not None:
            _emit(state, out, RequestGranted(seat, target, card))
        claims(state, seat, out)
        return
    if out is not None:
        _emit(state, out, RequestRefused(seat, target, card))
    flow = state.flow
    nxt = target if flow.next_is_asked else seat + 1
    nxt %= state.players
    if flow.peek_after_refusal and any(c is not None for c in state.table):
        state.phase = "peek"
        state.next_seat = nxt
        return
    _pass_turn(state, seat, nxt, "request_refused", out)


def _peek(state: AdventureState, seat: int, slot: int, out: Sink) -> None:
    """AC-A3: the slot is public, the face only for the peeker; then the turn passes."""
    face = state.table[slot]
    assert face is not None
    state.seen[seat][slot] = face
    if out is not None:
        _emit(state, out, SlotPeeked(seat, slot))
        _emit(state, out, PeekSeen(seat, slot, face, (seat,)))
    _pass_turn(state, seat, state.next_seat, "request_refused", out)


def _declare(state: AdventureState, seat: int, slot: int, card: str, out: Sink) -> None:
    face = state.table[slot]
    assert face is not None
    correct = face == card
    if out is not None:
        _emit(state, out, CardDeclared(seat, slot, card, correct, face))
    if correct:
        state.table[slot] = None
        for row in state.seen:
            row[slot] = None
        state.hands[seat].append(face)
        state.lacks[seat] &= ~(1 << CARD_INDEX[face])
        claims(state, seat, out)
        return
    for row in state.seen:  # turned face up: everyone saw it (AC-A4)
        row[slot] = face
    _pass_turn(state, seat, (seat + 1) % state.players, "declaration_missed", out)


def claims(state: AdventureState, seat: int, out: Sink) -> None:
    """AC-R5: with auto_claim, claim every solved mission of `seat` now (and maybe end)."""
    if not state.flow.auto_claim or state.phase == "over":
        return
    hand = state.hands[seat]
    if len(hand) < 4:
        return
    mission_index = state.mission_index
    counts = 0  # 3 bits per mission: a mission has 4 cards, so a count is at most 4
    for c in hand:
        counts += 1 << 3 * mission_index[c]
    if not counts & _ANY_FOUR:
        return
    for m in range(len(state.missions)):  # 4 of one mission in hand: it is solved
        if counts >> 3 * m & 7 == 4 and state.claimed_by[m] < 0:
            _claim(state, seat, m, out)
            if state.phase == "over":
                break


def _claim(state: AdventureState, seat: int, mission: int, out: Sink) -> None:
    group = state.missions[mission]
    hand = state.hands[seat]
    for c in group:
        hand.remove(c)
    state.discard.extend(group)
    state.claimed_by[mission] = seat
    if out is not None:
        _emit(state, out, MissionClaimed(seat, mission, tuple(group)))
    if all(s >= 0 for s in state.claimed_by):
        _end(state, "all_missions_claimed", False, out)


def _pass_turn(
    state: AdventureState, from_seat: int, to_seat: int, reason: str, out: Sink
) -> None:
    if state.turn >= state.flow.max_turns:
        _end(state, "turn_cap", True, out)
        return
    state.turn += 1
    state.to_move = to_seat
    state.phase = "act"
    state.next_seat = -1
    if out is not None:
        event = TurnPassed(from_seat, to_seat, reason)
        state.log_prev = state.log_cur
        state.log_cur = [event]
        out.append(event)
    claims(state, to_seat, out)


def _end(state: AdventureState, reason: str, by_cap: bool, out: Sink) -> None:
    state.phase = "over"
    state.next_seat = -1
    winners = winners_of(state)
    state.winners = winners
    state.end_reason = reason
    state.ended_by_cap = by_cap
    if out is not None:
        _emit(state, out, GameEnded(winners, reason, by_cap))


def winners_of(state: AdventureState) -> tuple[int, ...]:
    """AC-R12 most missions; AC-R13 tie-break by card numbers; AC-A7 options for the rest."""
    opts = state.options
    won: list[list[tuple[str, ...]]] = [[] for _ in range(state.players)]
    for m, seat in enumerate(state.claimed_by):
        if seat >= 0:
            won[seat].append(state.missions[m])
    seats = list(range(state.players))

    def best(key: list[int]) -> None:
        top = max(key[s] for s in seats)
        seats[:] = [s for s in seats if key[s] == top]

    best([len(w) for w in won])
    marvels = [sum(number_of(g[3]) for g in w) for w in won]
    if len(seats) > 1:
        if opts.tiebreak_scope == "marvels_only":
            best(marvels)
        else:
            best([sum(number_of(c) for g in w for c in g) for w in won])
    if len(seats) > 1 and opts.final_tie == "marvel_sum":
        best(marvels)
    return tuple(seats)
