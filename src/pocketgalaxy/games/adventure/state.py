"""The state of an Adventure Cards game: plain data, a hand-written fast `clone()`, and JSON.

Where every card is:
- the 24 test-cards: each in exactly one hand, one table slot, or the discard (claimed missions);
- the 24 mission-cards: each in its mission on the table layout until claimed, then in the
  claimer's score pile (`claimed_by[m]`).

Knowledge that views need is kept here too. `seen[s][slot]` is the face seat `s` saw in a slot
(its own peek, or a face shown to everyone); row `players` is what a watcher saw. A face stays
true until its slot empties, because slots are never refilled (AC-A15), so emptying a slot
clears that column. `lacks[s]` is a bit mask of the cards everyone saw seat `s` lack (a refused
request, or handing the card over) and that `s` has not publicly gained since (AC-A2).
"""

from __future__ import annotations

from typing import Any

from pocketgalaxy.core.errors import OptionsError, RecordError
from pocketgalaxy.core.game import Event
from pocketgalaxy.core.mypyc_marks import mypyc_attr
from pocketgalaxy.core.options import options_from_json, options_to_json
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.adventure.events import event_from_json
from pocketgalaxy.games.adventure.identities import CARD_INDEX, CARDS, is_mission_group
from pocketgalaxy.games.adventure.options import AdventureOptions

PHASES = ("act", "peek", "over")

PRINTED_DEAL: dict[int, tuple[int, int]] = {2: (8, 8), 3: (6, 6), 4: (4, 8), 5: (4, 4)}
"""Players -> (cards per player, table cards), as printed (AC-R2)."""


def deal_sizes(players: int, deal: str) -> tuple[int, int]:
    """(cards per player, table cards) for `players` under the `deal` option (AC-R2, AC-A8)."""
    if players not in PRINTED_DEAL:
        raise OptionsError(
            f"Adventure Cards is for 2 to 5 players, not {players!r} (AC-A8)",
            allowed=[str(n) for n in PRINTED_DEAL],
        )
    if deal == "even":
        each = len(CARDS) // players
        return each, len(CARDS) - each * players
    return PRINTED_DEAL[players]


class Flow:
    """The options the hot path reads on every decision, copied once per game into plain fields
    (compiled, a read is a C struct access instead of a look-up on the options dataclass).
    Derived from `AdventureState.options`, never in the JSON; shared by clones."""

    __slots__ = (
        "options", "auto_claim", "peek_after_refusal", "next_is_asked", "max_turns", "listing_key"
    )

    def __init__(self, options: AdventureOptions) -> None:
        self.options = options
        self.auto_claim: bool = options.auto_claim
        self.peek_after_refusal: bool = options.peek_after_failed_request
        self.next_is_asked: bool = options.next_after_failed_request == "asked_player"
        self.max_turns: int = options.max_turns
        narrowed = (
            options.require_mission_card_to_request
            or options.forbid_empty_targets
            or options.forbid_known_misses
            or not options.auto_claim
        )
        # listing.py: -1 means build every list; else the key bits of `allow_any_declaration`
        any_declaration = 1 << 54 if options.allow_any_declaration else 0
        self.listing_key: int = -1 if narrowed else any_declaration

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (Flow, (self.options,))  # rebuilt from its options (compiled classes too)


