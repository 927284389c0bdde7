"""The searching player for Adventure Cards: ISMCTS over deals consistent with one seat's view.

`AdventureDeterminizer` is the Adventure half of the ISMCTS player (`agents/ismcts.py`). It keeps
the seat's knowledge with the memory bot's tracker (`memory.Memory`, perfect recall) plus three
facts that tracker does not need for its own play:

- `absent[p]`: cards seat p was seen *not* to hold because p asked for them (a request for a
  card in one's own hand is never legal, AC-A2) or named them in a declaration (AC-A13, unless
  `allow_any_declaration`). Like the tracker's `lacks`, a fact holds until p publicly gains
  that card: every way a card enters a hand (a granted request, a correct declaration) is public;
- `public_faces`: slot faces everyone saw (missed declarations, AC-A4), which rivals know too;
- the asked seat of the last refused request (who plays after a peek, AC-A11).

`knowledge(view)` gathers these into placement constraints (`deals.Knowledge`), whose
`sample(rng)` deals the full states the search plays in.

For the playouts it offers the `memory` policy: each simulated seat takes cards it is sure of
(faces it saw, holders everyone saw) and otherwise guesses the card it most needs where it may
be, peeking at slots it has not seen; and a heuristic evaluation for cut-off playouts.
`make_ismcts` builds the `ismcts` computer player.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from pocketgalaxy.agents.adventure.deals import TABLE, Knowledge, feasible
from pocketgalaxy.agents.adventure.memory import SLOT, Memory
from pocketgalaxy.agents.ismcts import Determinizer, ISMCTSAgent, RandomSource, Sampler
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.core.rng import Rng
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
    MissionClaimed,
    RequestGranted,
    RequestRefused,
)
from pocketgalaxy.games.adventure.identities import CARD_INDEX, CARDS
from pocketgalaxy.games.adventure.options import AdventureOptions
from pocketgalaxy.games.adventure.rules import AdventureRules
from pocketgalaxy.games.adventure.state import AdventureState
from pocketgalaxy.games.adventure.views import AdventureView

_RULES = AdventureRules()

_REQ = {(t, c): RequestCard(t, c) for t in range(5) for c in CARDS}
_DEC = {(s, c): DeclareCard(s, c) for s in range(24) for c in CARDS}
_PEEK = {s: Peek(s) for s in range(24)}
_SKIP = SkipPeek()
_SURE = 100.0
_COMPLETE = 6.0


def _worth(have: int) -> float:
    """Worth of gaining a card of a mission of which `have` cards are held already."""
    return 1.0 + have + (_COMPLETE if have == 3 else 0.0)



class _Ctx:
    """Per-iteration playout context: the seat everyone saw receive a card, by card."""

    __slots__ = ("known_at",)

    def __init__(self, known_at: dict[str, int]) -> None:
        self.known_at = known_at


class AdventureDeterminizer(Determinizer):
    """The Adventure Cards half of ISMCTS: knowledge, sampling, playout policy and evaluation."""

    policies: ClassVar[tuple[str, ...]] = ("random", "memory")

    def __init__(self) -> None:
        self.reset(0, 2, AdventureOptions())

    def reset(self, seat: int, players: int, options: Any) -> None:
        super().reset(seat, players, options)
        if not isinstance(options, AdventureOptions):
            self.options = AdventureOptions()
        self.memory = Memory(seat, players)
        self.absent: list[set[str]] = [set() for _ in range(players)]
        self.public_faces: dict[int, str] = {}
        self.last_refused_target = -1
        self._public_known: dict[str, int] = {}
        o: AdventureOptions = self.options
        # With these options at their defaults every move the memory policy builds is legal.
        self._plain = not (
            o.require_mission_card_to_request
            or o.forbid_empty_targets
            or o.forbid_known_misses
            or not o.auto_claim
        )

    # -- knowledge ----------------------------------------------------------------------
    def observe(self, events: list[Event]) -> None:
        self.memory.observe(events)
        declarations_tell = not self.options.allow_any_declaration
        for e in events:
            if isinstance(e, RequestRefused):
                self.absent[e.requester].add(e.card)
                self.last_refused_target = e.target
            elif isinstance(e, RequestGranted):
                self.absent[e.target].add(e.card)
                self.absent[e.requester].discard(e.card)
            elif isinstance(e, CardDeclared):
                if e.correct:
                    self.public_faces.pop(e.slot, None)
                    self.absent[e.seat].discard(e.revealed_card)
                else:
                    self.public_faces[e.slot] = e.revealed_card
                    if declarations_tell:
                        self.absent[e.seat].add(e.card)

    def knowledge(self, view: AdventureView) -> Knowledge:
        """The placement constraints of this seat now (the view must be this seat's)."""
        mem = self.memory
        mem.sync(view)
        me, n = self.seat, self.players
        opts: AdventureOptions = self.options
        hands: list[list[str]] = [[] for _ in range(n)]
        hands[me] = list(view.hand)
        slots: dict[int, str] = {}
        for card, where in mem.loc.items():
            if where >= SLOT:
                if view.table[where - SLOT]:
                    slots[where - SLOT] = card
            elif where != me:
                hands[where].append(card)
        for p in range(n):  # a memory that no longer fits (never with perfect recall): drop it
            if p != me and len(hands[p]) > view.hand_sizes[p]:
                hands[p] = []
        placed = set(view.discard) | {c for h in hands for c in h} | set(slots.values())
        free = [c for c in CARDS if c not in placed]
        unknown_slots = [s for s, full in enumerate(view.table) if full and s not in slots]
        places: list[int] = []
        room: list[int] = []
        for p in range(n):
            if p != me and view.hand_sizes[p] > len(hands[p]):
                places.append(p)
                room.append(view.hand_sizes[p] - len(hands[p]))
        if unknown_slots:
            places.append(TABLE)
            room.append(len(unknown_slots))
        allowed: dict[str, tuple[int, ...]] = {}
        for c in free:
            allowed[c] = tuple(
                j
                for j, p in enumerate(places)
                if p == TABLE or (c not in mem.lacks[p] and c not in self.absent[p])
            )
        masks = [sum(1 << j for j in allowed[c]) for c in free]
        if not feasible(masks, room):  # inconsistent facts (a bug or a faded memory): relax
            allowed = {c: tuple(range(len(places))) for c in free}
        template = self._template(view, opts, slots, unknown_slots)
        peeked = [
            (p, s)
            for s, seats in mem.peeked_by.items()
            if s in unknown_slots
            for p in seats
            if p != me
        ]
        return Knowledge(template, hands, slots, unknown_slots, places, room, free, allowed, peeked)

    def _template(
        self,
        view: AdventureView,
        opts: AdventureOptions,
        slots: dict[int, str],
        unknown_slots: list[int],
    ) -> AdventureState:
        n, me = self.players, self.seat
        table: list[str | None] = [None] * len(view.table)
        for s, face in slots.items():
            table[s] = face
        st = AdventureState(opts, n, view.missions, [[] for _ in range(n)], table, Rng(0), 0)
        st.claimed_by = [-1 if s is None else s for s in view.claimed_by]
        st.discard = list(view.discard)
        for s, face in self.public_faces.items():
            if view.table[s]:
                for row in st.seen:
                    row[s] = face
        for s, face in self.memory.slot_face.items():
            if view.table[s]:
                st.seen[me][s] = face
        st.lacks = [sum(1 << CARD_INDEX[c] for c in lacked) for lacked in self.memory.lacks]
        st.to_move = me
        st.phase = view.phase
        st.turn = view.turn
        if view.phase == "peek":
            asked = opts.next_after_failed_request == "asked_player"
            st.next_seat = self.last_refused_target if asked else (me + 1) % n
        self._public_known = {c: where for c, where in self.memory.loc.items() if where < SLOT}
        return st

    def sampler(self, view: Any) -> Sampler:
        return self.knowledge(view).sample

    # -- decisions left to a rule -------------------------------------------------------
    def rule_decision(self, view: Any, legal: list[Action]) -> Action | None:
        """Claims are always taken; peeks go where this seat knows nothing, preferring slots
        fewer rivals have seen (sampling cannot value information, so it is not asked to)."""
        for a in legal:
            if isinstance(a, ClaimMission):
                return a
        mem = self.memory
        mem.sync(view)
        if view.phase != "peek":
            return self._sure_gain(view, legal)
        options = [a for a in legal if isinstance(a, Peek) and a.slot not in mem.slot_face]
        if not options:
            return next((a for a in legal if isinstance(a, SkipPeek)), legal[0])
        fewest = min(len(mem.peeked_by.get(a.slot, ())) for a in options)
        options = [a for a in options if len(mem.peeked_by.get(a.slot, ())) == fewest]
        return options[self.memory.rng.below(len(options))] if len(options) > 1 else options[0]

    def _sure_gain(self, view: AdventureView, legal: list[Action]) -> Action | None:
        """A certain gain (a face this seat knows, a holder everyone saw) keeps the turn, and
        waiting only lets a rival take the card first: take the most needed one at once. The
        exception, left to the search: a card only this seat knows of and has no use for,
        since taking it shows everyone where it is."""
        mem = self.memory
        hand = mem.hand
        mission = {c: m for m, g in enumerate(view.missions) for c in g}
        have = [0] * len(view.missions)
        for c in hand:
            have[mission[c]] += 1
        best: Action | None = None
        best_have = -1
        for slot, face in mem.slot_face.items():
            if not view.table[slot] or face in hand:
                continue
            h = have[mission[face]]
            if h > best_have and (h > 0 or self.public_faces.get(slot) == face):
                best, best_have = _DEC[slot, face], h
        for card, where in mem.loc.items():
            if where < SLOT and where != self.seat and have[mission[card]] > best_have:
                best, best_have = _REQ[where, card], have[mission[card]]
        if best is not None and best in legal:
            return best
        return None

    # -- playouts -----------------------------------------------------------------------
    def begin(self, state: Any) -> _Ctx:
        return _Ctx(self._public_known.copy())

    def update(self, ctx: Any, state: Any, events: list[Event]) -> None:
        known = ctx.known_at
        for e in events:
            if isinstance(e, RequestGranted):
                known[e.card] = e.requester
            elif isinstance(e, CardDeclared):
                if e.correct:
                    known[e.card] = e.seat
            elif isinstance(e, MissionClaimed):
                for c in e.cards:
                    known.pop(c, None)

    @staticmethod
    def _have(state: AdventureState, seat: int) -> list[int]:
        """How many cards of each mission `seat` holds."""
        have = [0] * len(state.missions)
        mission = state.mission_index
        for c in state.hands[seat]:
            have[mission[c]] += 1
        return have

    def _score(
        self, ctx: _Ctx, state: AdventureState, seat: int, a: Action, have: list[int]
    ) -> float:
        """The acting seat's own estimate of a move: sure gains first, known misses last."""
        if isinstance(a, RequestCard):
            card = a.card
            need = _worth(have[state.mission_index[card]])
            holder = ctx.known_at.get(card, -1)
            if holder == a.target and card in state.hands[a.target]:
                return _SURE + need
            if holder >= 0 or state.lacks[a.target] >> CARD_INDEX[card] & 1:
                return -1.0
            return need * len(state.hands[a.target]) / 24.0
        if isinstance(a, DeclareCard):
            need = _worth(have[state.mission_index[a.card]])
            face = state.seen[seat][a.slot]
            if face is not None:
                return _SURE + need if face == a.card else -1.0
            if a.card in ctx.known_at:
                return -1.0
            return need / 24.0
        return 0.0

    def order(self, ctx: Any, state: Any, seat: int, legal: list[Action]) -> list[Action] | None:
        have = self._have(state, seat)
        scored = sorted(
            ((self._score(ctx, state, seat, a, have), i, a) for i, a in enumerate(legal)),
            key=lambda t: (-t[0], t[1]),
        )
        return [a for _, _, a in scored]

    def needs_legal(self, policy: str) -> bool:
        return policy == "random" or not self._plain

    def choose(
        self,
        policy: str,
        ctx: Any,
        state: Any,
        seat: int,
        legal: list[Action] | None,
        rng: RandomSource,
    ) -> Action:
        if legal is not None and (policy == "random" or len(legal) == 1):
            return legal[rng.below(len(legal))]
        st: AdventureState = state
        if st.phase == "peek":
            seen = st.seen[seat]
            blind = [s for s, f in enumerate(st.table) if f is not None and seen[s] is None]
            return _PEEK[blind[rng.below(len(blind))]] if blind else _SKIP
        action = self._memory_move(ctx, st, seat, rng)
        if action is not None and (legal is None or action in legal):
            return action  # without a list (plain options) every built move is legal
        if legal is None:
            legal = _RULES.legal_actions(st, seat)
        claims = [a for a in legal if isinstance(a, (ClaimMission, PassTurn))]
        return claims[0] if claims else legal[rng.below(len(legal))]

    def _memory_move(
        self, ctx: _Ctx, st: AdventureState, seat: int, rng: RandomSource
    ) -> Action | None:
        """Sure gains first (faces this seat saw, holders everyone saw), the most needed;
        otherwise a guess at a card of the mission it is closest to, where it may be."""
        have = self._have(st, seat)
        mission = st.mission_index
        best: Action | None = None
        best_have = -1
        seen = st.seen[seat]
        for slot, face in enumerate(seen):
            if face is not None and have[mission[face]] > best_have:
                best, best_have = _DEC[slot, face], have[mission[face]]
        hands = st.hands
        for card, holder in ctx.known_at.items():
            if holder != seat and have[mission[card]] > best_have and card in hands[holder]:
                best, best_have = _REQ[holder, card], have[mission[card]]
        if best is not None:
            return best
        hand = hands[seat]
        known = ctx.known_at
        order = sorted(
            (m for m in range(len(have)) if st.claimed_by[m] < 0),
            key=lambda m: (-have[m], rng.below(8)),
        )
        for m in order:
            options = [
                c
                for c in st.missions[m]
                if c not in hand and c not in known and c not in seen
            ]
            if options:
                card = options[rng.below(len(options))] if len(options) > 1 else options[0]
                break
        else:
            return None
        bit = 1 << CARD_INDEX[card]
        blind = [s for s, f in enumerate(st.table) if f is not None and seen[s] is None]
        weights = [
            (p, len(hands[p]))
            for p in range(st.players)
            if p != seat and hands[p] and not st.lacks[p] & bit
        ]
        total = sum(w for _, w in weights) + len(blind)
        if total == 0:
            return None
        x = rng.below(total)
        for p, w in weights:
            x -= w
            if x < 0:
                return _REQ[p, card]
        return _DEC[blind[x], card]

    def evaluate(self, state: Any) -> list[float]:
        """A cut-off playout's reward: a soft-max over claimed missions plus progress."""
        st: AdventureState = state
        value = [0.0] * st.players
        for seat in st.claimed_by:
            if seat >= 0:
                value[seat] += 1.0
        for m, group in enumerate(st.missions):
            if st.claimed_by[m] >= 0:
                continue
            for p, hand in enumerate(st.hands):
                have = sum(1 for c in group if c in hand)
                value[p] += 0.6 * (have / 4.0) ** 2
        top = max(value)
        weights = [math.exp(3.0 * (v - top)) for v in value]
        total = sum(weights)
        return [w / total for w in weights]


def make_ismcts(seed: int = 0, **settings: Any) -> ISMCTSAgent:
    """The `ismcts` computer player for Adventure Cards (settings: see `ISMCTSAgent`)."""
    defaults: dict[str, Any] = {"iterations": 300, "c": 0.7, "playout": "memory", "depth": 16,
                                "widen": 4.0}
    defaults.update(settings)
    return ISMCTSAgent(seed, rules=AdventureRules(), determinizer=AdventureDeterminizer(),
                       **defaults)
