"""The 54-card deck and its short, stable codes (`8D`, `10C`, `AS`, `JK1`).

Cards are interned: `parse_card("8D") is parse_card("8D")`, so states can hold plain code
strings and look the card up cheaply when they need its rank or suit.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pocketgalaxy.core.errors import CardCodeError


class Suit(StrEnum):
    """A suit, by its one-letter code."""

    DIAMONDS = "D"
    CLUBS = "C"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_SYMBOLS = {Suit.DIAMONDS: "♦", Suit.CLUBS: "♣", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
SUITS: tuple[Suit, ...] = (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)
RANK_CODES: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"} | {n: str(n) for n in range(2, 11)}
_RANK_BY_CODE = {v: k for k, v in RANK_CODES.items()}
JOKER_CODES = ("JK1", "JK2")


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. `rank` is 1 (ace) to 13 (king); jokers have rank 0 and no suit."""

    code: str
    rank: int
    suit: Suit | None

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def is_face(self) -> bool:
        return 11 <= self.rank <= 13

    @property
    def is_number(self) -> bool:
        """A number card, 2 to 10."""
        return 2 <= self.rank <= 10

    @property
    def is_ace(self) -> bool:
        return self.rank == 1

    @property
    def label(self) -> str:
        """Human label with the suit symbol, for example `10♣` or `Joker 1`."""
        if self.suit is None:
            return f"Joker {self.code[-1]}"
        return f"{RANK_CODES[self.rank]}{self.suit.symbol}"

    def __str__(self) -> str:
        return self.code

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # Unpickled by its code, so the card stays the interned one (and a compiled frozen
        # class need not be filled in field by field).
        return (card, (self.code,))


def _build() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for suit in SUITS:
        for rank, rc in RANK_CODES.items():
            cards[rc + suit.value] = Card(rc + suit.value, rank, suit)
    for jc in JOKER_CODES:
        cards[jc] = Card(jc, 0, None)
    return cards


_CARDS = _build()
DECK_54: tuple[str, ...] = tuple(_CARDS)
"""All 54 codes in a fixed order: suits D, C, H, S with ranks A..K, then the two jokers."""


def parse_card(code: object) -> Card:
    """Parse a card code such as `8D`, `10c`, `AS` or `JK1`; round-trips with `Card.code`.

    >>> parse_card("10c").code
    '10C'
    """
    if not isinstance(code, str):
        raise CardCodeError(repr(code), "a card code is a string")
    norm = code.strip().upper()
    # Accept the suit symbols people may type as well.
    for suit, sym in _SYMBOLS.items():
        norm = norm.replace(sym, suit.value)
    card = _CARDS.get(norm)
    if card is None:
        raise CardCodeError(
            code, "expected a rank A,2-10,J,Q,K then a suit D,C,H,S (like 8D, 10C, AS) or JK1/JK2"
        )
    return card


def card(code: str) -> Card:
    """Fast lookup of a canonical code (no normalisation); raises CardCodeError if unknown."""
    try:
        return _CARDS[code]
    except KeyError:
        return parse_card(code)