@mypyc_attr(serializable=True)  # picklable when compiled (worker processes)
class AdventureState:
    """One game in progress. Mutate only through `AdventureRules`; copy with `clone()`."""

    __slots__ = (
        "options",
        "players",
        "missions",
        "claimed_by",
        "hands",
        "table",
        "discard",
        "seen",
        "lacks",
        "to_move",
        "phase",
        "next_seat",
        "turn",
        "first_player",
        "log_prev",
        "log_cur",
        "winners",
        "end_reason",
        "ended_by_cap",
        "rng",
        "mission_index",
        "mission_bits",
        "flow",
    )

    def __new__(cls, *args: Any, **kwargs: Any) -> AdventureState:
        # A bare instance, so `clone` skips `__init__` on both paths (mypyc's own `__new__`
        # would run `__init__`, which needs the setup arguments).
        return object.__new__(cls)

    def __init__(
        self,
        options: AdventureOptions,
        players: int,
        missions: tuple[tuple[str, ...], ...],
        hands: list[list[str]],
        table: list[str | None],
        rng: Rng,
        first_player: int,
    ) -> None:
        self.options = options
        self.flow = Flow(options)  # never in the JSON: derived from `options`
        self.players = players
        self.missions = missions  # never changes after setup: shared by clones
        # card identity -> its mission: derived from `missions`, so never in the JSON
        self.mission_index = {c: m for m, group in enumerate(missions) for c in group}
        # each mission's cards as a bit mask over CARDS (derived the same way, never in JSON)
        self.mission_bits = tuple(sum(1 << CARD_INDEX[c] for c in group) for group in missions)
        self.claimed_by: list[int] = [-1] * len(missions)
        self.hands = hands
        self.table = table
        self.discard: list[str] = []
        self.seen: list[list[str | None]] = [[None] * len(table) for _ in range(players + 1)]
        self.lacks: list[int] = [0] * players
        self.to_move = first_player
        self.phase = "act"
        self.next_seat = -1  # who plays after the current peek decision
        self.turn = 1
        self.first_player = first_player
        self.log_prev: list[Event] = []  # the previous turn's events
        self.log_cur: list[Event] = []  # this turn's events (for views' recent log)
        self.winners: tuple[int, ...] | None = None
        self.end_reason = ""
        self.ended_by_cap = False
        self.rng = rng

    # -- copies -----------------------------------------------------------------------
    def clone(self) -> AdventureState:
        """An independent copy (hand-written: search clones states a lot)."""
        c = AdventureState.__new__(AdventureState)
        c.options = self.options
        c.flow = self.flow
        c.players = self.players
        c.missions = self.missions
        c.mission_index = self.mission_index
        c.mission_bits = self.mission_bits
        c.claimed_by = self.claimed_by.copy()
        c.hands = [h.copy() for h in self.hands]
        c.table = self.table.copy()
        c.discard = self.discard.copy()
        c.seen = [row.copy() for row in self.seen]
        c.lacks = self.lacks.copy()
        c.to_move = self.to_move
        c.phase = self.phase
        c.next_seat = self.next_seat
        c.turn = self.turn
        c.first_player = self.first_player
        c.log_prev = self.log_prev  # replaced, never mutated, when a turn passes
        c.log_cur = self.log_cur.copy()
        c.winners = self.winners
        c.end_reason = self.end_reason
        c.ended_by_cap = self.ended_by_cap
        c.rng = self.rng.clone()
        return c

    # -- small queries ------------------------------------------------------------------
    def holder_of(self, card: str) -> str:
        """Where test-card `card` is: "hand:<seat>", "slot:<n>" or "discard" (for tests, docs)."""
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return f"hand:{seat}"
        for slot, face in enumerate(self.table):
            if face == card:
                return f"slot:{slot}"
        if card in self.discard:
            return "discard"
        raise AssertionError(f"test-card {card} is nowhere")  # broken invariant, not user input

    def mission_of(self, card: str) -> int:
        """The mission (0..5) that contains `card`."""
        for m, group in enumerate(self.missions):
            if card in group:
                return m
        raise KeyError(card)

    def scores(self) -> list[int]:
        """Missions claimed per seat (AC-R12)."""
        out = [0] * self.players
        for seat in self.claimed_by:
            if seat >= 0:
                out[seat] += 1
        return out

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    # -- JSON ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "options": options_to_json(self.options),
            "players": self.players,
            "missions": [list(m) for m in self.missions],
            "claimed_by": list(self.claimed_by),
            "hands": [list(h) for h in self.hands],
            "table": list(self.table),
            "discard": list(self.discard),
            "seen": [list(r) for r in self.seen],
            "lacks": [[c for i, c in enumerate(CARDS) if m >> i & 1] for m in self.lacks],
            "to_move": self.to_move,
            "phase": self.phase,
            "next_seat": self.next_seat,
            "turn": self.turn,
            "first_player": self.first_player,
            "log_prev": [e.to_json() for e in self.log_prev],
            "log_cur": [e.to_json() for e in self.log_cur],
            "winners": None if self.winners is None else list(self.winners),
            "end_reason": self.end_reason,
            "ended_by_cap": self.ended_by_cap,
            "rng": self.rng.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any) -> AdventureState:
        """Inverse of `to_json`; RecordError naming the first thing that is wrong."""
        try:
            return _from_json(data)
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RecordError(
                f"corrupt Adventure Cards state: {type(exc).__name__}: {exc}"
            ) from exc


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise RecordError(f"corrupt Adventure Cards state: {message}")


