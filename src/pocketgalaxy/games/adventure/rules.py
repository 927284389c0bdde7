"""The rules of Adventure Cards (docs/rules/adventure.md; rules.md section 3).

This module is the `GameRules` contract and the deal; the rest lives by job: `legality.py` says
why an action is refused (`check` raises from it), `listing.py` lists exactly the actions it
accepts, `effects.py` carries a checked action out in place (with events, or quietly for
playouts). `Problem` and `winners_of` stay importable from here. Turn flow:Turn flow:

- phase "act": the seat to move requests (AC-R8), declares (AC-R9), claims (only when
  `auto_claim` is False, AC-A5) or, with nothing else legal, passes (AC-R10);
- phase "peek": after a refused request the requester peeks at one slot or skips (AC-A3);
- phase "over": the 6th claim (AC-R6) or the turn cap (AC-R14) ended the game.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from pocketgalaxy.core.errors import IllegalActionError, MalformedActionError, OptionsError
from pocketgalaxy.core.game import Action, Event, GameRules, Outcome
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.adventure.actions import ACTION_TYPES
from pocketgalaxy.games.adventure.effects import act, claims, winners_of
from pocketgalaxy.games.adventure.events import (
    CardsDealt,
    FirstPlayerChosen,
    MissionsLaid,
    TableLaid,
)
from pocketgalaxy.games.adventure.identities import CARDS, PACKS, is_mission_group
from pocketgalaxy.games.adventure.legality import Problem, problem
from pocketgalaxy.games.adventure.listing import legal_list
from pocketgalaxy.games.adventure.options import AdventureOptions
from pocketgalaxy.games.adventure.state import AdventureState, deal_sizes
from pocketgalaxy.games.adventure.views import AdventureView, build_view

__all__ = ["AdventureRules", "Problem", "winners_of"]

_PINNED_KEYS: Final = ("missions", "hands", "table", "first_player")
_DEFAULTS: Final = AdventureOptions()  # frozen, so one shared instance serves every game
# Each identity as the one string object of CARDS: the state then holds only those, so the
# rules' look-ups and `in` tests match by identity before comparing characters (speed only).
_SAME: Final = {c: c for c in CARDS}


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
        opts = options if options is not None else _DEFAULTS
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
            missions = tuple(tuple(_SAME[c] for c in m) for m in pin["missions"])
        else:
            packs = []
            for p in PACKS:  # AC-R1 / AC-A16: shuffle each pack, pair position by position
                pack = [_SAME[f"{p}{k}"] for k in range(1, 7)]
                rng.shuffle(pack)
                packs.append(pack)
            missions = tuple(tuple(pack[m] for pack in packs) for m in range(6))
        if "hands" in pin:
            hands = [[_SAME[c] for c in h] for h in pin["hands"]]
            table: list[str | None] = [_SAME[c] for c in pin["table"]]
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
        claims(state, first, [])  # a mission dealt complete is claimed at once (AC-A5); logged
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
        refusal = problem(state, seat, action)
        if refusal is not None:
            reason, rule, detail = refusal
            allowed = [repr(a) for a in self.legal_actions(state, seat)] if seat >= 0 else []
            raise IllegalActionError(action, seat, reason, rule, detail, allowed=allowed)

    def legal_actions(self, state: AdventureState, seat: int) -> list[Action]:
        return legal_list(state, seat)

    def _do(self, state: AdventureState, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        act(state, seat, action, events)
        return events

    def apply_quiet(self, state: AdventureState, seat: int, action: Action) -> None:
        """`apply_unchecked` with no events and no turn log: the same state otherwise, and the
        same random stream (effects.py). For playouts, simulations and search."""
        act(state, seat, action, None)

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
