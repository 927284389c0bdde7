"""The computer Hero's plan writer: varied plans that fit the thing faced and earn, under the
rubric (games/perils/rubric.py), exactly the sources the Hero declares.

A small grammar: an optional first step that sizes up the thing, one step per source in a
shuffled order, each joined by an order word or a sentence end. The words come from the
theme: the skill's action words (`[plan_words.skills]`, else its keywords), an item's `does`
and `on` words, and the thing's name. Each item step puts a word of the item's use within
reach of its full name; each skill step uses one of the skill's action words; with
`advantage` the plan names the thing and has at least two steps. Choices come from the
writer's own random stream (seeded from the agent's seed), so the same seed writes the same
plans and the agent's other decisions are untouched.
"""

from __future__ import annotations

import string
from typing import Final

from pocketgalaxy.core.mypyc_marks import mypyc_attr
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils.content import Theme
from pocketgalaxy.games.perils.plan_words import STOPWORDS, words_of
from pocketgalaxy.games.perils.rubric import Target
from pocketgalaxy.games.perils.views import PerilsView

_WRITER_SALT = 0x5EED_9A11
_SIZE_UP = (
    "I size up the {thing} from cover",
    "I watch the {thing} for a moment",
    "I study how the {thing} moves",
    "I take a long look at the {thing}",
    "I wait for the {thing} to show its pattern",
)
_SKILL_STEPS = (
    "I {w} {prep} the {thing}",
    "I {w} hard and fast {prep} the {thing}",
    "I {w} {prep} it before the {thing} can react",
    "I {w} {prep} the {thing}, keeping low",
    "I {w} and keep my eyes on the {thing}",
)
_PREPS = ("past", "around", "towards", "away from", "beside", "through")
_ITEM_STEPS = (
    "I {does} the {thing} with the {item}",
    "I use the {item} to {does} the {on}",
    "with the {item} I {does} the {on}",
    "the {item} lets me {does} the {on}",
    "I {does} the {on} with the {item}",
)
_JOINS = ("Then", "Next", "Once that is done,", "After that,")
_OPENERS = ("First", "To begin,", "")


class _Template:
    """A step's template cut once into literal text and fields, which `_fill` fills by
    position in `fields` order: what `str.format` did by name, without parsing at every plan."""

    def __init__(self, text: str, fields: tuple[str, ...]) -> None:
        literals: list[str] = []
        slots: list[int] = []
        for literal, name, spec, conversion in string.Formatter().parse(text):
            assert not spec and conversion is None, text
            literals.append(literal)
            slots.append(-1 if name is None else fields.index(name))
        self.literals = tuple(literals)
        self.slots = tuple(slots)
        self.has_thing = "{thing}" in text
        self.has_on = "{on}" in text


_SIZE_UP_T: Final = tuple(_Template(t, ("thing",)) for t in _SIZE_UP)
_SKILL_T: Final = tuple(_Template(t, ("w", "prep", "thing")) for t in _SKILL_STEPS)
_ITEM_T: Final = tuple(_Template(t, ("does", "on", "thing", "item")) for t in _ITEM_STEPS)
assert all(t.has_thing for t in _SKILL_T)  # so a plan with a skill step names the thing


def _fill(template: _Template, a: str, b: str = "", c: str = "", d: str = "") -> str:
    out: list[str] = []
    slots = template.slots
    for k, literal in enumerate(template.literals):
        out.append(literal)
        slot = slots[k]
        if slot >= 0:
            out.append(a if slot == 0 else b if slot == 1 else c if slot == 2 else d)
    return "".join(out)


def thing_in_view(view: PerilsView, theme: Theme) -> Target | None:
    """The thing the Hero faces, as the view tells it (the revealed card's thing, public)."""
    if view.current_thing is None:
        return None
    return theme.things.get(view.current_thing)


def _pick(rng: Rng, words: tuple[str, ...] | list[str]) -> str:
    return words[rng.below(len(words))]


def _pick_template(rng: Rng, templates: tuple[_Template, ...]) -> _Template:
    return templates[rng.below(len(templates))]


def _verbs(words: tuple[str, ...]) -> tuple[str, ...]:
    """Words that read as a verb after "I" (adverbs in -ly are left to people)."""
    out = tuple(w for w in words if not w.endswith("ly") and " " not in w)
    return out or words