def _from_json(data: Any) -> AdventureState:
    _need(isinstance(data, dict), "expected a JSON object")
    options = options_from_json(AdventureOptions, data["options"])
    players = data["players"]
    _need(isinstance(players, int) and players in PRINTED_DEAL, "players must be 2..5")
    missions = tuple(tuple(m) for m in data["missions"])
    _need(len(missions) == 6, "missions must hold 6 groups")
    for m in missions:
        _need(
            is_mission_group(m),
            f"mission {list(m)} must be one ship, planet, alien and marvel in that order",
        )
    _need(sorted(c for m in missions for c in m) == sorted(CARDS), "missions must use all 24")
    hands = [list(h) for h in data["hands"]]
    table = list(data["table"])
    discard = list(data["discard"])
    _need(len(hands) == players, "one hand per seat")
    placed = [c for h in hands for c in h] + [c for c in table if c is not None] + discard
    _need(
        sorted(placed) == sorted(CARDS),
        "every test-card must be in exactly one hand, slot or the discard",
    )
    state = AdventureState(options, players, missions, hands, table, Rng.from_json(data["rng"]), 0)
    claimed = list(data["claimed_by"])
    _need(
        len(claimed) == 6 and all(isinstance(s, int) and -1 <= s < players for s in claimed),
        "claimed_by needs 6 seats or -1",
    )
    state.claimed_by = claimed
    state.discard = discard
    expect_discard = sorted(c for m, s in zip(missions, claimed, strict=True) if s >= 0 for c in m)
    _need(sorted(discard) == expect_discard, "the discard must be the claimed missions' cards")
    seen = [list(r) for r in data["seen"]]
    _need(len(seen) == players + 1, "seen needs a row per seat plus the watchers' row")
    for row in seen:
        _need(len(row) == len(table), "each seen row needs one entry per slot")
        for slot, face in enumerate(row):
            _need(face is None or face == table[slot], f"a seen face in slot {slot} is not true")
    state.seen = seen
    lacks = data["lacks"]
    _need(isinstance(lacks, list) and len(lacks) == players, "lacks needs a list per seat")
    state.lacks = [sum(1 << CARD_INDEX[c] for c in row) for row in lacks]
    phase = data["phase"]
    _need(phase in PHASES, f"phase must be one of {PHASES}")
    state.phase = phase
    for key in ("to_move", "next_seat", "first_player", "turn"):
        _need(isinstance(data[key], int) and not isinstance(data[key], bool), f"{key}: integer")
    _need(0 <= data["to_move"] < players, "to_move must be a seat")
    _need(0 <= data["first_player"] < players, "first_player must be a seat")
    _need(phase != "peek" or 0 <= data["next_seat"] < players, "next_seat must be a seat")
    _need(data["turn"] >= 1, "turn must be at least 1")
    state.to_move = data["to_move"]
    state.next_seat = data["next_seat"]
    state.first_player = data["first_player"]
    state.turn = data["turn"]
    state.log_prev = [event_from_json(e) for e in data["log_prev"]]
    state.log_cur = [event_from_json(e) for e in data["log_cur"]]
    winners = data["winners"]
    _need(winners is None or isinstance(winners, list), "winners must be a list or null")
    _need((winners is not None) == (phase == "over"), "winners are set exactly when it is over")
    state.winners = None if winners is None else tuple(int(w) for w in winners)
    _need(isinstance(data["end_reason"], str), "end_reason must be text")
    state.end_reason = data["end_reason"]
    state.ended_by_cap = bool(data["ended_by_cap"])
    return state
