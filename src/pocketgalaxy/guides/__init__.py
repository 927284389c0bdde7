"""How to play each game, for people: one Markdown file per game, read by every shell.

`load_guide("perils")` gives a `Guide`: its title, the lines before the first section, and the
sections (each a `## ` heading and the Markdown under it). The terminal prints the whole text
with Rich (`pocketgalaxy rules perils`), the web renders it to HTML (`web/guide.py`, `/rules/...`)
and `--json` prints `Guide.to_json()`. The numbered specification stays in docs/rules/.

Card pictures are written in the text exactly as the terminal shows them, so the Markdown reads
well on its own: `[8♦]`, `[10♣]`, `[A♠]`, `[Joker 1]`, `[▒▒▒]` (a face-down card) and Adventure
Cards identities such as `[P5]`. `card_pictures(text)` finds them, so that the web can draw the
real card there instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from pocketgalaxy.core.errors import ContentError, PocketGalaxyError

GUIDE_GAMES: tuple[str, ...] = ("perils", "adventure")
"""The games that have a guide, in the order the shells list them."""

FACE_DOWN = "back"
"""The code of a face-down card picture (`[▒▒▒]`)."""

_SUIT_LETTERS = {"♦": "D", "♣": "C", "♥": "H", "♠": "S"}
_PICTURE = re.compile(
    r"\[(?:(?P<rank>10|[2-9AJQK])(?P<suit>[♦♣♥♠])|Joker (?P<joker>[12])"
    r"|(?P<pack>[SPAM])(?P<number>[1-6])|(?P<back>▒▒▒))\]"
)


@dataclass(frozen=True, slots=True)
class CardPicture:
    """One card picture in a guide's text: where it is and which card it shows.

    `code` is a playing-card code (`8D`, `JK1`), an Adventure Cards identity (`P5`) or
    `FACE_DOWN`; `kind` is "playing", "adventure" or "back".
    """

    start: int
    end: int
    code: str
    kind: str


def card_pictures(text: str) -> list[CardPicture]:
    """Every card picture in `text`, in order.

    >>> [p.code for p in card_pictures("[8♦] beats [▒▒▒], [Joker 2] and [P5]")]
    ['8D', 'back', 'JK2', 'P5']
    """
    found = []
    for m in _PICTURE.finditer(text):
        if m["rank"]:
            code, kind = m["rank"] + _SUIT_LETTERS[m["suit"]], "playing"
        elif m["joker"]:
            code, kind = "JK" + m["joker"], "playing"
        elif m["pack"]:
            code, kind = m["pack"] + m["number"], "adventure"
        else:
            code, kind = FACE_DOWN, "back"
        found.append(CardPicture(m.start(), m.end(), code, kind))
    return found


@dataclass(frozen=True, slots=True)
class Section:
    """One part of a guide: its `## ` heading, a stable anchor id and its Markdown text."""

    id: str
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class Guide:
    """A game's guide. `markdown` is the whole source, as the terminal prints it."""

    game: str
    title: str
    intro: str
    sections: tuple[Section, ...]
    markdown: str

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "title": self.title,
            "intro": self.intro,
            "sections": [{"id": s.id, "title": s.title, "text": s.text} for s in self.sections],
        }


def load_guide(game: str) -> Guide:
    """The guide of `game` from the package data; an unknown game names the ones that exist."""
    if game not in GUIDE_GAMES:
        raise PocketGalaxyError(
            f"there is no guide for {game!r}", code="guide/unknown", allowed=list(GUIDE_GAMES)
        )
    source = resources.files(__name__).joinpath(f"{game}.md").read_text(encoding="utf-8")
    return parse_guide(game, source)


def parse_guide(game: str, source: str) -> Guide:
    """Split a guide's Markdown into its title, intro and `## ` sections (ContentError if the
    shape is wrong: the first line must be a `# ` title and there must be a section)."""
    lines = source.splitlines()
    if not lines or not lines[0].startswith("# "):
        raise ContentError(f"{game}.md", "line 1", "the title, like '# Title'")
    title = lines[0][2:].strip()
    intro: list[str] = []
    parts: list[tuple[str, list[str]]] = []
    fenced = False
    for line in lines[1:]:
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("## "):
            parts.append((line[3:].strip(), []))
        elif parts:
            parts[-1][1].append(line)
        else:
            intro.append(line)
    if not parts:
        raise ContentError(f"{game}.md", "sections", "at least one '## ' heading")
    sections: list[Section] = []
    used: set[str] = set()
    for heading, body in parts:
        anchor = _anchor(heading, used)
        used.add(anchor)
        sections.append(Section(anchor, heading, "\n".join(body).strip()))
    return Guide(game, title, "\n".join(intro).strip(), tuple(sections), source)


def _anchor(title: str, used: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "section"
    anchor, n = base, 2
    while anchor in used:
        anchor, n = f"{base}-{n}", n + 1
    return anchor
