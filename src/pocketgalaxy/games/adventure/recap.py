"""Adventure Cards events in player words, and "what happened since your last turn".

Shared by every shell: the terminal's "What happened" panel (cli/adventure_screen.py) and the web
table's "Since your last turn" panel and full log (web/static/js/adventure_log.js is a faithful
port of `event_text`; a browser test holds the page's sentences against this module). Pure: it
reads events (already filtered for the viewer) and never a state, so it cannot leak a hidden
hand or face. People count table slots and missions from 1; the rules count from 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.games.adventure.content import card_info
from pocketgalaxy.games.adventure.identities import PACK_NAMES


def card_name(identity: str) -> str:
    """`P4` -> `Planet 4 (Name)`, for sentences."""
    pack = PACK_NAMES.get(identity[0], identity[0]).title()
    try:
        name = card_info(identity).name
    except (KeyError, PocketGalaxyError):
        return f"{pack} {identity[1:]}"
    return f"{pack} {identity[1:]} ({name})"


def _kind(e: Any) -> str:
    # Events arrive as dataclasses (terminal) or, in tests of the web, as their JSON dicts.
    return str(e["type"]) if isinstance(e, dict) else type(e).__name__


def _get(e: Any, field: str) -> Any:
    return e[field] if isinstance(e, dict) else getattr(e, field)


def event_text(
    e: Any, names: Sequence[str], viewer: int | None, *, private: bool = False
) -> str | None:
    """One sentence for an Adventure Cards event (None: nothing worth saying).

    `private=True` also words the viewer's own peek result (`PeekSeen`), which the terminal
    shows for a moment only and the web's full log keeps for the peeker alone.
    """
    kind = _kind(e)

    def f(field: str) -> Any:
        return _get(e, field)

    def who(seat: int) -> str:
        return "You" if seat == viewer else names[seat]

    def whom(seat: int) -> str:
        return "you" if seat == viewer else names[seat]

    if kind == "CardsDealt":
        verb = "were" if f("seat") == viewer else "was"
        cards = list(f("cards"))
        return f"{who(f('seat'))} {verb} dealt {len(cards)} test-cards: {' '.join(cards)}."
    if kind == "TableLaid":
        return f"{f('slots')} test-cards were laid face down in slots 1-{f('slots')}."
    if kind == "MissionsLaid":
        return "The six missions were laid face up."
    if kind == "FirstPlayerChosen":
        return f"{who(f('seat'))} {'go' if f('seat') == viewer else 'goes'} first."
    if kind in ("RequestGranted", "RequestRefused"):
        answer = "granted" if kind == "RequestGranted" else "refused"
        asked = f"{who(f('requester'))} asked {whom(f('target'))}"
        return f"{asked} for {card_name(f('card'))}: {answer}."
    if kind == "SlotPeeked":
        return f"{who(f('seat'))} peeked at slot {f('slot') + 1}."
    if kind == "PeekSeen":
        if not private or f("seat") != viewer:
            return None  # the terminal shows it for a moment, never in the log
        return f"You saw {card_name(f('card'))} in slot {f('slot') + 1} (only you saw it)."
    if kind == "PeekSkipped":
        return f"{who(f('seat'))} did not peek."
    if kind == "CardDeclared":
        said = f"{who(f('seat'))} declared slot {f('slot') + 1} is {card_name(f('card'))}"
        if f("correct"):
            return f"{said}: right, and took it."
        return (f"{said}: wrong, it was {card_name(f('revealed_card'))}, shown to all and turned"
                " face down again.")
    if kind == "MissionClaimed":
        shown = " ".join(f("cards"))
        return f"{who(f('seat'))} completed mission {f('mission') + 1} and claimed it ({shown})."
    if kind == "TurnPassed":
        return f"The turn passes to {whom(f('to_seat'))}."
    if kind == "TurnTimedOut":  # a web server notice, not a rules event
        return f"Time ran out for {names[f('seat')]}: a computer player moved for them."
    if kind == "GameEnded":
        winners = list(f("winners"))
        if not winners:
            return "The game is over with no winner."
        won = " and ".join(names[s] for s in winners)
        cap = " (the turn cap was reached)" if f("ended_by_cap") else ""
        return f"The game is over{cap}: {won} {'win' if len(winners) > 1 else 'wins'}."
    return None


_ACTOR_FIELD = {
    "RequestGranted": "requester",
    "RequestRefused": "requester",
    "SlotPeeked": "seat",
    "PeekSeen": "seat",
    "PeekSkipped": "seat",
    "CardDeclared": "seat",
    "MissionClaimed": "seat",
    "TurnPassed": "from_seat",
    "TurnTimedOut": "seat",
}


def event_actor(e: Any) -> int | None:
    """The seat whose move the event reports (None for the deal, the layout and the end)."""
    field = _ACTOR_FIELD.get(_kind(e))
    return None if field is None else int(_get(e, field))


def since_last_turn(events: Sequence[Any], viewer: int | None) -> list[Any]:
    """The events after the viewer's last finished turn, up to the start of its current turn.

    That is every move the others made while the viewer waited. Before the viewer's first turn
    it is everything so far (the deal included). A watcher (None) gets the last turn passed.
    """
    ended = -1  # index after which the others' moves begin
    for i, e in enumerate(events):
        if _kind(e) == "TurnPassed" and (viewer is None or _get(e, "from_seat") == viewer):
            ended = i
    if viewer is None:
        # A watcher: the turns since the one before last, as someone waiting would have seen.
        passes = [i for i, e in enumerate(events) if _kind(e) == "TurnPassed"]
        ended = passes[-2] if len(passes) >= 2 else -1
    out: list[Any] = []
    for e in events[ended + 1 :]:
        out.append(e)
        if viewer is None:
            continue
        kind = _kind(e)
        if (kind == "TurnPassed" and _get(e, "to_seat") == viewer) or (
            kind == "FirstPlayerChosen" and _get(e, "seat") == viewer
        ):
            break  # the viewer's own turn began here: its own moves are not "since"
    return out
