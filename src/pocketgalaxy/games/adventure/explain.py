"""Refusals of Adventure Cards in the player's words.

The rules refuse with a stable reason code and a rule number (legality.py `problem`); this module
turns (code, rule, action, the seat's view) into one sentence for a person: cards by their
illustration name and pack number ("Lantern Barge (space ship 5)"), table slots, missions and
seats counted from 1, players by name, and the rule number at the end, for example
"You already hold Lantern Barge (space ship 5): ask for a card you don't have. (AC-A2)".

It reads only the view and the public card content, never a state, so a sentence cannot tell a
seat more than its view holds. It plays no part in deciding legality: the rules keep their codes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.games.adventure.content import card_info
from pocketgalaxy.games.adventure.identities import PACK_NAMES
from pocketgalaxy.games.adventure.views import AdventureView

_Explainer = Callable[["_Words"], str]


def card_words(identity: Any) -> str:
    """`S5` -> `Lantern Barge (space ship 5)`; anything that is not an identity, as typed."""
    text = str(identity)
    pack = PACK_NAMES.get(text[:1])
    if pack is None or not text[1:].isdigit():
        return text
    try:
        name = card_info(text).name
    except (KeyError, PocketGalaxyError):
        return f"{pack} {text[1:]}"
    return f"{name} ({pack} {text[1:]})"


def _count(value: Any) -> str:
    """A 0-based position as the person counts it (from 1); anything else as typed."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value + 1)
    return repr(value)


def _list(words: Sequence[str]) -> str:
    items = list(words)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


def _ranges(numbers: Sequence[int]) -> str:
    """[1, 2, 3, 5] -> "1-3, 5" (numbers as shown, from 1)."""
    out: list[str] = []
    run: list[int] = []
    for n in sorted(numbers):
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)))
        run = [n]
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)))
    return ", ".join(out)


class _Words:
    """What a sentence may draw on: the action, the rule and the seat's view."""

    def __init__(self, rule: str, action: Any, view: AdventureView,
                 names: Sequence[str] | None) -> None:
        self.rule = rule
        self.action = action
        self.view = view
        self.names = list(names or ())

    def player(self, seat: Any) -> str:
        if seat == self.view.seat:
            return "you"
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.names):
            return self.names[seat]
        return f"player {_count(seat)}"

    def others(self) -> str:
        seats = [s for s in range(self.view.players) if s != self.view.seat]
        return _list([self.player(s) for s in seats])

    def card(self) -> str:
        return card_words(getattr(self.action, "card", "?"))

    def slot(self) -> str:
        return _count(getattr(self.action, "slot", None))

    def full_slots(self) -> str:
        return _ranges([s + 1 for s in self.view.occupied_slots])

    def mission(self) -> Any:
        return getattr(self.action, "mission", None)

    def mission_of(self, identity: str) -> int | None:
        for m, group in enumerate(self.view.missions):
            if identity in group:
                return m
        return None


def _game_over(w: _Words) -> str:
    return "The game is over: no more moves can be made."


def _no_such_seat(w: _Words) -> str:
    target = getattr(w.action, "target", None)
    if target is None:
        return f"That seat does not play in this game: the players are 1-{w.view.players}."
    return (f"There is no player {_count(target)} in this game: ask {w.others()} "
            f"(players 1-{w.view.players}).")


def _not_your_turn(w: _Words) -> str:
    to_act = w.view.to_act
    if to_act is None:
        return "The game is over: no more moves can be made."
    who = w.player(to_act)
    return f"It is not your turn: wait for {who} ({'player ' + _count(to_act)}) to play."


def _wrong_phase(w: _Words) -> str:
    if w.view.phase == "peek":
        return ("Your request was refused, so now you may only peek at one table slot or skip "
                "(peek SLOT or skip).")
    return ("You may peek only right after a request of yours is refused: now ask a player for "
            "a card or declare a table slot.")


def _self_request(w: _Words) -> str:
    return f"You cannot ask yourself for a card: ask {w.others()}."


def _card_in_own_hand(w: _Words) -> str:
    if w.rule == "AC-A13":
        return (f"You hold {w.card()} yourself, so it cannot be on the table: name a card you "
                "don't have.")
    return f"You already hold {w.card()}: ask for a card you don't have."


