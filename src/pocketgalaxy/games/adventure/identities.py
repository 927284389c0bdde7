"""Card identities of Adventure Cards: a pack letter and a number, `S1`..`M6` (AC-A14).

Test-cards and mission-cards share identities. Packs: S space ships (blue), P planets (black),
A aliens (green), M marvels to bring back (yellow). `parse_identity("p4") == "P4"`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from pocketgalaxy.core.errors import CardCodeError

PACKS: tuple[str, ...] = ("S", "P", "A", "M")
"""Pack letters in mission order: ship, planet, alien, marvel."""

PACK_COLOURS: dict[str, str] = {"S": "blue", "P": "black", "A": "green", "M": "yellow"}
PACK_NAMES: dict[str, str] = {"S": "space ship", "P": "planet", "A": "alien", "M": "marvel"}

CARDS: Final[tuple[str, ...]] = tuple(f"{p}{n}" for p in PACKS for n in range(1, 7))
"""All 24 identities in a fixed order: S1..S6, P1..P6, A1..A6, M1..M6."""

CARD_INDEX: Final[dict[str, int]] = {c: i for i, c in enumerate(CARDS)}

_EXPECTED = "expected a pack letter S, P, A or M then a number 1-6 (like S1, P4, M6)"


def parse_identity(text: object) -> str:
    """The canonical identity for `text`, case and spaces forgiven.

    >>> parse_identity(" p4")
    'P4'
    """
    if not isinstance(text, str):
        raise CardCodeError(repr(text), "a card identity is text; " + _EXPECTED)
    norm = text.strip().upper()
    if norm not in CARD_INDEX:
        raise CardCodeError(text, _EXPECTED)
    return norm


def is_identity(text: object) -> bool:
    """True when `text` is already a canonical identity such as `P4`."""
    return isinstance(text, str) and text in CARD_INDEX


def pack_of(card: str) -> str:
    """The pack letter of a canonical identity (`"P4"` -> `"P"`)."""
    return card[0]


def number_of(card: str) -> int:
    """The printed number 1..6 of a canonical identity (`"P4"` -> 4)."""
    return int(card[1])


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Identities in the canonical order S1..M6 (hands are shown and compared this way)."""
    return sorted(cards, key=CARD_INDEX.__getitem__)


def is_mission_group(group: object) -> bool:
    """True for a 4-card group in pack order (ship, planet, alien, marvel), like a mission."""
    if not isinstance(group, (list, tuple)) or len(group) != len(PACKS):
        return False
    return all(is_identity(c) and c[0] == p for c, p in zip(group, PACKS, strict=True))
