"""Themes (playsheets) as data: TOML files loaded into frozen dataclasses, every key checked.

A theme gives names and words to the cards: skills per suit, archetypes (their four cards),
prize ideas, the Big Bads' and items' names (the rubric and the shells use them), the things
every card stands for in the story (things.py), and the grammar the computer Teller builds
pathway descriptions from (narration.py). The engine takes every number from the card codes,
never from flavour text. `thing_for(state, code)` is the thing a card stands for in a game.

`load_theme("cosmic")` loads a bundled playsheet; `load_theme("/path/to/mine.toml")` a user's own.
docs/themes.md describes the format.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pocketgalaxy.core.cards import DECK_54, card
from pocketgalaxy.core.errors import CardCodeError, ContentError
from pocketgalaxy.games.perils.plan_words import PlanWords, parse_plan_words
from pocketgalaxy.games.perils.things import Thing, assign, parse_things

if TYPE_CHECKING:
    from pocketgalaxy.games.perils.state import PerilsState

PLAYSHEETS = Path(__file__).parent / "playsheets"
BUNDLED = ("cosmic", "dungeon")
SKILL_SUITS = ("D", "C", "S")
ALL_SUITS = ("D", "C", "S", "H")
BANDS = ("low", "mid", "high")
SENSES = ("sight", "sound", "smell")
ITEM_CODES: tuple[str, ...] = tuple(
    c for c in DECK_54 if card(c).is_face or card(c).is_joker
)
GRAMMAR_KEYS = ("place", "detail", "low", "mid", "high", "veiled", "presence", "promise",
                "ambient")
_TOP_KEYS = {
    "id", "title", "intro", "skills", "archetypes", "prizes", "big_bads", "items", "things",
    "grammar",
}
_OPTIONAL_KEYS = {"plan_words"}  # the plan judge's extra words (games/perils/plan_words.py)
_OLD_KEYS = ("perils", "gifts", "pathways")
CONVERT = (
    "the things format (docs/themes.md, 'Converting an older playsheet'): turn each idea of "
    "perils.<suit>.<band> and gifts into a [[things]] table with suits, difficulty, sight, "
    "sound, smell, reveal, success, failure and plan_words; add one [[things]] table with "
    "card = \"<code>\" per item and Big Bad; replace pathways.<sense> by grammar.<sense>"
)


@dataclass(frozen=True)
class Skill:
    suit: str
    name: str
    keywords: tuple[str, ...]
    blurb: str


@dataclass(frozen=True)
class Archetype:
    id: str
    name: str
    blurb: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Item:
    code: str
    name: str
    keywords: tuple[str, ...]
    blurb: str


@dataclass(frozen=True)
class BigBad:
    code: str
    name: str
    blurb: str


@dataclass(frozen=True)
class Theme:
    """One playsheet. Look things up by stable id or card code, never by position."""

    id: str
    title: str
    intro: str
    source: str
    skills: dict[str, Skill]
    archetypes: tuple[Archetype, ...]
    prizes: tuple[str, ...]
    big_bads: dict[str, BigBad]
    items: dict[str, Item]
    things: dict[str, Thing]
    grammar: dict[str, dict[str, tuple[str, ...]]]
    plan_words: PlanWords = field(default_factory=PlanWords)

    def archetype(self, archetype_id: str) -> Archetype | None:
        for a in self.archetypes:
            if a.id == archetype_id:
                return a
        return None

    def skill_name(self, suit: str) -> str:
        return self.skills[suit].name


def band_of(value: int) -> str:
    """low 2-4, mid 5-7, high 8-10 (and above: the Big Bads' 11)."""
    if value <= 4:
        return "low"
    if value <= 7:
        return "mid"
    return "high"


def thing_for(state: PerilsState, code: str) -> Thing:
    """The thing card `code` stands for in this game: a pure function of the narration seed,
    the theme and the clarity, stable all game long. Example: `thing_for(state, "8D").name`
    might be "a giant slime beast"."""
    opts = state.options
    last = _LAST_CAST
    if last is not None and last[0] is opts and last[1] == state.narration_seed:
        return last[2][code]
    theme = load_theme(opts.theme, opts.archetype_schema)
    cast = cast_of(theme, state.narration_seed, opts.clarity)
    _remember_cast(opts, state.narration_seed, cast)
    return cast[code]


# The last game's cast, by the identity of its (frozen) options and its narration seed: a game
# asks at every card revealed, and a simulation plays one game at a time. One tuple, replaced
# whole, so a reader on another thread sees an old or a new entry, never half of one.
_LAST_CAST: tuple[object, int, dict[str, Thing]] | None = None


def _remember_cast(opts: object, narration_seed: int, cast: dict[str, Thing]) -> None:
    global _LAST_CAST
    _LAST_CAST = (opts, narration_seed, cast)


_CASTS: dict[tuple[str, str, int, bool], dict[str, Thing]] = {}


def cast_of(theme: Theme, narration_seed: int, clarity: str) -> dict[str, Thing]:
    """Card code -> thing for one game (memoised; at most a few hundred games kept)."""
    key = (theme.source, theme.id, narration_seed, clarity == "plain")
    cast = _CASTS.get(key)
    if cast is None:
        if len(_CASTS) > 512:
            _CASTS.clear()
        cast = _CASTS[key] = assign(theme.things, narration_seed, clarity == "plain")
    return cast


def load_theme(id_or_path: str, schema: str = "one_per_suit") -> Theme:
    """Load a bundled theme by id, or a theme file by path; raises ContentError on any problem."""
    return _load_cached(id_or_path, schema)


@lru_cache(maxsize=16)
def _load_cached(id_or_path: str, schema: str) -> Theme:
    if id_or_path in BUNDLED:
        path = PLAYSHEETS / f"{id_or_path}.toml"
    else:
        path = Path(id_or_path)
        if path.suffix != ".toml" or not path.is_file():
            raise ContentError(
                id_or_path, "theme", f"a bundled theme id ({', '.join(BUNDLED)}) or a .toml file"
            )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ContentError(path.name, "file", f"a readable UTF-8 file ({exc})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(path.name, "file", f"valid TOML ({exc})") from exc
    return parse_theme(data, path.name, schema)


def parse_theme(data: dict[str, Any], file: str, schema: str = "one_per_suit") -> Theme:
    """Build a Theme from parsed TOML; `file` names the source in error messages."""
    r = _Reader(file)
    old = [k for k in _OLD_KEYS if k in data]
    if old:
        raise ContentError(file, old[0], CONVERT)
    r.keys(data, "", _TOP_KEYS | _OPTIONAL_KEYS, _TOP_KEYS)
    theme_id = r.text(data, "id")
    skills_raw = r.table(data, "skills")
    r.keys(skills_raw, "skills", set(ALL_SUITS), set(ALL_SUITS))
    skills = {}
    for suit in ALL_SUITS:
        s = r.table(skills_raw, suit, "skills")
        r.keys(s, f"skills.{suit}", {"name", "keywords", "blurb"}, {"name", "keywords", "blurb"})
        skills[suit] = Skill(
            suit,
            r.text(s, "name", f"skills.{suit}"),
            tuple(k.lower() for k in r.texts(s, "keywords", f"skills.{suit}")),
            r.text(s, "blurb", f"skills.{suit}"),
        )
    archetypes = _archetypes(r, data, schema)
    big_raw = r.table(data, "big_bads")
    r.keys(big_raw, "big_bads", {"AD", "AC", "AS"}, {"AD", "AC", "AS"})
    big_bads = {}
    for code in ("AD", "AC", "AS"):
        b = r.table(big_raw, code, "big_bads")
        r.keys(b, f"big_bads.{code}", {"name", "blurb"}, {"name", "blurb"})
        big_bads[code] = BigBad(
            code, r.text(b, "name", f"big_bads.{code}"), r.text(b, "blurb", f"big_bads.{code}")
        )
    items_raw = r.table(data, "items")
    r.keys(items_raw, "items", set(ITEM_CODES), set(ITEM_CODES))
    items = {}
    for code in ITEM_CODES:
        it = r.table(items_raw, code, "items")
        where = f"items.{code}"
        r.keys(it, where, {"name", "keywords", "blurb"}, {"name", "keywords", "blurb"})
        items[code] = Item(
            code,
            r.text(it, "name", where),
            tuple(k.lower() for k in r.texts(it, "keywords", where)),
            r.text(it, "blurb", where),
        )
    grammar_raw = r.table(data, "grammar")
    r.keys(grammar_raw, "grammar", set(SENSES), set(SENSES))
    grammar = {}
    for sense in SENSES:
        g = r.table(grammar_raw, sense, "grammar")
        r.keys(g, f"grammar.{sense}", set(GRAMMAR_KEYS), set(GRAMMAR_KEYS))
        grammar[sense] = {k: r.texts(g, k, f"grammar.{sense}") for k in GRAMMAR_KEYS}
        for key in ("low", "mid", "high", "veiled"):
            for frame in grammar[sense][key]:
                if frame.count("{cue}") != 1 or frame.replace("{cue}", "").count("{") > 0:
                    raise ContentError(file, f"grammar.{sense}.{key}",
                                       "sentence frames holding {cue} exactly once")
    things = parse_things(data.get("things"), file)
    return Theme(
        id=theme_id,
        title=r.text(data, "title"),
        intro=r.text(data, "intro"),
        source=file,
        skills=skills,
        archetypes=archetypes,
        prizes=r.texts(data, "prizes"),
        big_bads=big_bads,
        items=items,
        things=things,
        grammar=grammar,
        plan_words=parse_plan_words(data.get("plan_words"), file, ALL_SUITS, ITEM_CODES),
    )


def _archetypes(r: _Reader, data: dict[str, Any], schema: str) -> tuple[Archetype, ...]:
    raw = data.get("archetypes")
    if not isinstance(raw, list) or len(raw) < 1:
        raise ContentError(r.file, "archetypes", "an array of tables [[archetypes]], at least one")
    out: list[Archetype] = []
    seen: set[str] = set()
    for i, a in enumerate(raw):
        where = f"archetypes[{i}]"
        if not isinstance(a, dict):
            raise ContentError(r.file, where, "a table with id, name, blurb, cards")
        r.keys(a, where, {"id", "name", "blurb", "cards"}, {"id", "name", "blurb", "cards"})
        aid = r.text(a, "id", where)
        if aid in seen:
            raise ContentError(r.file, f"{where}.id", f"a unique id ({aid!r} is used twice)")
        seen.add(aid)
        cards = r.texts(a, "cards", where)
        out.append(Archetype(aid, r.text(a, "name", where), r.text(a, "blurb", where),
                             _archetype_cards(r.file, f"{where}.cards", cards, schema)))
    return tuple(out)


def _archetype_cards(file: str, where: str, codes: tuple[str, ...], schema: str) -> tuple[str, ...]:
    try:
        cards = tuple(card(c.strip().upper()) for c in codes)
    except CardCodeError as exc:
        raise ContentError(file, where, f"card codes like 2D, 10C ({exc.message})") from exc
    if len(cards) != 4 or len({c.code for c in cards}) != 4:
        raise ContentError(file, where, "exactly four different cards (PP-R2)")
    if any(c.is_ace for c in cards):
        raise ContentError(file, where, "no aces: they are the Big Bads and the Prize (PP-A13)")
    if schema == "one_per_suit":
        suits = sorted(c.suit.value for c in cards if c.suit is not None and c.is_number)
        if suits != sorted(ALL_SUITS):
            raise ContentError(
                file, where, "one number card 2-10 of each suit D, C, S, H (PP-A13)"
            )
    return tuple(c.code for c in cards)


class _Reader:
    """Typed access to TOML tables that raises ContentError(file, key, expected)."""

    def __init__(self, file: str) -> None:
        self.file = file

    def _key(self, where: str, key: str) -> str:
        return f"{where}.{key}" if where else key

    def keys(
        self, table: dict[str, Any], where: str, allowed: set[str], required: set[str]
    ) -> None:
        unknown = sorted(set(table) - allowed)
        if unknown:
            raise ContentError(
                self.file, self._key(where, unknown[0]),
                f"a known key (unknown key; allowed: {', '.join(sorted(allowed))})",
            )
        missing = sorted(required - set(table))
        if missing:
            raise ContentError(self.file, self._key(where, missing[0]), "this key is required")

    def table(self, data: dict[str, Any], key: str, where: str = "") -> dict[str, Any]:
        value = data.get(key)
        if not isinstance(value, dict):
            raise ContentError(self.file, self._key(where, key), "a table")
        return value

    def text(self, data: dict[str, Any], key: str, where: str = "") -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            raise ContentError(self.file, self._key(where, key), "a non-empty string")
        return value.strip()

    def texts(self, data: dict[str, Any], key: str, where: str = "") -> tuple[str, ...]:
        value = data.get(key)
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(v, str) and v.strip() for v in value)
        ):
            raise ContentError(self.file, self._key(where, key), "a non-empty list of strings")
        return tuple(v.strip() for v in value)
