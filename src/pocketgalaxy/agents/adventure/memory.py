"""What an Adventure Cards computer player remembers, and what it deduces from it.

`Memory` is fed only the events its seat may see (`observe`) and the seat's own view (own hand,
hand sizes, which slots are occupied, the public layout). It keeps hard facts:

- `loc[card]`: where a card is known to be: another seat's hand, a table slot (`SLOT + n`);
- `lacks[seat]`: cards that seat was seen to lack (refused a request, or handed the card over);
- `gave_away`: cards other players took from this seat (AC-A10: do not ask them back unless
  that completes a mission);

and turns them into probabilities with `beliefs()`: every card whose place is unknown spreads
over the hands and face-down slots that can still hold it, scaled (Sinkhorn balancing) so that
every card is somewhere exactly once and every hand and the table hold as many unknown cards
as they have room for. A `fade` above zero forgets each fact with that chance each turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pocketgalaxy.core.game import Event
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.adventure.events import (
    CardDeclared,
    CardsDealt,
    MissionClaimed,
    MissionsLaid,
    PeekSeen,
    RequestGranted,
    RequestRefused,
    SlotPeeked,
    TurnPassed,
)
from pocketgalaxy.games.adventure.identities import CARDS

SLOT = 100
"""`loc` values at or above SLOT are table slots (SLOT + slot index); below are seats."""

_SINKHORN_ROUNDS = 30


class Beliefs:
    """Probabilities for one decision: `in_hand[p][card]`, `on_table[card]` (any unknown slot)."""

    __slots__ = ("in_hand", "on_table", "unknown_slots")

    def __init__(self, players: int) -> None:
        self.in_hand: list[dict[str, float]] = [{} for _ in range(players)]
        self.on_table: dict[str, float] = {}
        self.unknown_slots = 0

    def at_slot(self, card: str) -> float:
        """Chance that one particular unknown face-down slot shows `card`."""
        if self.unknown_slots == 0:
            return 0.0
        return self.on_table.get(card, 0.0) / self.unknown_slots


class Memory:
    """Facts one seat has seen and heard, with optional fading (see the module docstring)."""

    def __init__(self, seat: int, players: int, *, fade: float = 0.0, rng: Rng | None = None):
        self.seat = seat
        self.players = players
        self.fade = fade
        self.rng = rng if rng is not None else Rng(0)
        self.missions: tuple[tuple[str, ...], ...] = ()
        self.hand: set[str] = set()
        self.loc: dict[str, int] = {}
        self.slot_face: dict[int, str] = {}
        self.lacks: list[set[str]] = [set() for _ in range(players)]
        self.gave_away: set[str] = set()
        self.peeked_by: dict[int, set[int]] = {}
        self.discard: set[str] = set()

    # -- learning ---------------------------------------------------------------------
    def observe(self, events: Iterable[Event]) -> None:
        for e in events:
            self._learn(e)

    def _learn(self, e: Event) -> None:
        me = self.seat
        if isinstance(e, RequestGranted):
            self._moved_to_hand(e.card, e.requester)
            self.lacks[e.target].add(e.card)
            if e.target == me:
                self.hand.discard(e.card)
                self.gave_away.add(e.card)
        elif isinstance(e, RequestRefused):
            self.lacks[e.target].add(e.card)
            if self.loc.get(e.card) == e.target:  # only a faded memory could be this wrong
                del self.loc[e.card]
        elif isinstance(e, CardDeclared):
            if e.correct:
                self.slot_face.pop(e.slot, None)
                self.peeked_by.pop(e.slot, None)
                self._moved_to_hand(e.revealed_card, e.seat)
            else:
                self._at_slot(e.revealed_card, e.slot)
        elif isinstance(e, PeekSeen):
            if e.seat == me:
                self._at_slot(e.card, e.slot)
        elif isinstance(e, SlotPeeked):
            self.peeked_by.setdefault(e.slot, set()).add(e.seat)
        elif isinstance(e, MissionClaimed):
            for c in e.cards:
                self.loc.pop(c, None)
                self.hand.discard(c)
                self.gave_away.discard(c)
                self.discard.add(c)
        elif isinstance(e, TurnPassed):
            if self.fade > 0:
                self._forget()
        elif isinstance(e, CardsDealt):
            if e.seat == me:
                self.hand = set(e.cards)
        elif isinstance(e, MissionsLaid):
            self.missions = e.missions

    def _moved_to_hand(self, card: str, seat: int) -> None:
        old = self.loc.pop(card, None)
        if old is not None and old >= SLOT:
            self.slot_face.pop(old - SLOT, None)
        self.lacks[seat].discard(card)
        if seat == self.seat:
            self.hand.add(card)
            self.gave_away.discard(card)
        else:
            self.loc[card] = seat

    def _at_slot(self, card: str, slot: int) -> None:
        self.loc[card] = SLOT + slot
        self.slot_face[slot] = card

    def _forget(self) -> None:
        """Each remembered fact fades with chance `fade` (the own hand and layout never do)."""
        below = self.rng.below
        scale = 1_000_000
        limit = int(self.fade * scale)
        for card in list(self.loc):
            if below(scale) < limit:
                where = self.loc.pop(card)
                if where >= SLOT:
                    self.slot_face.pop(where - SLOT, None)
        # Sets of strings iterate in hash order, which changes with every process: sorted, so
        # each draw meets the same card in every run of a seed.
        for lacked in self.lacks:
            for card in sorted(lacked):
                if below(scale) < limit:
                    lacked.discard(card)
        for card in sorted(self.gave_away):
            if below(scale) < limit:
                self.gave_away.discard(card)

    def sync(self, view: Any) -> None:
        """Take what the seat can see on its own side of the table: hand, layout, occupancy."""
        self.hand = set(view.hand)
        self.missions = view.missions
        self.discard = set(view.discard)
        for card in (*self.hand, *self.discard):  # in case events were missed
            self.loc.pop(card, None)
        occupied = view.table
        for slot in [s for s in self.slot_face if not occupied[s]]:
            self.loc.pop(self.slot_face.pop(slot), None)

    # -- deducing ---------------------------------------------------------------------
    def beliefs(self, hand_sizes: tuple[int, ...], occupied: tuple[bool, ...]) -> Beliefs:
        """Chance of every unknown card being in each other hand or on the table."""
        b = Beliefs(self.players)
        known_in = [0] * self.players
        for where in self.loc.values():
            if where < SLOT:
                known_in[where] += 1
        columns: list[int] = []  # seat numbers, and -1 for the table
        room: list[float] = []
        for p in range(self.players):
            if p != self.seat:
                free = hand_sizes[p] - known_in[p]
                if free > 0:
                    columns.append(p)
                    room.append(float(free))
        faces = self.slot_face
        unknown_slots = sum(1 for s, full in enumerate(occupied) if full and s not in faces)
        b.unknown_slots = unknown_slots
        if unknown_slots:
            columns.append(-1)
            room.append(float(unknown_slots))
        unknown = [
            c for c in CARDS if c not in self.hand and c not in self.discard and c not in self.loc
        ]
        if not unknown or not columns:
            return b
        lacks = self.lacks
        rows = [
            [0.0 if (p >= 0 and c in lacks[p]) else 1.0 for p in columns] for c in unknown
        ]
        ncol = len(columns)
        unknown, rows = _settle(unknown, rows, room, columns, b)
        for _ in range(_SINKHORN_ROUNDS):
            # each card is somewhere exactly once ...
            rows = [[x / t for x in row] if (t := sum(row)) > 0 else row for row in rows]
            # ... and each place holds as many unknown cards as it has room for
            sums = [sum(col) for col in zip(*rows, strict=True)] if rows else [0.0] * ncol
            if all(abs(sums[j] - room[j]) < 1e-4 for j in range(ncol)):
                break
            scale = [room[j] / sums[j] if sums[j] > 0 else 0.0 for j in range(ncol)]
            rows = [[x * k for x, k in zip(row, scale, strict=True)] for row in rows]
        for c, row in zip(unknown, rows, strict=True):
            total = sum(row)
            if total <= 0:
                continue
            for j, p in enumerate(columns):
                prob = min(1.0, row[j] / total)
                if p < 0:
                    b.on_table[c] = prob
                else:
                    b.in_hand[p][c] = prob
        return b


def _settle(
    cards: list[str], rows: list[list[float]], room: list[float], columns: list[int], b: Beliefs
) -> tuple[list[str], list[list[float]]]:
    """Exact deduction before the balancing: a card with one possible place is there; a place
    with no room left is closed; a place with exactly as many candidates as room takes them all.
    Settled cards are written into `b` with probability 1 and dropped from the matrix."""
    ncol = len(columns)
    changed = True
    while changed and cards:
        changed = False
        for j in range(ncol):
            candidates = [i for i, row in enumerate(rows) if row[j] > 0]
            if room[j] <= 0 and candidates:
                for i in candidates:
                    rows[i][j] = 0.0
                changed = True
            elif candidates and len(candidates) == room[j]:
                for i in candidates:
                    if sum(1 for x in rows[i] if x > 0) > 1:
                        rows[i] = [1.0 if k == j else 0.0 for k in range(ncol)]
                        changed = True
        keep_cards: list[str] = []
        keep_rows: list[list[float]] = []
        for c, row in zip(cards, rows, strict=True):
            options = [j for j in range(ncol) if row[j] > 0]
            if len(options) == 1 and room[options[0]] > 0:
                j = options[0]
                room[j] -= 1
                if columns[j] < 0:
                    b.on_table[c] = 1.0
                else:
                    b.in_hand[columns[j]][c] = 1.0
                changed = True
            else:
                keep_cards.append(c)
                keep_rows.append(row)
        cards, rows = keep_cards, keep_rows
    return cards, rows
