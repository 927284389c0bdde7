"""Playing cards and mission cards drawn as small coloured Rich texts."""

from __future__ import annotations

from rich.text import Text

from pocketgalaxy.core.cards import card as lookup

SUIT_STYLE = {"D": "bold red", "H": "bold red", "C": "bold bright_white", "S": "bold bright_white"}
BACK = Text("▒▒▒", style="blue")

PACK_STYLE = {
    "S": "bold white on blue",
    "P": "bold white on grey23",
    "A": "bold black on green",
    "M": "bold black on yellow",
}


def playing_card(code: str) -> Text:
    """`8D` -> `[8♦]` in red; jokers in magenta."""
    c = lookup(code)
    if c.suit is None:
        return Text(f"[{c.label}]", style="bold magenta")
    return Text(f"[{c.label}]", style=SUIT_STYLE[c.suit.value])


def card_label(code: str) -> str:
    """`8D` -> `8♦` (plain text, for sentences)."""
    return lookup(code).label


def face_down() -> Text:
    return Text("[▒▒▒]", style="blue")


def suit_symbol(suit: str) -> Text:
    sym = {"D": "♦", "C": "♣", "H": "♥", "S": "♠"}[suit]
    return Text(sym, style=SUIT_STYLE[suit])


def mission_card(identity: str, name: str | None = None) -> Text:
    """`P4` -> ` P4 ` on the pack's colour, optionally followed by its illustration name."""
    t = Text(f" {identity} ", style=PACK_STYLE.get(identity[0], "bold"))
    if name:
        t.append(f" {name}")
    return t
