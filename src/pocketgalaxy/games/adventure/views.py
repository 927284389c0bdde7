"""What one seat (or a watcher) may know of an Adventure Cards game: `AdventureView`.

`build_view` is the one place a state becomes something a seat sees. It copies only: the seat's
own hand, hand sizes, the public mission layout and claims, which table slots are occupied,
the faces this seat has seen that are still true, scores, the recent events this seat may see,
a summary of its legal actions and the outcome. No other hand, no unseen face, no rng state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pocketgalaxy.core.game import Action, Event, Outcome
from pocketgalaxy.games.adventure.actions import (
    ClaimMission,
    DeclareCard,
    Peek,
    RequestCard,
)
from pocketgalaxy.games.adventure.identities import sort_cards
from pocketgalaxy.games.adventure.state import AdventureState


@dataclass(frozen=True)
class LegalSummary:
    """The legal actions of the seat to act, summarised for shells (empty for everyone else)."""

    kinds: tuple[str, ...] = ()
    request_targets: tuple[int, ...] = ()
    request_cards: tuple[str, ...] = ()
    declare_slots: tuple[int, ...] = ()
    declare_cards: tuple[str, ...] = ()
    peek_slots: tuple[int, ...] = ()
    claimable_missions: tuple[int, ...] = ()

    @classmethod
    def of(cls, legal: Sequence[Action]) -> LegalSummary:
        kinds: list[str] = []
        targets: set[int] = set()
        req: set[str] = set()
        slots: set[int] = set()
        dec: set[str] = set()
        peeks: set[int] = set()
        claims: set[int] = set()
        for a in legal:
            name = type(a).__name__
            if name not in kinds:
                kinds.append(name)
            if isinstance(a, RequestCard):
                targets.add(a.target)
                req.add(a.card)
            elif isinstance(a, DeclareCard):
                slots.add(a.slot)
                dec.add(a.card)
            elif isinstance(a, Peek):
                peeks.add(a.slot)
            elif isinstance(a, ClaimMission):
                claims.add(a.mission)
        return cls(
            kinds=tuple(kinds),
            request_targets=tuple(sorted(targets)),
            request_cards=tuple(sort_cards(req)),
            declare_slots=tuple(sorted(slots)),
            declare_cards=tuple(sort_cards(dec)),
            peek_slots=tuple(sorted(peeks)),
            claimable_missions=tuple(sorted(claims)),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "kinds": list(self.kinds),
            "request_targets": list(self.request_targets),
            "request_cards": list(self.request_cards),
            "declare_slots": list(self.declare_slots),
            "declare_cards": list(self.declare_cards),
            "peek_slots": list(self.peek_slots),
            "claimable_missions": list(self.claimable_missions),
        }


@dataclass(frozen=True)
class AdventureView:
    """One seat's view (seat None: a watcher). Equal views mean the seat cannot tell states apart.

    - `hand`: own test-cards in canonical order (empty for watchers);
    - `missions`: 6 groups (ship, planet, alien, marvel), public; `claimed_by[m]` a seat or None;
    - `table[slot]`: True when the slot holds a face-down card (slots are stable, AC-A15);
    - `known[slot]`: the face this seat has seen there and that is still true, else None;
    - `recent`: this seat's visible events of the previous and the current turn.
    """

    seat: int | None
    players: int
    to_act: int | None
    phase: str
    turn: int
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    missions: tuple[tuple[str, ...], ...]
    claimed_by: tuple[int | None, ...]
    table: tuple[bool, ...]
    known: tuple[str | None, ...]
    discard: tuple[str, ...]
    scores: tuple[int, ...]
    recent: tuple[Event, ...]
    legal: LegalSummary = field(default_factory=LegalSummary)
    outcome: Outcome | None = None

    @property
    def occupied_slots(self) -> tuple[int, ...]:
        return tuple(i for i, full in enumerate(self.table) if full)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "adventure",
            "seat": self.seat,
            "players": self.players,
            "to_act": self.to_act,
            "phase": self.phase,
            "turn": self.turn,
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "missions": [list(m) for m in self.missions],
            "claimed_by": list(self.claimed_by),
            "table": list(self.table),
            "known": {str(i): c for i, c in enumerate(self.known) if c is not None},
            "discard": list(self.discard),
            "scores": list(self.scores),
            "recent": [e.to_json() for e in self.recent],
            "legal": self.legal.to_json(),
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }


def build_view(
    state: AdventureState, seat: int | None, legal: Sequence[Action], outcome: Outcome | None
) -> AdventureView:
    """The view of `seat` (None: a watcher). `legal` are that seat's legal actions now."""
    row = state.seen[state.players if seat is None else seat]
    table = state.table
    recent = tuple(
        e for e in (*state.log_prev, *state.log_cur) if e.visible_to(seat)
    )
    return AdventureView(
        seat=seat,
        players=state.players,
        to_act=None if state.is_over else state.to_move,
        phase=state.phase,
        turn=state.turn,
        hand=tuple(sort_cards(state.hands[seat])) if seat is not None else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        missions=state.missions,
        claimed_by=tuple(None if s < 0 else s for s in state.claimed_by),
        table=tuple(c is not None for c in table),
        known=tuple(row[i] if table[i] is not None else None for i in range(len(table))),
        discard=tuple(sort_cards(state.discard)),
        scores=tuple(state.scores()),
        recent=recent,
        legal=LegalSummary.of(legal),
        outcome=outcome,
    )