def _card_discarded(w: _Words) -> str:
    if w.rule == "AC-A13":
        return (f"{w.card()} left the game with a claimed mission, so it is not on the table: "
                "name another card.")
    return (f"{w.card()} left the game with a claimed mission, so nobody holds it: ask for "
            "another card.")


def _need_mission_card(w: _Words) -> str:
    m = w.mission_of(str(getattr(w.action, "card", "")))
    where = f"mission {m + 1}" if m is not None else "its mission"
    return (f"To ask for {w.card()} you must already hold a card of {where} in this game: ask "
            "for a card of a mission you have started.")


def _empty_target(w: _Words) -> str:
    who = w.player(getattr(w.action, "target", None))
    return f"{who[:1].upper()}{who[1:]} holds no cards in this game: ask a player who has some."


def _known_miss(w: _Words) -> str:
    who = w.player(getattr(w.action, "target", None))
    return (f"Everyone saw that {who} does not have {w.card()}: in this game you must ask "
            "for something else.")


def _no_such_slot(w: _Words) -> str:
    n = len(w.view.table)
    return f"There is no table slot {w.slot()}: the slots are 1-{n}."


def _empty_slot(w: _Words) -> str:
    full = w.full_slots()
    then = f" choose one with a card: {full}" if full else " no slot holds a card now"
    return (f"Table slot {w.slot()} is empty (its card was taken; slots keep their numbers):"
            f"{then}.")


def _claims_automatic(w: _Words) -> str:
    return "Missions are claimed automatically in this game: there is nothing to claim by hand."


def _no_such_mission(w: _Words) -> str:
    return f"There is no mission {_count(w.mission())}: the missions are 1-6."


def _mission_claimed(w: _Words) -> str:
    m = w.mission()
    owner = w.view.claimed_by[m] if isinstance(m, int) and 0 <= m < 6 else None
    by = f" by {w.player(owner)}" if owner is not None else ""
    return f"Mission {_count(m)} was already claimed{by}: claim another mission."


def _mission_not_solved(w: _Words) -> str:
    m = w.mission()
    if not isinstance(m, int) or not 0 <= m < len(w.view.missions):
        return "That mission is not complete yet: you need all four of its cards."
    missing = [card_words(c) for c in w.view.missions[m] if c not in w.view.hand]
    return (f"Mission {m + 1} is not complete yet: you still need "
            f"{', '.join(missing) or 'all four cards'}.")


def _has_legal_action(w: _Words) -> str:
    return ("You may pass only when there is nothing else to do: ask a player for a card or "
            "declare a table slot.")


EXPLAINERS: dict[str, _Explainer] = {
    "game_over": _game_over,
    "no_such_seat": _no_such_seat,
    "not_your_turn": _not_your_turn,
    "wrong_phase": _wrong_phase,
    "self_request": _self_request,
    "card_in_own_hand": _card_in_own_hand,
    "card_discarded": _card_discarded,
    "need_mission_card": _need_mission_card,
    "empty_target": _empty_target,
    "known_miss": _known_miss,
    "no_such_slot": _no_such_slot,
    "empty_slot": _empty_slot,
    "claims_automatic": _claims_automatic,
    "no_such_mission": _no_such_mission,
    "mission_claimed": _mission_claimed,
    "mission_not_solved": _mission_not_solved,
    "has_legal_action": _has_legal_action,
}
"""One sentence maker per refusal code the rules can return (a test holds them equal)."""


def explain(reason: str, rule: str, action: Any, view: AdventureView,
            names: Sequence[str] | None = None) -> str:
    """The refusal `reason` (a code like "card_in_own_hand", with or without "action/") of
    `action` under `rule`, for the seat of `view`, as one sentence ending with the rule number.
    `names` are the players' names by seat (otherwise "player 1", "player 2", ...)."""
    code = reason.removeprefix("action/")
    maker = EXPLAINERS.get(code)
    words = _Words(rule, action, view, names)
    text = maker(words) if maker is not None else "That move is not allowed now."
    text = text[:1].upper() + text[1:]
    return f"{text} ({rule})" if rule and rule != "game" else text
