"""The rules of Adventure Cards (docs/rules/adventure.md; rules.md section 3).

One source of truth for legality: `_problem` returns why an action is refused (or None);
`check` raises from it, and `legal_actions` lists exactly the candidates it accepts. `_do`
carries out a checked action in place and returns the events. Turn flow:

- phase "act": the seat to move requests (AC-R8), declares (AC-R9), claims (only when
  `auto_claim` is False, AC-A5) or, with nothing else legal, passes (AC-R10);
- phase "peek": after a refused request the requester peeks at one slot or skips (AC-A3);
- phase "over": the 6th claim (AC-R6) or the turn cap (AC-R14) ended the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any, ClassVar, Final

from pocketgalaxy.core.errors import IllegalActionError, MalformedActionError, OptionsError
from pocketgalaxy.core.game import Action, Event, GameRules, Outcome
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.adventure.actions import (
    ACTION_TYPES,
    ClaimMission,
    DeclareCard,
    PassTurn,
    Peek,
    RequestCard,
    SkipPeek,
)
from pocketgalaxy.games.adventure.events import (
    CardDeclared,
    CardsDealt,
    FirstPlayerChosen,
    GameEnded,
    MissionClaimed,
    MissionsLaid,
    PeekSeen,
    PeekSkipped,
    RequestGranted,
    RequestRefused,
    SlotPeeked,
    TableLaid,
    TurnPassed,
)
from pocketgalaxy.games.adventure.identities import (
    CARD_INDEX,
    CARDS,
    PACKS,
    is_mission_group,
    number_of,
)
from pocketgalaxy.games.adventure.options import AdventureOptions
from pocketgalaxy.games.adventure.state import AdventureState, deal_sizes
from pocketgalaxy.games.adventure.views import AdventureView, build_view

Problem = tuple[str, str, str]
"""(reason code, rule, detail) of a refusal."""

_PINNED_KEYS: Final = ("missions", "hands", "table", "first_player")

# Actions are immutable, so every RequestCard / DeclareCard is built once and shared: listing
# legal actions is then a matter of picking, which search code does a great deal of.
# (Final: compiled with mypyc, these are C statics rather than module-dict look-ups.)
_REQUESTS: Final = {(t, c): RequestCard(t, c) for t in range(5) for c in CARDS}
_DECLARES: Final = {(s, c): DeclareCard(s, c) for s in range(24) for c in CARDS}
_PEEKS: Final = {s: Peek(s) for s in range(24)}
_SKIP: Final = SkipPeek()
_PASS: Final = PassTurn()
_BIT: Final = {c: 1 << i for i, c in enumerate(CARDS)}
_REQUEST_ROWS: Final = [[_REQUESTS[t, c] for c in CARDS] for t in range(5)]
_DECLARE_ROWS: Final = [[_DECLARES[s, c] for c in CARDS] for s in range(24)]

# Memo tables of legal-action lists (speed: a random playout spends most of its time listing).
_CANDIDATES: Final[dict[tuple[int | bool, ...], tuple[Action, ...]]] = {}
_PEEK_LISTS: Final[dict[int, tuple[Action, ...]]] = {}
_PICKERS: Final[dict[int, Callable[[Sequence[Action]], tuple[Action, ...]]]] = {}
_MEMO_LIMIT = 4096  # about 5 MB of shared tuples at most (not Final: a test lowers it)


class AdventureRules(GameRules[AdventureState, AdventureOptions]):
    """Adventure Cards for 2 to 5 astronauts."""

    name: ClassVar[str] = "adventure"
    title: ClassVar[str] = "Adventure Cards"
    options_type: ClassVar[type[Any]] = AdventureOptions
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5

    # -- setup ------------------------------------------------------------------------
    def new(
        self,
        options: AdventureOptions | None = None,
        seed: int = 0,
        *,
        players: int | None = None,
        pinned: Any = None,
    ) -> AdventureState:
        """Lay out the missions (AC-R1), deal (AC-R2) and choose the first player (AC-R3).

        `pinned` = {"missions": [[S, P, A, M] x 6], "hands": [[...] per seat], "table": [...],
        "first_player": seat}; every key is optional, but hands and table go together.
        `players` defaults to the number of pinned hands, else 2.
        """
        opts = options if options is not None else AdventureOptions()
        if not isinstance(opts, AdventureOptions):
            raise OptionsError(f"expected AdventureOptions, got {type(opts).__name__}")
        n = players
        if n is None:  # a pinned deal says how many play; otherwise two
            hands = pinned.get("hands") if isinstance(pinned, dict) else None
            n = len(hands) if isinstance(hands, (list, tuple)) else 2
        if isinstance(n, bool) or not isinstance(n, int):
            raise OptionsError(f"players must be a whole number 2..5, not {n!r}")
        each, on_table = deal_sizes(n, opts.deal)
        pin = _check_pinned(pinned, n, each, on_table)
        rng = Rng(seed)
        if "missions" in pin:
            missions = tuple(tuple(m) for m in pin["missions"])
        else:
            packs = []
            for p in PACKS:  # AC-R1 / AC-A16: shuffle each pack, pair position by position
                pack = [f"{p}{k}" for k in range(1, 7)]
                rng.shuffle(pack)
                packs.append(pack)
            missions = tuple(tuple(pack[m] for pack in packs) for m in range(6))
        if "hands" in pin:
            hands = [list(h) for h in pin["hands"]]
            table: list[str | None] = list(pin["table"])
        else:
            deck = list(CARDS)
            rng.shuffle(deck)
            hands = [deck[i * each : (i + 1) * each] for i in range(n)]
            table = list(deck[n * each :])
        if "first_player" in pin:
            first = pin["first_player"]
        elif opts.first_player == "seat0":
            first = 0
        else:
            first = rng.below(n)
        state = AdventureState(opts, n, missions, hands, table, rng, first)
        log = state.log_cur
        log.append(MissionsLaid(missions))
        log.append(TableLaid(len(table)))
        for seat, hand in enumerate(hands):
            log.append(CardsDealt(seat, tuple(hand), audience=(seat,)))
        log.append(FirstPlayerChosen(first))
        _claims(state, first)  # a mission dealt complete is claimed at once (AC-A5); it logs itself
        return state

    def opening_events(self, state: AdventureState) -> list[Event]:
        """The deal's events (missions, table, each hand to its owner, first player, early claims).

        Valid for a state fresh from `new`: they are the first turn's log until an action is made.
        """
        return list(state.log_cur)

    # -- the contract -----------------------------------------------------------------
    def to_act(self, state: AdventureState) -> int | None:
        return None if state.phase == "over" else state.to_move

    def check(self, state: AdventureState, seat: int, action: Action) -> None:
        if not isinstance(action, ACTION_TYPES):
            raise MalformedActionError(
                action, "not an Adventure Cards action", allowed=[t.__name__ for t in ACTION_TYPES]
            )
        problem = _problem(state, seat, action)
        if problem is not None:
            reason, rule, detail = problem
            allowed = [repr(a) for a in self.legal_actions(state, seat)] if seat >= 0 else []
            raise IllegalActionError(action, seat, reason, rule, detail, allowed=allowed)

    def legal_actions(self, state: AdventureState, seat: int) -> list[Action]:
        if state.phase == "over" or seat != state.to_move:
            return []
        if state.phase == "peek":
            occupied = _occupancy(state.table)
            peeks = _PEEK_LISTS.get(occupied)
            if peeks is None:
                peeks = _PEEK_LISTS[occupied] = (
                    *(_PEEKS[s] for s, c in enumerate(state.table) if c is not None),
                    _SKIP,
                )
            return list(peeks)
        out = _act_candidates(state, seat)
        if not out:
            out.append(_PASS)
        return out

    def _do(self, state: AdventureState, seat: int, action: Action) -> list[Event]:
        if isinstance(action, RequestCard):
            return _request(state, seat, action.target, action.card)
        if isinstance(action, DeclareCard):
            return _declare(state, seat, action.slot, action.card)
        if isinstance(action, Peek):
            return _peek(state, seat, action.slot)
        if isinstance(action, SkipPeek):
            events: list[Event] = [PeekSkipped(seat)]
            state.log_cur.extend(events)
            return events + _pass_turn(state, seat, state.next_seat, "request_refused")
        if isinstance(action, ClaimMission):
            return _claim(state, seat, action.mission)
        if isinstance(action, PassTurn):
            return _pass_turn(state, seat, (seat + 1) % state.players, "no_legal_action")
        raise MalformedActionError(action, "not an Adventure Cards action")  # check() stops these

    def view(self, state: AdventureState, seat: int | None) -> AdventureView:
        if seat is not None and not 0 <= seat < state.players:
            raise OptionsError(
                f"no seat {seat!r} in a {state.players}-player game",
                allowed=[str(s) for s in range(state.players)],
            )
        legal = self.legal_actions(state, seat) if seat is not None else []
        return build_view(state, seat, legal, self.outcome(state))

    def outcome(self, state: AdventureState) -> Outcome | None:
        if state.winners is None:
            return None
        return Outcome(
            winners=state.winners,
            reason=state.end_reason,
            scores=tuple(float(s) for s in state.scores()),
            ended_by_cap=state.ended_by_cap,
        )

    def state_from_json(self, data: dict[str, Any]) -> AdventureState:
        return AdventureState.from_json(data)

    def describe_action(self, action: Action) -> str:
        return repr(action)


# -- legality ---------------------------------------------------------------------------
def _problem(state: AdventureState, seat: int, action: Action) -> Problem | None:
    """Why `seat` may not take `action` now, or None when it may."""
    if state.phase == "over":
        return ("game_over", "AC-R6", "the game has ended")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        return ("no_such_seat", "AC-R2", f"seats are 0..{state.players - 1}")
    if seat != state.to_move:
        return ("not_your_turn", "AC-R7", f"seat {state.to_move} to act")
    if state.phase == "peek":
        if isinstance(action, Peek):
            return _slot_problem(state, action.slot, "AC-A3")
        if isinstance(action, SkipPeek):
            return None
        return ("wrong_phase", "AC-A3", "after a refused request: Peek(slot) or SkipPeek()")
    if isinstance(action, RequestCard):
        return _request_problem(state, seat, action.target, action.card)
    if isinstance(action, DeclareCard):
        return _declare_problem(state, seat, action.slot, action.card)
    if isinstance(action, ClaimMission):
        return _claim_problem(state, seat, action.mission)
    if isinstance(action, PassTurn):
        if _act_candidates(state, seat):
            return ("has_legal_action", "AC-R10", "pass only when nothing else is legal")
        return None
    return ("wrong_phase", "AC-A3", "Peek and SkipPeek only right after a refused request")


def _request_problem(state: AdventureState, seat: int, target: int, card: str) -> Problem | None:
    opts = state.options
    if target == seat:
        return ("self_request", "AC-R8", "ask another player")
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < state.players:
        return ("no_such_seat", "AC-R8", f"seats are 0..{state.players - 1}")
    hand = state.hands[seat]
    if card in hand:
        return ("card_in_own_hand", "AC-A2", f"{card} is already in your hand")
    if card in state.discard:
        return ("card_discarded", "AC-A2", f"{card} was discarded with a claimed mission")
    if opts.require_mission_card_to_request and not _holds_mission_mate(state, seat, card):
        return (
            "need_mission_card",
            "AC-A1",
            f"hold a card of {card}'s mission to ask for it (require_mission_card_to_request)",
        )
    if opts.forbid_empty_targets and not state.hands[target]:
        return ("empty_target", "AC-A12", f"seat {target} holds no cards (forbid_empty_targets)")
    if opts.forbid_known_misses and state.lacks[target] >> CARD_INDEX[card] & 1:
        return (
            "known_miss",
            "AC-A2",
            f"everyone saw seat {target} lack {card} (forbid_known_misses)",
        )
    return None


def _declare_problem(state: AdventureState, seat: int, slot: int, card: str) -> Problem | None:
    problem = _slot_problem(state, slot, "AC-R9")
    if problem is not None:
        return problem
    if not state.options.allow_any_declaration:
        if card in state.hands[seat]:
            return ("card_in_own_hand", "AC-A13", f"{card} is in your hand, so it is not there")
        if card in state.discard:
            return ("card_discarded", "AC-A13", f"{card} was discarded with a claimed mission")
    return None


def _slot_problem(state: AdventureState, slot: int, rule: str) -> Problem | None:
    if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < len(state.table):
        return ("no_such_slot", rule, f"slots are 0..{len(state.table) - 1}")
    if state.table[slot] is None:
        return ("empty_slot", rule, f"slot {slot} is empty (slots keep their place, AC-A15)")
    return None


def _claim_problem(state: AdventureState, seat: int, mission: int) -> Problem | None:
    if state.options.auto_claim:
        return ("claims_automatic", "AC-A5", "missions are claimed automatically (auto_claim)")
    if isinstance(mission, bool) or not isinstance(mission, int) or not 0 <= mission < 6:
        return ("no_such_mission", "AC-A5", "missions are 0..5")
    if state.claimed_by[mission] >= 0:
        return ("mission_claimed", "AC-R5", f"seat {state.claimed_by[mission]} claimed it")
    hand = state.hands[seat]
    missing = [c for c in state.missions[mission] if c not in hand]
    if missing:
        return ("mission_not_solved", "AC-R4", f"missing {', '.join(missing)}")
    return None


def _holds_mission_mate(state: AdventureState, seat: int, card: str) -> bool:
    hand = state.hands[seat]
    for group in state.missions:
        if card in group:
            return any(c in hand for c in group)
    return False


def _occupancy(table: list[str | None]) -> int:
    """A bit per occupied table slot."""
    bits = 0
    for slot, face in enumerate(table):
        if face is not None:
            bits |= 1 << slot
    return bits


def _act_candidates(state: AdventureState, seat: int) -> list[Action]:
    """Every legal phase-"act" action except PassTurn (`_build_candidates`, made fast).

    Under the options that do not narrow requests (the defaults), the requests depend only on
    the player count, the seat and the cards it cannot name (own hand and discard): that is the
    key of the `_CANDIDATES` memo. Declarations are picked per occupied slot from the same mask.
    Other options build afresh.
    """
    opts = state.options
    if (
        opts.require_mission_card_to_request
        or opts.forbid_empty_targets
        or opts.forbid_known_misses
        or not opts.auto_claim
    ):
        return _build_candidates(state, seat)
    gone = 0
    for c in state.hands[seat]:
        gone |= _BIT[c]
    for c in state.discard:
        gone |= _BIT[c]
    key = (state.players, seat, gone)
    requests = _CANDIDATES.get(key)
    if requests is None:
        if len(_CANDIDATES) >= _MEMO_LIMIT:
            _CANDIDATES.clear()  # a crude bound; keys repeat heavily within a game
        requests = _CANDIDATES[key] = _plain_requests(state.players, seat, gone)
    out = list(requests)
    pick = _picker(0 if opts.allow_any_declaration else gone)
    rows = _DECLARE_ROWS
    for slot, face in enumerate(state.table):
        if face is not None:
            out.extend(pick(rows[slot]))
    return out


def _plain_requests(players: int, seat: int, gone: int) -> tuple[Action, ...]:
    """The requests of `_build_candidates` under the plain options, from the bit mask (same
    actions, same order: by target then card; a test holds them equal)."""
    pick = _picker(gone)
    out: list[Action] = []
    for target in range(players):
        if target != seat:
            out.extend(pick(_REQUEST_ROWS[target]))
    return tuple(out)


def _picker(gone: int) -> Callable[[Sequence[Action]], tuple[Action, ...]]:
    """A function taking, from a row of 24 actions (one per card), those of cards not in
    `gone`, in card order. Cached by mask: an itemgetter does the picking at C speed."""
    pick = _PICKERS.get(gone)
    if pick is None:
        names = [i for i in range(len(CARDS)) if not gone >> i & 1]
        if len(names) >= 2:
            pick = itemgetter(*names)
        else:
            def pick(row: Sequence[Action], names: list[int] = names) -> tuple[Action, ...]:
                return tuple(row[i] for i in names)
        if len(_PICKERS) >= _MEMO_LIMIT:
            _PICKERS.clear()
        _PICKERS[gone] = pick
    return pick


def _build_candidates(state: AdventureState, seat: int) -> list[Action]:
    """Every legal phase-"act" action except PassTurn, built from the same predicates."""
    out: list[Action] = []
    opts = state.options
    hand = state.hands[seat]
    gone = set(hand)
    gone.update(state.discard)
    askable = [c for c in CARDS if c not in gone]
    if opts.require_mission_card_to_request:
        askable = [c for c in askable if _holds_mission_mate(state, seat, c)]
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
    if not opts.auto_claim:
        out.extend(
            ClaimMission(m) for m in range(6) if _claim_problem(state, seat, m) is None
        )
    return out


# -- effects ----------------------------------------------------------------------------
def _request(state: AdventureState, seat: int, target: int, card: str) -> list[Event]:
    bit = 1 << CARD_INDEX[card]
    state.lacks[target] |= bit  # either way, everyone now knows the target lacks it
    if card in state.hands[target]:
        state.hands[target].remove(card)
        state.hands[seat].append(card)
        state.lacks[seat] &= ~bit
        events: list[Event] = [RequestGranted(seat, target, card)]
        state.log_cur.extend(events)
        events += _claims(state, seat)
        return events
    events = [RequestRefused(seat, target, card)]
    state.log_cur.extend(events)
    nxt = target if state.options.next_after_failed_request == "asked_player" else seat + 1
    nxt %= state.players
    if state.options.peek_after_failed_request and any(c is not None for c in state.table):
        state.phase = "peek"
        state.next_seat = nxt
        return events
    return events + _pass_turn(state, seat, nxt, "request_refused")


def _peek(state: AdventureState, seat: int, slot: int) -> list[Event]:
    """AC-A3: the slot is public, the face only for the peeker; then the turn passes."""
    face = state.table[slot]
    assert face is not None
    state.seen[seat][slot] = face
    events: list[Event] = [SlotPeeked(seat, slot), PeekSeen(seat, slot, face, (seat,))]
    state.log_cur.extend(events)
    return events + _pass_turn(state, seat, state.next_seat, "request_refused")


def _declare(state: AdventureState, seat: int, slot: int, card: str) -> list[Event]:
    face = state.table[slot]
    assert face is not None
    correct = face == card
    events: list[Event] = [CardDeclared(seat, slot, card, correct, face)]
    state.log_cur.extend(events)
    if correct:
        state.table[slot] = None
        for row in state.seen:
            row[slot] = None
        state.hands[seat].append(face)
        state.lacks[seat] &= ~(1 << CARD_INDEX[face])
        return events + _claims(state, seat)
    for row in state.seen:  # turned face up: everyone saw it (AC-A4)
        row[slot] = face
    return events + _pass_turn(state, seat, (seat + 1) % state.players, "declaration_missed")


def _claims(state: AdventureState, seat: int) -> list[Event]:
    """AC-R5: with auto_claim, claim every solved mission of `seat` now (and maybe end)."""
    if not state.options.auto_claim or state.phase == "over":
        return []
    hand = state.hands[seat]
    if len(hand) < 4:
        return []
    counts = [0] * len(state.missions)
    mission_index = state.mission_index
    for c in hand:
        counts[mission_index[c]] += 1
    events: list[Event] = []
    for m, held in enumerate(counts):  # 4 of one mission in hand: it is solved
        if held == 4 and state.claimed_by[m] < 0:
            events += _claim(state, seat, m)
            if state.phase == "over":
                break
    return events


def _claim(state: AdventureState, seat: int, mission: int) -> list[Event]:
    group = state.missions[mission]
    hand = state.hands[seat]
    for c in group:
        hand.remove(c)
    state.discard.extend(group)
    state.claimed_by[mission] = seat
    events: list[Event] = [MissionClaimed(seat, mission, tuple(group))]
    state.log_cur.extend(events)
    if all(s >= 0 for s in state.claimed_by):
        events += _end(state, "all_missions_claimed", by_cap=False)
    return events


def _pass_turn(state: AdventureState, from_seat: int, to_seat: int, reason: str) -> list[Event]:
    if state.turn >= state.options.max_turns:
        return _end(state, "turn_cap", by_cap=True)
    state.turn += 1
    state.to_move = to_seat
    state.phase = "act"
    state.next_seat = -1
    event = TurnPassed(from_seat, to_seat, reason)
    state.log_prev = state.log_cur
    state.log_cur = [event]
    return [event, *_claims(state, to_seat)]


def _end(state: AdventureState, reason: str, *, by_cap: bool) -> list[Event]:
    state.phase = "over"
    state.next_seat = -1
    state.winners = winners_of(state)
    state.end_reason = reason
    state.ended_by_cap = by_cap
    event = GameEnded(state.winners, reason, by_cap)
    state.log_cur.append(event)
    return [event]


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


# -- pinned deals -----------------------------------------------------------------------
def _check_pinned(pinned: Any, players: int, each: int, on_table: int) -> dict[str, Any]:
    """Validate a pinned deal; OptionsError naming what is wrong and what is expected."""
    if pinned is None:
        return {}
    if not isinstance(pinned, dict):
        raise OptionsError("pinned must be an object with missions, hands, table, first_player")
    unknown = sorted(set(pinned) - set(_PINNED_KEYS))
    if unknown:
        raise OptionsError(f"unknown pinned key(s) {unknown}", allowed=list(_PINNED_KEYS))
    out: dict[str, Any] = {}
    if "missions" in pinned:
        missions = pinned["missions"]
        ok = isinstance(missions, (list, tuple)) and len(missions) == 6
        ok = ok and all(is_mission_group(g) for g in missions)
        if not ok or sorted(c for g in missions for c in g) != sorted(CARDS):
            raise OptionsError(
                "pinned missions must be 6 groups [ship, planet, alien, marvel] using each of "
                f"the 24 identities once (AC-R1), got {missions!r}"
            )
        out["missions"] = [list(g) for g in missions]
    if ("hands" in pinned) != ("table" in pinned):
        raise OptionsError("pinned hands and table go together (AC-R2)")
    if "hands" in pinned:
        hands, table = pinned["hands"], pinned["table"]
        if not isinstance(hands, (list, tuple)) or len(hands) != players:
            raise OptionsError(f"pinned hands need one list per seat ({players})")
        for seat, hand in enumerate(hands):
            if not isinstance(hand, (list, tuple)) or len(hand) != each:
                raise OptionsError(
                    f"pinned hand of seat {seat} must hold {each} cards for {players} players "
                    f"(AC-R2), got {hand!r}"
                )
        if not isinstance(table, (list, tuple)) or len(table) != on_table:
            raise OptionsError(
                f"pinned table must hold {on_table} cards for {players} players (AC-R2), "
                f"got {table!r}"
            )
        dealt = [c for h in hands for c in h] + list(table)
        if sorted(map(str, dealt)) != sorted(CARDS) or not all(isinstance(c, str) for c in dealt):
            raise OptionsError(
                "pinned hands and table must use each of the 24 test-cards exactly once (AC-R2)"
            )
        out["hands"] = [list(h) for h in hands]
        out["table"] = list(table)
    if "first_player" in pinned:
        first = pinned["first_player"]
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
            raise OptionsError(f"pinned first_player must be a seat 0..{players - 1}")
        out["first_player"] = first
    return out
