"""A theme's things: the perils, Big Bads, gifts and items the cards stand for in the story.

Each card of a game stands for one thing of the theme ("a giant slime beast" behind "a broken
airlock covered in green goo"). A thing says which suits and difficulties it fits, what it looks,
sounds and smells like, how it is revealed, how a success or a failure against it ends, and the
words a plan dealing with it would use.

This module parses the `[[things]]` tables of a theme file (content.py calls `parse_things`) and
assigns things to the cards of one game (`assign`; `content.thing_for(state, code)` is the
public face): a pure function of the narration seed, the same all game long, and no thing
stands for two cards of one game while the theme has enough of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from pocketgalaxy.core.cards import DECK_54, card
from pocketgalaxy.core.errors import ContentError
from pocketgalaxy.core.rng import Rng, mix64

KINDS = ("peril", "big_bad", "gift", "item")
SENSES = ("sight", "sound", "smell")
_REQUIRED = {"id", "kind", "name", "plan_words", "sight", "sound", "smell", "reveal", "success",
             "failure"}
_OPTIONAL = {"suits", "difficulty", "card"}
_PERIL_SUITS = ("D", "C", "S")


@dataclass(frozen=True)
class Thing:
    """One thing of the story. `suits` and `difficulty` say which cards it fits (items and Big
    Bads fit exactly their `card`); `sight`/`sound`/`smell` are cue phrases (lower case, no
    final stop) that the narrator sets into sentence frames; `reveal`, `success` and `failure`
    are whole sentences (for a gift, `failure` tells a heal that was not needed; for an item,
    `success` and `failure` tell it used to good or to no effect)."""

    id: str
    kind: str
    name: str
    plan_words: tuple[str, ...]
    suits: tuple[str, ...]
    difficulty: tuple[int, int]
    card: str | None
    sight: tuple[str, ...]
    sound: tuple[str, ...]
    smell: tuple[str, ...]
    reveal: tuple[str, ...]
    success: tuple[str, ...]
    failure: tuple[str, ...]

    def cues(self, sense: str) -> tuple[str, ...]:
        """The cue phrases for one sense."""
        return {"sight": self.sight, "sound": self.sound, "smell": self.smell}[sense]

    def fits(self, code: str) -> bool:
        """True when this thing may stand for the card `code`."""
        if self.card is not None:
            return self.card == code
        c = card(code)
        if c.suit is None or not c.is_number:
            return False
        return c.suit.value in self.suits and self.difficulty[0] <= c.rank <= self.difficulty[1]


def kind_of(code: str) -> str:
    """peril, gift, item or big_bad."""
    kind = _KINDS.get(code)
    return kind if kind is not None else _kind_of(code)


def _kind_of(code: str) -> str:
    c = card(code)
    if c.is_ace:
        return "big_bad"
    if c.is_face or c.is_joker:
        return "item"
    if c.suit is not None and c.suit.value == "H":
        return "gift"
    return "peril"


_KINDS: Final[dict[str, str]] = {code: _kind_of(code) for code in DECK_54}
"""The kind of every canonical code, worked out once: the rules ask at every card revealed."""


def parse_things(raw: Any, file: str) -> dict[str, Thing]:
    """The `[[things]]` array of a theme file, checked: every key known, every card of the deck
    but the Prize fitted by at least one thing (items and Big Bads by exactly one)."""
    if not isinstance(raw, list) or not raw:
        raise ContentError(file, "things", "an array of tables [[things]] (docs/themes.md)")
    out: dict[str, Thing] = {}
    for i, t in enumerate(raw):
        where = f"things[{i}]"
        thing = _thing(t, file, where)
        if thing.id in out:
            raise ContentError(file, f"{where}.id", f"a unique id ({thing.id!r} is used twice)")
        out[thing.id] = thing
    for code in DECK_54:
        if code == "AH":
            continue
        fitting = [t for t in out.values() if t.fits(code)]
        kind = kind_of(code)
        if not fitting:
            raise ContentError(file, "things", f"a {kind} thing that fits card {code}")
        if kind in ("item", "big_bad") and len(fitting) != 1:
            raise ContentError(file, "things", f"exactly one thing with card = {code!r}")
        if any(t.kind != kind for t in fitting):
            raise ContentError(file, "things", f"only {kind} things fitting card {code}")
    return out


def _thing(t: Any, file: str, where: str) -> Thing:
    if not isinstance(t, dict):
        raise ContentError(file, where, "a table")
    unknown = sorted(set(t) - _REQUIRED - _OPTIONAL)
    if unknown:
        raise ContentError(file, f"{where}.{unknown[0]}", "a known key (unknown key; allowed: "
                           + ", ".join(sorted(_REQUIRED | _OPTIONAL)) + ")")
    missing = sorted(_REQUIRED - set(t))
    if missing:
        raise ContentError(file, f"{where}.{missing[0]}", "this key is required")

    def text(key: str) -> str:
        v = t[key]
        if not isinstance(v, str) or not v.strip():
            raise ContentError(file, f"{where}.{key}", "a non-empty string")
        return v.strip()

    def texts(key: str) -> tuple[str, ...]:
        v = t[key]
        if not isinstance(v, list) or not v or not all(isinstance(x, str) and x.strip()
                                                       for x in v):
            raise ContentError(file, f"{where}.{key}", "a non-empty list of strings")
        return tuple(x.strip() for x in v)

    kind = text("kind")
    if kind not in KINDS:
        raise ContentError(file, f"{where}.kind", f"one of {', '.join(KINDS)}")
    code: str | None = None
    suits: tuple[str, ...] = ()
    low, high = 0, 0
    if kind in ("item", "big_bad"):
        if "card" not in t or "suits" in t or "difficulty" in t:
            raise ContentError(file, f"{where}.card", f"an {kind} names its card (card = \"JD\")"
                               " and no suits or difficulty")
        code = text("card").upper()
        if code not in DECK_54 or kind_of(code) != kind:
            raise ContentError(file, f"{where}.card", f"the code of a {kind} card")
        c = card(code)
        suits = (c.suit.value,) if c.suit is not None else ()
        low = high = 11 if kind == "big_bad" else 0
    else:
        if "card" in t:
            raise ContentError(file, f"{where}.card", f"no card: a {kind} gives suits and "
                               "difficulty")
        allowed = ("H",) if kind == "gift" else _PERIL_SUITS
        suits = texts("suits") if "suits" in t else ()
        if not suits or any(s not in allowed for s in suits) or len(set(suits)) != len(suits):
            raise ContentError(file, f"{where}.suits", f"different suits among {allowed}")
        rng = t.get("difficulty")
        if (not isinstance(rng, list) or len(rng) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in rng)
                or not 2 <= rng[0] <= rng[1] <= 10):
            raise ContentError(file, f"{where}.difficulty", "[lowest, highest] within 2..10")
        low, high = rng[0], rng[1]
    words = tuple(w.lower() for w in texts("plan_words"))
    return Thing(
        id=text("id"), kind=kind, name=text("name"), plan_words=words, suits=suits,
        difficulty=(low, high), card=code, sight=texts("sight"), sound=texts("sound"),
        smell=texts("smell"), reveal=texts("reveal"), success=texts("success"),
        failure=texts("failure"),
    )


def mix(*parts: int) -> int:
    """A 64-bit hash of integers (SplitMix64's finaliser over each part): streams seeded from
    neighbouring keys share nothing, unlike seeds that differ by the generator's own step.
    (`core.rng.mix64`, which runs on native integers when compiled.)"""
    return mix64(parts)


_ORDER: Final = tuple(c for c in DECK_54 if c != "AH")
_FITTING: dict[tuple[tuple[Thing, ...], bool], dict[str, tuple[Thing, ...]]] = {}
# The last theme's table by the identity of its (immutable, cached) things dict: hashing the
# pool's frozen dataclasses field by field cost more than the rest of a game's setup.
_LAST_FITTING: list[tuple[dict[str, Thing], bool, dict[str, tuple[Thing, ...]]]] = []


def _fitting_for(things: dict[str, Thing], plain: bool) -> dict[str, tuple[Thing, ...]]:
    """`_fitting` of a theme's things, remembered for the last few things dicts by identity
    (a theme is loaded once and never changes; the dict is kept alive here, so its id is
    not reused)."""
    for known, known_plain, table in _LAST_FITTING:
        if known is things and known_plain == plain:
            return table
    table = _fitting(tuple(sorted(things.values(), key=_thing_id)), plain)
    if len(_LAST_FITTING) >= 8:
        del _LAST_FITTING[0]
    _LAST_FITTING.append((things, plain, table))
    return table


def _thing_id(t: Thing) -> str:
    return t.id


def _fitting(pool: tuple[Thing, ...], plain: bool) -> dict[str, tuple[Thing, ...]]:
    """Card code -> the things (in id order) that may stand for it: a pure function of the
    theme, so it is worked out once per theme, not once per game (memoised, bounded)."""
    key = (pool, plain)
    table = _FITTING.get(key)
    if table is None:
        table = {}
        for code in _ORDER:
            options = [t for t in pool if t.fits(code)]
            if plain:  # plain: a thing of one suit tells the suit outright, when there is one
                options = [t for t in options if len(t.suits) == 1] or options
            table[code] = tuple(options)
        if len(_FITTING) > 32:
            _FITTING.clear()
        _FITTING[key] = table
    return table


def assign(things: dict[str, Thing], narration_seed: int, plain: bool) -> dict[str, Thing]:
    """Card code -> thing for one game (the Prize excluded). `plain`: prefer things of one suit.

    A seeded matching (augmenting paths, Kuhn's algorithm) gives every card a thing of its own
    whenever the theme has enough; a card left over shares a fitting thing.

    It works on small integers (cards by their place in `_ORDER`, things by their place in the
    id-sorted pool) with the same shuffles, the same search order and the same entry order
    of the result as the matching by codes and ids it replaced (tests/games/perils/
    test_perils_playout_speed.py keeps that one as the reference)."""
    rng = Rng(mix64((narration_seed, 0x7417C5)))
    pool, table = _indexed_for(things, plain)
    n = len(_ORDER)
    order = list(range(n))
    rng.shuffle(order)
    fits: list[list[int]] = [[]] * n  # every slot is replaced below (order is a permutation)
    for c in order:
        options = table[c]
        if len(options) > 1:  # a list of one draws nothing, and is shared as it is (only read)
            options = options.copy()
            rng.shuffle(options)
        fits[c] = options
    owner = [-1] * len(pool)  # thing -> card
    seen = [-1] * len(pool)  # thing -> the search (card) that last visited it
    first: list[int] = []  # things in the order they were first matched (the result's order)
    for c in order:
        _place_ix(c, c, seen, fits, owner, first)
    out: dict[str, Thing] = {}
    matched = [False] * n
    for t in first:
        c = owner[t]
        out[_ORDER[c]] = pool[t]
        matched[c] = True
    for c in order:
        if not matched[c]:
            options = fits[c]
            out[_ORDER[c]] = pool[options[rng.below(len(options))]]
    return out


def _place_ix(c: int, search: int, seen: list[int], fits: list[list[int]], owner: list[int],
              first: list[int]) -> bool:
    """One augmenting path of `assign`'s matching from card `c` (a module function, not a
    closure: compiled, a nested function's every call goes through its environment object).
    `seen[t] == search`: thing t was visited in this search (one search per card)."""
    for t in fits[c]:
        if seen[t] == search:
            continue
        seen[t] = search
        o = owner[t]
        if o < 0:
            first.append(t)
            owner[t] = c
            return True
        if _place_ix(o, search, seen, fits, owner, first):
            owner[t] = c
            return True
    return False


# The last themes' pools and fitting tables in indices, by the identity of the things dict.
_LAST_INDEXED: list[tuple[dict[str, Thing], bool, tuple[Thing, ...], tuple[list[int], ...]]] = []


def _indexed_for(things: dict[str, Thing], plain: bool
                 ) -> tuple[tuple[Thing, ...], tuple[list[int], ...]]:
    """The id-sorted pool and, per card of `_ORDER`, the places in it of the things that fit
    (`_fitting_for` in indices), remembered for the last few things dicts by identity. The
    places are lists that `assign` copies before shuffling and otherwise only reads."""
    for known, known_plain, pool, table in _LAST_INDEXED:
        if known is things and known_plain == plain:
            return pool, table
    pool = tuple(sorted(things.values(), key=_thing_id))
    place = {t.id: i for i, t in enumerate(pool)}
    fitting = _fitting_for(things, plain)
    table = tuple([place[t.id] for t in fitting[code]] for code in _ORDER)
    if len(_LAST_INDEXED) >= 8:
        del _LAST_INDEXED[0]
    _LAST_INDEXED.append((things, plain, pool, table))
    return pool, table
