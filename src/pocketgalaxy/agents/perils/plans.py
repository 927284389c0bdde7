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


def thing_in_view(view: PerilsView, theme: Theme) -> Target | None:
    """The thing the Hero faces, as the view tells it (the revealed card's thing, public)."""
    if view.current_thing is None:
        return None
    return theme.things.get(view.current_thing)


def _pick(rng: Rng, words: tuple[str, ...] | list[str]) -> str:
    return words[rng.below(len(words))]


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
    steps: list[str] = []
    if channel is not None:
        skill = theme.skills[channel]
        words = _verbs(theme.plan_words.skills.get(channel) or _own_words(skill.keywords,
                                                                          skill.name))
        steps.append(_pick(rng, _SKILL_STEPS).format(w=_pick(rng, words),
                                                     prep=_pick(rng, _PREPS), thing=thing))
    for code in items:
        steps.append(_item_step(theme, code, thing, rng))
    rng.shuffle(steps)
    named = any(thing in step for step in steps)
    if advantage and target is not None and (len(steps) < 2 or not named or rng.below(3) == 0):
        steps.insert(0, _pick(rng, _SIZE_UP).format(thing=thing))
    return _join(steps, rng)


def _item_step(theme: Theme, code: str, thing: str, rng: Rng) -> str:
    item = theme.items[code]
    does = _verbs(theme.plan_words.item_does.get(code, ()))
    on = theme.plan_words.item_on.get(code, ())
    if not does:  # a playsheet without plan words: the item's blurb says what it does
        does = _own_words(tuple(words_of(item.blurb)), item.name)
    template = _pick(rng, _ITEM_STEPS)
    target = _pick(rng, on) if on and "{on}" in template else thing
    return template.format(does=_pick(rng, does), on=target, thing=thing, item=item.name)


def _own_words(words: tuple[str, ...], name: str) -> tuple[str, ...]:
    named = set(words_of(name))
    out = tuple(w for w in words if w not in named and w not in STOPWORDS and len(w) > 2)
    return out or ("use",)


# A plan names the thing by its head noun phrase ("debris field", not "debris field beyond a
# hull breach"): shorter reads better, and keeps an item's use words near the item's name.
_LINKS = frozenset("beyond behind that which who where with across on in over between through "
                   "under outside along to of from at near above below inside around".split())


def _thing_words(target: Target | None) -> str:
    if target is None:
        return "danger"
    words = target.name.split()
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
    return text[:1].upper() + text[1:]


__all__ = ["PlanWriter", "thing_in_view", "write_plan"]
