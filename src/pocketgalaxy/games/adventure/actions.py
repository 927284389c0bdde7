"""The actions of Adventure Cards: frozen dataclasses named as commands.

Identities are checked and made canonical when an action is built, so `RequestCard(1, "p4")`
equals `RequestCard(1, "P4")`; a bad identity raises `CardCodeError` (parse_action turns that
into `MalformedActionError`). Whether an action is legal *now* is the rules' `check`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pocketgalaxy.core.game import Action
from pocketgalaxy.games.adventure.identities import CARD_INDEX, parse_identity


def _canonical(obj: Action, name: str) -> None:
    value = getattr(obj, name)
    if not (isinstance(value, str) and value in CARD_INDEX):
        object.__setattr__(obj, name, parse_identity(value))


@dataclass(frozen=True, slots=True)
class RequestCard(Action):
    """Ask seat `target` for test-card `card` (AC-R8)."""

    target: int
    card: str

    def __post_init__(self) -> None:
        _canonical(self, "card")


@dataclass(frozen=True, slots=True)
class DeclareCard(Action):
    """Point at face-down table slot `slot` and name its identity `card` (AC-R9)."""

    slot: int
    card: str

    def __post_init__(self) -> None:
        _canonical(self, "card")


@dataclass(frozen=True, slots=True)
class Peek(Action):
    """After a refused request, look privately at the face of table slot `slot` (AC-A3)."""

    slot: int


@dataclass(frozen=True, slots=True)
class SkipPeek(Action):
    """After a refused request, decline the peek (AC-A3)."""


@dataclass(frozen=True, slots=True)
class ClaimMission(Action):
    """Claim solved mission `mission` (0..5); only when `auto_claim` is False (AC-A5)."""

    mission: int


@dataclass(frozen=True, slots=True)
class PassTurn(Action):
    """Give up the turn; legal only when the seat has no other legal action (AC-R10)."""


ACTION_TYPES: tuple[type[Action], ...] = (
    RequestCard,
    DeclareCard,
    Peek,
    SkipPeek,
    ClaimMission,
    PassTurn,
)
