"""Deals for Adventure Cards: full states consistent with what one seat knows.

`Knowledge` holds one seat's placement constraints at one decision (built by the search
player's determinizer, `search.AdventureDeterminizer.knowledge`): fixed cards (own hand, known
holders, known slot faces), free cards with the places they may be (every other hand with room
that is not known to lack them, and the face-down slots of unknown face), and the room of each
place (hand sizes, unknown slots). `Knowledge.sample(rng)` deals the free cards into that room:
the constrained cards first, each to a place drawn in proportion to its remaining room, then
the unconstrained ones shuffled in; a dead end restarts, and after a few restarts a slower
exact dealer checks Hall's condition (`feasible`) before each placement, so a consistent deal
is always found. Each sampled state is legal (every test-card exactly once) and agrees with the
seat's view; `consistent_with(view, state)` says why a state could not be the game behind a view.
"""

from __future__ import annotations

from pocketgalaxy.agents.ismcts import RandomSource
from pocketgalaxy.games.adventure.identities import CARDS
from pocketgalaxy.games.adventure.state import AdventureState
from pocketgalaxy.games.adventure.views import AdventureView

TABLE = -1
"""The place index of the face-down table in `Knowledge.places`."""

_RESTARTS = 24


class Knowledge:
    """What one seat knows at one decision, as placement constraints (see the module docstring).

    `places` are the other seats with unknown cards and `TABLE`; `room[j]` how many unknown
    cards place j holds; `free` the cards of unknown place with, in `allowed[card]`, the
    indices of the places that may hold each.
    """

    def __init__(
        self,
        template: AdventureState,
        hands: list[list[str]],
        slots: dict[int, str],
        unknown_slots: list[int],
        places: list[int],
        room: list[int],
        free: list[str],
        allowed: dict[str, tuple[int, ...]],
        peeked: list[tuple[int, int]],
    ) -> None:
        self.template = template
        self.hands = hands
        self.slots = slots
        self.unknown_slots = unknown_slots
        self.places = places
        self.room = room
        self.free = free
        self.allowed = allowed
        self.peeked = peeked
        everywhere = tuple(range(len(places)))
        self.constrained = [c for c in free if allowed[c] != everywhere]
        self.unconstrained = [c for c in free if allowed[c] == everywhere]

    def sample(self, rng: RandomSource) -> AdventureState:
        """One full state consistent with this knowledge (see the module docstring)."""
        deal = None
        for _ in range(_RESTARTS):
            deal = self._quick_deal(rng)
            if deal is not None:
                break
        if deal is None:
            deal = self._exact_deal(rng)
        return self._build(deal)

    # -- dealing ------------------------------------------------------------------------
    def _quick_deal(self, rng: RandomSource) -> list[list[str]] | None:
        room = self.room.copy()
        out: list[list[str]] = [[] for _ in room]
        cards = self.constrained.copy()
        rng.shuffle(cards)
        allowed = self.allowed
        cards.sort(key=lambda c: len(allowed[c]))  # stable: ties stay shuffled
        for c in cards:
            j = _pick(rng, [j for j in allowed[c] if room[j] > 0], room)
            if j < 0:
                return None
            room[j] -= 1
            out[j].append(c)
        rest = self.unconstrained.copy()
        rng.shuffle(rest)
        k = 0
        for j, r in enumerate(room):
            out[j].extend(rest[k : k + r])
            k += r
        return out

    def _exact_deal(self, rng: RandomSource) -> list[list[str]]:
        """Place cards one by one, keeping only choices after which a full deal still exists."""
        room = self.room.copy()
        out: list[list[str]] = [[] for _ in room]
        left = self.free.copy()
        rng.shuffle(left)
        masks = {c: sum(1 << j for j in self.allowed[c]) for c in left}
        while left:
            c = left.pop()
            rest = [masks[x] for x in left]
            ok = []
            for j in self.allowed[c]:
                if room[j] > 0:
                    room[j] -= 1
                    if feasible(rest, room):
                        ok.append(j)
                    room[j] += 1
            j = _pick(rng, ok, room)
            if j < 0:
                raise AssertionError("Adventure knowledge has no consistent deal")  # a bug
            room[j] -= 1
            out[j].append(c)
        return out

    def _build(self, deal: list[list[str]]) -> AdventureState:
        st = self.template.clone()
        hands = [h.copy() for h in self.hands]
        table = st.table
        for j, place in enumerate(self.places):
            if place == TABLE:
                for slot, face in zip(self.unknown_slots, deal[j], strict=True):
                    table[slot] = face
            else:
                hands[place].extend(deal[j])
        st.hands = hands
        for seat, slot in self.peeked:  # a rival who peeked knows this world's face there
            st.seen[seat][slot] = table[slot]
        return st


def _pick(rng: RandomSource, options: list[int], room: list[int]) -> int:
    """One of `options`, drawn in proportion to its room (-1 if there is none)."""
    if not options:
        return -1
    if len(options) == 1:
        return options[0]
    total = sum(room[j] for j in options)
    x = rng.below(total)
    for j in options:
        x -= room[j]
        if x < 0:
            return j
    return options[-1]


def feasible(masks: list[int], room: list[int]) -> bool:
    """Hall's condition: the cards (each with a mask of allowed places) fit the room exactly
    iff, for every set T of places, the cards allowed only inside T fit in T's room."""
    if len(masks) != sum(room):
        return False
    counts: dict[int, int] = {}
    for m in masks:
        counts[m] = counts.get(m, 0) + 1
    places = len(room)
    for t in range(1, 1 << places):
        inside = sum(n for m, n in counts.items() if m & ~t == 0)
        if inside > sum(room[j] for j in range(places) if t >> j & 1):
            return False
    return True



def consistent_with(view: AdventureView, state: AdventureState) -> list[str]:
    """Why `state` could not be the real game behind `view` (empty when it could): the hand,
    hand sizes, table occupancy, known faces and the discard must match; every card once."""
    problems: list[str] = []
    seat = view.seat
    assert seat is not None
    placed = [c for h in state.hands for c in h] + [c for c in state.table if c] + state.discard
    if sorted(placed) != sorted(CARDS):
        problems.append("not every test-card exactly once")
    if sorted(state.hands[seat]) != sorted(view.hand):
        problems.append("own hand differs")
    if tuple(len(h) for h in state.hands) != view.hand_sizes:
        problems.append("hand sizes differ")
    if tuple(c is not None for c in state.table) != view.table:
        problems.append("table occupancy differs")
    for slot, face in enumerate(view.known):
        if face is not None and state.table[slot] != face:
            problems.append(f"slot {slot} should show {face}")
    if sorted(state.discard) != sorted(view.discard):
        problems.append("discard differs")
    return problems
