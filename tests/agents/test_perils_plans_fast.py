"""The plan writer (agents/perils/plans.py) against the writer it replaced, kept here as the
reference: the same text and the same random draws for thousands of seeded declarations, in
both bundled themes and a playsheet without plan words, against the theme's things, odd
stand-ins and no thing at all. The fast writer works a theme's words out once per skill and
item, fills templates cut once, and remembers each thing's head words."""

from __future__ import annotations

import tomllib

import pytest

from pocketgalaxy.agents.perils.plans import (
    _ITEM_STEPS,
    _JOINS,
    _LINKS,
    _OPENERS,
    _PREPS,
    _SIZE_UP,
    _SKILL_STEPS,
    write_plan,
)
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils.content import PLAYSHEETS, Theme, load_theme, parse_theme
from pocketgalaxy.games.perils.plan_words import STOPWORDS, words_of
from pocketgalaxy.games.perils.rubric import StandInThing, Target


def _pick(rng: Rng, words: tuple[str, ...] | list[str]) -> str:
    return words[rng.below(len(words))]


def _verbs(words: tuple[str, ...]) -> tuple[str, ...]:
    out = tuple(w for w in words if not w.endswith("ly") and " " not in w)
    return out or words


def _own_words(words: tuple[str, ...], name: str) -> tuple[str, ...]:
    named = set(words_of(name))
    out = tuple(w for w in words if w not in named and w not in STOPWORDS and len(w) > 2)
    return out or ("use",)


def reference_write_plan(theme: Theme, channel: str | None, items: tuple[str, ...],
                         target: Target | None, rng: Rng, advantage: bool = True) -> str:
    if channel is None and not items:
        return ""
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
    if not does:
        does = _own_words(tuple(words_of(item.blurb)), item.name)
    template = _pick(rng, _ITEM_STEPS)
    target = _pick(rng, on) if on and "{on}" in template else thing
    return template.format(does=_pick(rng, does), on=target, thing=thing, item=item.name)


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


def _bare() -> Theme:
    data = tomllib.loads((PLAYSHEETS / "cosmic.toml").read_text(encoding="utf-8"))
    del data["plan_words"]
    return parse_theme(data, "bare.toml")


_ODD = [StandInThing("The debris field beyond a hull breach", ()), StandInThing("", ()),
        StandInThing("a", ("a",)), StandInThing("Rats, bats; and cats: all", ()),
        StandInThing("an Ogre", ("ogre",)), StandInThing("  the   slow  lift  ", ()),
        # Inside what an item acts on ("ledge", "edges"): a step names it by chance.
        StandInThing("the edge", ()), StandInThing("a door", ())]


@pytest.mark.parametrize("theme_name", ["cosmic", "dungeon", "bare"])
def test_the_writer_writes_what_the_reference_wrote(theme_name: str) -> None:
    theme = _bare() if theme_name == "bare" else load_theme(theme_name)
    things: list[Target | None] = [None, *sorted(theme.things.values(), key=lambda t: t.id),
                                   *_ODD]
    codes = sorted(theme.items)
    draw = Rng(31)
    seen = set()
    for n in range(2_000):
        channel = draw.choice([None, *sorted(theme.skills)])
        items = tuple(draw.sample(codes, draw.below(6)))
        target = things[n % len(things)]
        advantage = n % 7 != 0
        fast, slow = Rng(1_000 + n), Rng(1_000 + n)
        got = write_plan(theme, channel, items, target, fast, advantage)
        assert got == reference_write_plan(theme, channel, items, target, slow, advantage)
        assert fast.state == slow.state, (channel, items)  # the same draws, no more
        seen.add(got)
    assert len(seen) > 1_500
