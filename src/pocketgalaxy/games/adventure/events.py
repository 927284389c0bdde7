"""The events of Adventure Cards: frozen dataclasses in the past tense, each with its audience.

`audience` is None for a public event, or the seats that may see it (`core.game.visible_events`
filters them). Private events: `CardsDealt` (the dealt hand) and `PeekSeen` (the peeked face).
Everything else is public, including the true face on a missed declaration (AC-A4).
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import Any

from pocketgalaxy.core.errors import RecordError
from pocketgalaxy.core.game import Event

Audience = tuple[int, ...] | None

# Each event writes its own `__init__` (the dataclass keeps its fields, repr, equality and frozen
# guard): compiled with mypyc it builds the event in C, where the dataclass-made `__init__`
# stays interpreted code. Parameters are the fields, in order (docs/speed.md).


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """`seat` was dealt `cards` (private to that seat)."""

    seat: int
    cards: tuple[str, ...]
    audience: Audience = None

    def __init__(self, seat: int, cards: tuple[str, ...], audience: Audience = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class TableLaid(Event):
    """`slots` test-cards were laid face down in slots 0..slots-1 (AC-R2)."""

    slots: int
    audience: Audience = None

    def __init__(self, slots: int, audience: Audience = None) -> None:
        object.__setattr__(self, "slots", slots)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class MissionsLaid(Event):
    """The six missions, each (ship, planet, alien, marvel), were laid face up (AC-R1)."""

    missions: tuple[tuple[str, ...], ...]
    audience: Audience = None

    def __init__(self, missions: tuple[tuple[str, ...], ...], audience: Audience = None) -> None:
        object.__setattr__(self, "missions", missions)
        object.__setattr__(self, "audience", audience)

    def to_json(self) -> dict[str, Any]:
        # Nested tuples become lists too, so the JSON is the same after a round trip.
        return {
            "type": "MissionsLaid",
            "missions": [list(m) for m in self.missions],
            "audience": None if self.audience is None else list(self.audience),
        }


@dataclass(frozen=True, slots=True)
class FirstPlayerChosen(Event):
    """`seat` takes the first turn (AC-R3)."""

    seat: int
    audience: Audience = None

    def __init__(self, seat: int, audience: Audience = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class RequestGranted(Event):
    """`target` handed `card` to `requester` (AC-R8)."""

    requester: int
    target: int
    card: str
    audience: Audience = None

    def __init__(self, requester: int, target: int, card: str, audience: Audience = None) -> None:
        object.__setattr__(self, "requester", requester)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class RequestRefused(Event):
    """`target` did not hold `card` when `requester` asked for it (AC-R8)."""

    requester: int
    target: int
    card: str
    audience: Audience = None

    def __init__(self, requester: int, target: int, card: str, audience: Audience = None) -> None:
        object.__setattr__(self, "requester", requester)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class SlotPeeked(Event):
    """`seat` peeked at table slot `slot`; everyone sees which slot, not the face (AC-A3)."""

    seat: int
    slot: int
    audience: Audience = None

    def __init__(self, seat: int, slot: int, audience: Audience = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "slot", slot)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class PeekSeen(Event):
    """The face `card` of slot `slot`, seen by `seat` alone (AC-A3)."""

    seat: int
    slot: int
    card: str
    audience: Audience = None

    def __init__(self, seat: int, slot: int, card: str, audience: Audience = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "slot", slot)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class PeekSkipped(Event):
    """`seat` declined the peek after a refused request (AC-A3)."""

    seat: int
    audience: Audience = None

    def __init__(self, seat: int, audience: Audience = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class CardDeclared(Event):
    """`seat` named `card` for slot `slot`; the face `revealed_card` was shown to all (AC-R9).

    On a hit the card went to the declarer; on a miss it went back face down (AC-A4).
    """

    seat: int
    slot: int
    card: str
    correct: bool
    revealed_card: str
    audience: Audience = None

    def __init__(
        self,
        seat: int,
        slot: int,
        card: str,
        correct: bool,
        revealed_card: str,
        audience: Audience = None,
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "slot", slot)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "correct", correct)
        object.__setattr__(self, "revealed_card", revealed_card)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class MissionClaimed(Event):
    """`seat` showed and discarded `cards`, solving mission `mission` (0..5) (AC-R5)."""

    seat: int
    mission: int
    cards: tuple[str, ...]
    audience: Audience = None

    def __init__(
        self, seat: int, mission: int, cards: tuple[str, ...], audience: Audience = None
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "mission", mission)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    """The turn went from `from_seat` to `to_seat`.

    `reason`: "request_refused", "declaration_missed" or "no_legal_action".
    """

    from_seat: int
    to_seat: int
    reason: str
    audience: Audience = None

    def __init__(
        self, from_seat: int, to_seat: int, reason: str, audience: Audience = None
    ) -> None:
        object.__setattr__(self, "from_seat", from_seat)
        object.__setattr__(self, "to_seat", to_seat)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game is over. `reason`: "all_missions_claimed" or "turn_cap" (AC-R6, AC-R14)."""

    winners: tuple[int, ...]
    reason: str
    ended_by_cap: bool
    audience: Audience = None

    def __init__(
        self, winners: tuple[int, ...], reason: str, ended_by_cap: bool, audience: Audience = None
    ) -> None:
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "ended_by_cap", ended_by_cap)
        object.__setattr__(self, "audience", audience)


EVENT_TYPES: tuple[type[Event], ...] = (
    CardsDealt,
    TableLaid,
    MissionsLaid,
    FirstPlayerChosen,
    RequestGranted,
    RequestRefused,
    SlotPeeked,
    PeekSeen,
    PeekSkipped,
    CardDeclared,
    MissionClaimed,
    TurnPassed,
    GameEnded,
)
_BY_NAME: dict[str, type[Event]] = {t.__name__: t for t in EVENT_TYPES}


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


def event_from_json(data: Any) -> Event:
    """Inverse of `Event.to_json()` for the events above; RecordError on anything else."""
    if not isinstance(data, dict) or data.get("type") not in _BY_NAME:
        raise RecordError(f"not an Adventure Cards event: {data!r}")
    cls = _BY_NAME[data["type"]]
    names = [f.name for f in dataclasses.fields(cls)]
    hints = typing.get_type_hints(cls)
    if set(data) - {"type"} != set(names):
        raise RecordError(f"event {data['type']} needs the fields {names}, got {sorted(data)}")
    kwargs: dict[str, Any] = {}
    for name in names:
        value = _tupled(data[name])
        expected = hints[name]
        if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise RecordError(f"event {data['type']}: field {name!r} should be a whole number")
        if expected is str and not isinstance(value, str):
            raise RecordError(f"event {data['type']}: field {name!r} should be text")
        kwargs[name] = value
    return cls(**kwargs)
