"""The illustrations of Adventure Cards, loaded from data/cards.toml into frozen dataclasses.

Every key is checked and unknown keys are refused: a broken file raises
`ContentError(file, key, expected)`. Shells show `card_info("P4").name`; the rules only ever use
identities (AC-A14).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pocketgalaxy.core.errors import ContentError
from pocketgalaxy.games.adventure.identities import CARDS, PACK_COLOURS, PACKS

DEFAULT_FILE = Path(__file__).parent / "data" / "cards.toml"
FORMAT = 1


@dataclass(frozen=True)
class PackInfo:
    """One of the four packs: its letter, title and background colour."""

    letter: str
    title: str
    colour: str


@dataclass(frozen=True)
class CardInfo:
    """One illustration: identity (`P4`), pack, number, name and a one-line description."""

    id: str
    pack: str
    number: int
    name: str
    description: str

    @property
    def colour(self) -> str:
        return PACK_COLOURS[self.pack]


@dataclass(frozen=True)
class CardSet:
    """All 24 illustrations and the four packs, by identity and by letter."""

    packs: dict[str, PackInfo]
    cards: dict[str, CardInfo]

    def __getitem__(self, identity: str) -> CardInfo:
        return self.cards[identity]


def _text(file: str, key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ContentError(file, key, "expected non-empty text")
    return value.strip()


def _table(file: str, key: str, value: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ContentError(file, key, f"expected a table with keys {', '.join(keys)}")
    unknown = sorted(set(value) - set(keys))
    if unknown:
        raise ContentError(file, f"{key}.{unknown[0]}", f"unknown key; allowed: {', '.join(keys)}")
    missing = [k for k in keys if k not in value]
    if missing:
        raise ContentError(file, f"{key}.{missing[0]}", "missing; every key is required")
    return value


def parse_cards(data: dict[str, Any], file: str = "<cards>") -> CardSet:
    """Validate parsed TOML and build the card set (ContentError on the first problem)."""
    top = _table(file, "(top level)", data, ("format", "packs", "cards"))
    if top["format"] != FORMAT:
        raise ContentError(file, "format", f"expected {FORMAT}")
    packs_raw = _table(file, "packs", top["packs"], PACKS)
    packs: dict[str, PackInfo] = {}
    for letter in PACKS:
        entry = _table(file, f"packs.{letter}", packs_raw[letter], ("title", "colour"))
        colour = _text(file, f"packs.{letter}.colour", entry["colour"])
        if colour != PACK_COLOURS[letter]:
            raise ContentError(file, f"packs.{letter}.colour", f"expected {PACK_COLOURS[letter]!r}")
        title = _text(file, f"packs.{letter}.title", entry["title"])
        packs[letter] = PackInfo(letter, title, colour)
    cards_raw = _table(file, "cards", top["cards"], CARDS)
    cards: dict[str, CardInfo] = {}
    for ident in CARDS:
        key = f"cards.{ident}"
        entry = _table(file, key, cards_raw[ident], ("name", "description"))
        cards[ident] = CardInfo(
            id=ident,
            pack=ident[0],
            number=int(ident[1]),
            name=_text(file, f"{key}.name", entry["name"]),
            description=_text(file, f"{key}.description", entry["description"]),
        )
    names = [c.name for c in cards.values()]
    for ident, info in cards.items():
        if names.count(info.name) > 1:
            raise ContentError(file, f"cards.{ident}.name", "expected a name no other card uses")
    return CardSet(packs=packs, cards=cards)


def load_cards(path: str | Path | None = None) -> CardSet:
    """Load and validate a card file (the packaged data/cards.toml when `path` is None)."""
    if path is None:
        return _default()
    return _load(Path(path))


@lru_cache(maxsize=1)
def _default() -> CardSet:
    return _load(DEFAULT_FILE)


def _load(path: Path) -> CardSet:
    name = str(path)
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError as exc:
        raise ContentError(name, "(file)", "expected an existing TOML file") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(name, "(syntax)", f"expected valid TOML: {exc}") from exc
    return parse_cards(data, name)


def card_info(identity: str) -> CardInfo:
    """The packaged illustration for a canonical identity such as `P4`."""
    return _default().cards[identity]
