"""Adventure Cards for learning agents: a fixed action space and a flat observation.

Seats are seat-relative everywhere: "offset" o means the seat `(me + o) % players`, so one
policy can sit in any chair. Cards are in the fixed order `CARDS` (S1..S6, P1..P6, A1..A6,
M1..M6); table slots are the stable slots 0..T-1 (T from the deal: 8, 6, 8, 4 for 2..5
players as printed).

Actions (docs/rl.md lists the same table): RequestCard by (target offset 1..n-1, card),
DeclareCard by (slot, card), Peek by slot, SkipPeek, ClaimMission by mission, PassTurn.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pocketgalaxy.core.errors import MalformedActionError, OptionsError
from pocketgalaxy.core.game import Action
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
    RequestGranted,
    RequestRefused,
    SlotPeeked,
)
from pocketgalaxy.games.adventure.identities import CARD_INDEX, CARDS
from pocketgalaxy.games.adventure.options import AdventureOptions
from pocketgalaxy.games.adventure.state import deal_sizes
from pocketgalaxy.games.adventure.views import AdventureView
from pocketgalaxy.rl.encoding import OBS_DTYPE, ActionCodec, Layout

N_CARDS = len(CARDS)
N_MISSIONS = 6
PHASES = ("act", "peek", "over")


def table_slots(players: int, options: AdventureOptions | None = None) -> int:
    """How many table slots a deal makes (AC-R2, option `deal`, AC-A8)."""
    opts = options if options is not None else AdventureOptions()
    return deal_sizes(players, opts.deal)[1]


class AdventureActionCodec(ActionCodec):
    """Every Adventure Cards action for `players` seats and `slots` table slots.

    >>> codec = AdventureActionCodec(4, 8)
    >>> codec.decode(codec.encode(RequestCard(3, "P4"), seat=1), seat=1)
    RequestCard(target=3, card='P4')
    """

    def __init__(self, players: int, slots: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
            raise OptionsError(
                f"Adventure Cards is for 2 to 5 players, not {players!r} (AC-A8)",
                allowed=["2", "3", "4", "5"],
            )
        self.players = players
        self.slots = slots
        n, t = players, slots
        self.layout = Layout([
            ("RequestCard", (n - 1) * N_CARDS,
             "ask seat (me+o)%n for card c: index (o-1)*24 + c, o in 1..n-1"),
            ("DeclareCard", t * N_CARDS, "name card c for table slot s: index s*24 + c"),
            ("Peek", t, "after a refused request, peek at slot s"),
            ("SkipPeek", 1, "after a refused request, decline the peek"),
            ("ClaimMission", N_MISSIONS, "claim mission m (only when auto_claim is off)"),
            ("PassTurn", 1, "pass: only when nothing else is legal (AC-R10)"),
        ])
        self._request0 = self.layout["RequestCard"].start
        self._declare0 = self.layout["DeclareCard"].start
        self._peek0 = self.layout["Peek"].start
        self._skip = self.layout["SkipPeek"].start
        self._claim0 = self.layout["ClaimMission"].start
        self._pass = self.layout["PassTurn"].start

    def encode(self, action: Action, *, seat: int, legal: Sequence[Action] = ()) -> int:
        n = self.players
        if isinstance(action, RequestCard):
            offset = (action.target - seat) % n
            if offset == 0 or not 0 <= action.target < n:
                raise MalformedActionError(
                    action, f"a request names another seat of 0..{n - 1} (seat {seat} asks)"
                )
            return self._request0 + (offset - 1) * N_CARDS + CARD_INDEX[action.card]
        if isinstance(action, DeclareCard):
            self._slot(action, action.slot)
            return self._declare0 + action.slot * N_CARDS + CARD_INDEX[action.card]
        if isinstance(action, Peek):
            self._slot(action, action.slot)
            return self._peek0 + action.slot
        if isinstance(action, SkipPeek):
            return self._skip
        if isinstance(action, ClaimMission):
            if not 0 <= action.mission < N_MISSIONS:
                raise MalformedActionError(action, "missions are 0..5")
            return self._claim0 + action.mission
        if isinstance(action, PassTurn):
            return self._pass
        raise MalformedActionError(
            action, "not an Adventure Cards action",
            allowed=[b.name for b in self.layout],
        )

    def _slot(self, action: Action, slot: int) -> None:
        if not 0 <= slot < self.slots:
            raise MalformedActionError(action, f"table slots are 0..{self.slots - 1}")

    def decode(self, index: int, *, seat: int, legal: Sequence[Action] = ()) -> Action:
        i = self.check_index(index)
        if i < self._declare0:
            offset, card = divmod(i - self._request0, N_CARDS)
            return RequestCard((seat + offset + 1) % self.players, CARDS[card])
        if i < self._peek0:
            slot, card = divmod(i - self._declare0, N_CARDS)
            return DeclareCard(slot, CARDS[card])
        if i < self._skip:
            return Peek(i - self._peek0)
        if i == self._skip:
            return SkipPeek()
        if i < self._pass:
            return ClaimMission(i - self._claim0)
        return PassTurn()


class AdventureObservation:
    """The flat observation of one seat's `AdventureView` (floats in 0..1).

    Built from the view alone: own hand, hand sizes, public missions and claims, the discard,
    which slots are full, the faces this seat knows, and what the recent public events (the
    previous and the current turn, as the view keeps them) showed about each seat.
    """

    def __init__(self, players: int, slots: int) -> None:
        n, t = players, slots
        self.players = players
        self.slots = slots
        self.layout = Layout([
            ("bias", 1, "always 1"),
            ("phase", len(PHASES), "one-hot phase: act, peek, over"),
            ("to_act", n, "one-hot offset of the seat to act (all 0 when over)"),
            ("hand", N_CARDS, "1 if card c is in my hand"),
            ("hand_sizes", n, "hand size of seat offset o, / 24"),
            ("discard", N_CARDS, "1 if card c was discarded with a claimed mission"),
            ("mission_of", N_CARDS * N_MISSIONS, "card c belongs to mission m: c*6 + m"),
            ("mission_held", N_MISSIONS, "my cards of mission m, / 4"),
            ("mission_claimed", N_MISSIONS * (n + 1),
             "mission m*(n+1): [0] unclaimed, [1+o] claimed by seat offset o"),
            ("scores", n, "missions claimed by seat offset o, / 6"),
            ("table", t, "1 if slot s holds a face-down card"),
            ("known", t * N_CARDS, "slot s shows card c to my knowledge: s*24 + c"),
            ("recent_gained", n * N_CARDS,
             "recent events: seat offset o gained card c (granted request or hit): o*24 + c"),
            ("recent_lacks", n * N_CARDS,
             "recent events: seat offset o lacks card c (refused, or handed it over): o*24 + c"),
            ("recent_peeked", n * t, "recent events: seat offset o peeked at slot s: o*T + s"),
        ])
        self._b = {b.name: b.start for b in self.layout}

    @property
    def size(self) -> int:
        return self.layout.size

    def encode(self, view: AdventureView) -> np.ndarray:
        """The vector for `view` (a seat's view; watchers have no seat to be relative to)."""
        me = view.seat
        if me is None:
            raise OptionsError("an observation is for a seat, not a watcher")
        if view.players != self.players or len(view.table) != self.slots:
            raise OptionsError(
                f"this encoder is for {self.players} players and {self.slots} slots, "
                f"the view has {view.players} and {len(view.table)}"
            )
        n, t, b = self.players, self.slots, self._b
        out = np.zeros(self.size, dtype=OBS_DTYPE)
        out[b["bias"]] = 1.0
        out[b["phase"] + PHASES.index(view.phase)] = 1.0
        if view.to_act is not None:
            out[b["to_act"] + (view.to_act - me) % n] = 1.0
        hand = b["hand"]
        for c in view.hand:
            out[hand + CARD_INDEX[c]] = 1.0
        for seat, size in enumerate(view.hand_sizes):
            out[b["hand_sizes"] + (seat - me) % n] = size / N_CARDS
        for c in view.discard:
            out[b["discard"] + CARD_INDEX[c]] = 1.0
        mine = set(view.hand)
        for m, group in enumerate(view.missions):
            for c in group:
                out[b["mission_of"] + CARD_INDEX[c] * N_MISSIONS + m] = 1.0
            out[b["mission_held"] + m] = sum(1 for c in group if c in mine) / 4
            owner = view.claimed_by[m]
            slot = 0 if owner is None else 1 + (owner - me) % n
            out[b["mission_claimed"] + m * (n + 1) + slot] = 1.0
        for seat, score in enumerate(view.scores):
            out[b["scores"] + (seat - me) % n] = score / N_MISSIONS
        for s in range(t):
            if view.table[s]:
                out[b["table"] + s] = 1.0
            face = view.known[s]
            if face is not None:
                out[b["known"] + s * N_CARDS + CARD_INDEX[face]] = 1.0
        gained, lacks, peeked = b["recent_gained"], b["recent_lacks"], b["recent_peeked"]
        for e in view.recent:
            if isinstance(e, RequestGranted):
                out[gained + (e.requester - me) % n * N_CARDS + CARD_INDEX[e.card]] = 1.0
                out[lacks + (e.target - me) % n * N_CARDS + CARD_INDEX[e.card]] = 1.0
            elif isinstance(e, RequestRefused):
                out[lacks + (e.target - me) % n * N_CARDS + CARD_INDEX[e.card]] = 1.0
            elif isinstance(e, CardDeclared) and e.correct:
                out[gained + (e.seat - me) % n * N_CARDS + CARD_INDEX[e.revealed_card]] = 1.0
            elif isinstance(e, SlotPeeked) and e.slot < t:
                out[peeked + (e.seat - me) % n * t + e.slot] = 1.0
        return out