# Held by the Heroes, which are pickled and copied. Both marks: compiled with `serializable`
# alone, a call from interpreted code (the planning Hero's) skipped `__init__` (mypyc issue 979).
@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class PlanWriter:
    """Writes a plan for declared sources, from its own seeded random stream."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng((seed ^ _WRITER_SALT) & ((1 << 64) - 1))

    def write(self, view: PerilsView, theme: Theme, channel: str | None,
              items: tuple[str, ...], advantage: bool = True) -> str:
        """A plan for the card in the view (see `write_plan`)."""
        return write_plan(theme, channel, items, thing_in_view(view, theme), self.rng,
                          advantage)


def write_plan(theme: Theme, channel: str | None, items: tuple[str, ...],
               target: Target | None, rng: Rng, advantage: bool = True) -> str:
    """A plan that the rubric credits with `channel` and every item, and that meets the
    roll-twice's wording needs (the thing named, two steps or more) when `advantage`."""
    if channel is None and not items:
        return ""  # nothing declared, nothing to earn
    thing = _thing_words(target)
    words = _words_of(theme)
    steps: list[str] = []
    named = False  # a step put the thing in (else the steps are searched for it below)
    if channel is not None:
        template = _pick_template(rng, _SKILL_T)
        steps.append(_fill(template, _pick(rng, words.skill(channel)), _pick(rng, _PREPS),
                           thing))
        named = True
    for code in items:
        does, on, item = words.item(code)
        template = _pick_template(rng, _ITEM_T)
        target_words = _pick(rng, on) if on and template.has_on else thing
        steps.append(_fill(template, _pick(rng, does), target_words, thing, item))
        named = named or template.has_thing or (template.has_on and target_words == thing)
    rng.shuffle(steps)
    if not named:
        named = any(thing in step for step in steps)
    if advantage and target is not None and (len(steps) < 2 or not named or rng.below(3) == 0):
        steps.insert(0, _fill(_pick_template(rng, _SIZE_UP_T), thing))
    return _join(steps, rng)


def _own_words(words: tuple[str, ...], name: str) -> tuple[str, ...]:
    named = set(words_of(name))
    out = tuple(w for w in words if w not in named and w not in STOPWORDS and len(w) > 2)
    return out or ("use",)


class _ThemeWords:
    """A theme's words for plans, worked out once per skill and item (`_words_of`): the
    skill's verbs, and each item's verbs, what it acts on and its name."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.skills: dict[str, tuple[str, ...]] = {}
        self.items: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {}

    def skill(self, channel: str) -> tuple[str, ...]:
        got = self.skills.get(channel)
        if got is None:
            skill = self.theme.skills[channel]
            got = self.skills[channel] = _verbs(
                self.theme.plan_words.skills.get(channel)
                or _own_words(skill.keywords, skill.name))
        return got

    def item(self, code: str) -> tuple[tuple[str, ...], tuple[str, ...], str]:
        got = self.items.get(code)
        if got is None:
            item = self.theme.items[code]
            does = _verbs(self.theme.plan_words.item_does.get(code, ()))
            if not does:  # a playsheet without plan words: the item's blurb says what it does
                does = _own_words(tuple(words_of(item.blurb)), item.name)
            got = self.items[code] = (does, self.theme.plan_words.item_on.get(code, ()),
                                      item.name)
        return got


# By the theme's id(): an entry holds its theme, so that id is not reused while it is kept.
_THEME_WORDS: dict[int, _ThemeWords] = {}


def _words_of(theme: Theme) -> _ThemeWords:
    got = _THEME_WORDS.get(id(theme))
    if got is None or got.theme is not theme:
        if len(_THEME_WORDS) > 64:
            _THEME_WORDS.clear()
        got = _THEME_WORDS[id(theme)] = _ThemeWords(theme)
    return got


# A plan names the thing by its head noun phrase ("debris field", not "debris field beyond a
# hull breach"): shorter reads better, and keeps an item's use words near the item's name.
_LINKS = frozenset("beyond behind that which who where with across on in over between through "
                   "under outside along to of from at near above below inside around".split())


# The head words by the thing's name (themes hold a bounded number of things).
_THING_WORDS: dict[str, str] = {}


def _thing_words(target: Target | None) -> str:
    if target is None:
        return "danger"
    got = _THING_WORDS.get(target.name)
    if got is None:
        if len(_THING_WORDS) > 4096:
            _THING_WORDS.clear()
        got = _THING_WORDS[target.name] = _head_words(target.name)
    return got


def _head_words(name: str) -> str:
    words = name.split()
    if words and words[0].lower() in ("a", "an", "the"):
        words = words[1:]
    head: list[str] = []
    for word in words:
        if head and word.lower() in _LINKS:
            break
        head.append(word.strip(",;:"))
    return " ".join(head[:3]).lower() or "danger"


def _join(steps: list[str], rng: Rng) -> str:
    opener = _pick(rng, _OPENERS)
    out = [f"{opener} {steps[0]}".strip() if opener else steps[0]]
    for step in steps[1:]:
        if rng.below(2):
            out.append(f"{_pick(rng, _JOINS)} {step}")
        else:
            out.append(step)
    return ". ".join(_capital(s) for s in out) + "."


def _capital(text: str) -> str:
    first = text[:1]
    upper = first.upper()
    return text if upper == first else upper + text[1:]


__all__ = ["PlanWriter", "thing_in_view", "write_plan"]
