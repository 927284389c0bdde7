"""The rubric that judges a plan when teller_policy="rubric" (PP-A7, PP-R13), in the open.

A pure function of the plan text, the declared sources, the theme and the thing faced; every
verdict carries its reasons source by source (docs/plans.md has examples):

- a channelled **skill** earns +1 when the plan says what the Hero does with it: one of the
  skill's action words (its keywords and `[plan_words.skills]`), in any inflection. Its name
  alone ("with my Agility") is not a deed and earns nothing;
- a committed **item** earns +1 only when the plan says how it is used: a word of what it does
  or of what it acts on (`[plan_words.items]`, else the words of its blurb) in the same
  sentence as, and within `USE_REACH` words of, a word naming the item;
- the **roll-twice** (advantage) needs all of: the plan deals with the thing itself (one of
  its words), in at least `STEPS_FOR_ADVANTAGE` steps that each do something (steps end at
  . ; ! ? or an order word: then, next, once ...), with at least `advantage_threshold`
  approved sources (None: never).

Words are compared by their stems, so "dodging", "dodged" and "dodges" all count for "dodge";
a word of five letters or more with one letter wrong, missing, extra or swapped counts as the
word it misspells. Skill and item names never count as evidence. The stemmer is injected
(`PlanJudge(stem)`): this package imports no third-party code, and pocketgalaxy/registry.py
gives every way of getting the rules the same Snowball stemmer, so records replay identically.

Refused items are not consumed (the rules keep them in the inventory).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from pocketgalaxy.core.mypyc_marks import mypyc_attr
from pocketgalaxy.games.perils.content import Theme
from pocketgalaxy.games.perils.plan_words import (
    ORDER_WORDS,
    STOPWORDS,
    Lexicon,
    near,
    sentences,
    words_of,
)
from pocketgalaxy.games.perils.verdict import (
    AdvantageCheck,
    Judgement,
    SourceCredit,
    approve_all,
    explanation_json,
    overruled,
)

__all__ = ["HINTS_SHOWN", "STEPS_FOR_ADVANTAGE", "USE_REACH", "AdvantageCheck", "Judgement",
           "PlanJudge", "SourceCredit", "StandInThing", "Target", "approve_all",
           "explanation_json", "overruled", "stand_in_thing"]

Stem = Callable[[str], str]
USE_REACH: Final = 8
"""How many words apart an item's name and the word of its use may be."""
STEPS_FOR_ADVANTAGE: Final = 2
DETAILED_WORDS: Final = 20
"""Kept for the harsh Teller style: it wants twice this many words for the roll-twice."""
HINTS_SHOWN: Final = 4
_MEMO_LIMIT: Final = 20_000
_THINGS_KEPT: Final = 4096


class Target(Protocol):
    """What the Hero faces: a name and the words of the thing and what works against it."""

    @property
    def name(self) -> str: ...

    @property
    def plan_words(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class StandInThing:
    """A bare target (a name and the words that deal with it) when the theme has no thing."""

    name: str
    plan_words: tuple[str, ...]


def stand_in_thing(theme: Theme, code: str) -> Target:
    """A thing of the theme that fits card `code` (the first by id), for tests and tools where
    no game has chosen one; a game's own choice is `content.thing_for(state, code)`."""
    fitting = sorted((t for t in theme.things.values() if t.fits(code)), key=lambda t: t.id)
    return fitting[0] if fitting else StandInThing("danger", ())


# `_Word.flags`, and `_Words.marks`' values.
_STOP: Final = 1
_ORDER: Final = 2
_NAME_START: Final = 4
_STEM: Final = 2
_NEAR: Final = 1


class _Word:
    """One distinct plan word against a theme's vocabulary. `exact`: the bits of the source
    lists (`_Vocab.sources`) its stem is in; `hit`: of those it counts for, by stem or as a
    misspelling (a superset); `thing_exact` and `thing_hit` the same over the theme's things
    (`_Vocab.things`); `flags`: a stopword, an order word, a name's first word."""

    def __init__(self, exact: int, hit: int, thing_exact: int, thing_hit: int,
                 flags: int) -> None:
        self.exact = exact
        self.hit = hit
        self.thing_exact = thing_exact
        self.thing_hit = thing_hit
        self.flags = flags


@dataclass(frozen=True)
class _Words:
    """A list of evidence words: surface forms (in order, for hints) and their stems."""

    surface: tuple[str, ...]
    stems: frozenset[str]
    long_stems: tuple[str, ...]
    kept: bool = True
    """Held by the judge for good (its memos then live as long as the judge)."""
    marks: dict[str, int] = field(default_factory=dict, compare=False, hash=False, repr=False)
    """Memo (a thing outside the theme's): plan word -> `_STEM` (its stem is one of this
    list's), `_NEAR` (it counts only as a misspelling) or 0."""
    bit: int = 0
    """This list's bit in its lexicon (`Lexicon`; 0: not in one)."""
    hints: tuple[str, ...] = ()
    """The first `HINTS_SHOWN` surface words: what a verdict shows as words that count."""


def _lexicon(lists: list[_Words]) -> Lexicon:
    return Lexicon([(w.bit, w.stems, w.surface, w.long_stems) for w in lists])


@dataclass(frozen=True)
class _Vocab:
    """A theme's vocabulary, stemmed once per judge."""

    skills: dict[str, _Words]
    item_refs: dict[str, _Words]
    item_uses: dict[str, _Words]
    names: dict[str, tuple[tuple[str, ...], ...]]
    """Every skill's and item's full name as words, by its first word."""
    skill_names: dict[str, tuple[str, ...]]
    item_names: dict[str, tuple[str, ...]]
    sources: Lexicon
    """The skill, reference and use lists, each with its own bit."""
    things: Lexicon
    """The theme's things' words, each thing with its own bit."""
    thing_words: dict[tuple[str, tuple[str, ...]], _Words]
    """The theme's things' lists, by name and plan words (as `PlanJudge._thing_words`)."""
    words: dict[str, _Word] = field(default_factory=dict, compare=False, hash=False,
                                    repr=False)
    """Memo: plan word -> what it is to this vocabulary: one look-up per word of a plan."""


@mypyc_attr(allow_interpreted_subclasses=True)
class PlanJudge:
    """The rubric bound to a stemmer (`stem("dodging") == stem("dodge")`). `name` says which
    stemmer, for records and docs. Verdicts are memoised (bounded; values immutable)."""

    def __init__(self, stem: Stem, name: str = "custom") -> None:
        self.name = name
        self._stem_fn = stem
        self._stems: dict[str, str] = {}
        self._vocabs: dict[tuple[str, str], _Vocab] = {}
        self._last_vocab: tuple[Theme, _Vocab] | None = None  # the theme asked last, by identity
        self._memo: dict[tuple[Any, ...], Judgement] = {}
        self._things: dict[tuple[str, tuple[str, ...]], _Words] = {}
        # The word-less plan's parts (`_judge_silent`): credits by theme, checks by thing.
        self._silent: dict[tuple[str, str], dict[str, SourceCredit]] = {}
        self._silent_needs: dict[tuple[str, tuple[str, ...]],
                                 dict[int | None, AdvantageCheck]] = {}

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as the stemmer and name (the stemmer must pickle: a module-level function);
        # the memos are caches, rebuilt in the new process.
        return (type(self), (self._stem_fn, self.name))

    def _thing_words(self, target: Target) -> _Words:
        key = (target.name, tuple(target.plan_words))
        got = self._things.get(key)
        if got is None:
            got = self._words([target.name, *target.plan_words])
            if len(self._things) < _THINGS_KEPT:  # themes hold a bounded number of things
                self._things[key] = got
            else:
                got = _Words(got.surface, got.stems, got.long_stems, kept=False,
                             hints=got.hints)
        return got

    def stem(self, word: str) -> str:
        got = self._stems.get(word)
        if got is None:
            if len(self._stems) > _MEMO_LIMIT:
                self._stems.clear()
            got = self._stems[word] = self._stem_fn(word)
        return got

    # -- vocabulary -------------------------------------------------------------------
    def _words(self, words: list[str], exclude: frozenset[str] = frozenset(), bit: int = 0
               ) -> _Words:
        surface = _surface(words, exclude)
        stems = frozenset(self.stem(w) for w in surface)
        return _Words(surface, stems, tuple(sorted(s for s in stems if len(s) >= 5)), bit=bit,
                      hints=surface[:HINTS_SHOWN])

    def vocab(self, theme: Theme) -> _Vocab:
        last = self._last_vocab
        if last is not None and last[0] is theme:  # held here, so its id is not reused
            return last[1]
        key = (theme.source, theme.id)
        got = self._vocabs.get(key)
        if got is not None:
            self._last_vocab = (theme, got)
            return got
        pw = theme.plan_words
        skills: dict[str, _Words] = {}
        skill_names: dict[str, tuple[str, ...]] = {}
        for suit, skill in theme.skills.items():
            name = tuple(words_of(skill.name))
            skill_names[suit] = name
            # The playsheet's action words first: they make the best hints.
            skills[suit] = self._words([*pw.skills.get(suit, ()), *skill.keywords],
                                       frozenset(name), 1 << len(skills))
        refs: dict[str, _Words] = {}
        item_names: dict[str, tuple[str, ...]] = {}
        for code, item in theme.items.items():
            item_names[code] = tuple(words_of(item.name))
            refs[code] = self._words([item.name, *item.keywords],
                                     bit=1 << (len(skills) + len(refs)))
        uses: dict[str, _Words] = {}
        for code, item in theme.items.items():
            said = [*pw.item_does.get(code, ()), *pw.item_on.get(code, ())]
            ref_words = frozenset(words_of(" ".join([item.name, *item.keywords])))
            uses[code] = self._words(said or [item.blurb], ref_words,
                                     1 << (len(skills) + len(refs) + len(uses)))
        by_first: dict[str, list[tuple[str, ...]]] = {}
        for n in sorted({*skill_names.values(), *item_names.values()}):
            if n:
                by_first.setdefault(n[0], []).append(n)
        names = {w: tuple(ns) for w, ns in by_first.items()}
        things: dict[tuple[str, tuple[str, ...]], _Words] = {}
        for thing in sorted(theme.things.values(), key=lambda t: t.id):
            thing_key = (thing.name, tuple(thing.plan_words))
            if thing_key not in things:
                things[thing_key] = self._words([thing.name, *thing.plan_words],
                                                bit=1 << len(things))
        got = self._vocabs[key] = _Vocab(
            skills, refs, uses, names, skill_names, item_names,
            _lexicon([*skills.values(), *refs.values(), *uses.values()]),
            _lexicon(list(things.values())), things)
        self._last_vocab = (theme, got)
        return got

    def _word(self, vocab: _Vocab, text: str) -> _Word:
        """What a plan word is to the vocabulary (`_Vocab.words`, memoised)."""
        s = self.stem(text)
        exact, hit = vocab.sources.match(text, s)
        thing_exact, thing_hit = vocab.things.match(text, s)
        flags = ((_STOP if text in STOPWORDS else 0) | (_ORDER if text in ORDER_WORDS else 0)
                 | (_NAME_START if text in vocab.names else 0))
        memo = vocab.words
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        got = memo[text] = _Word(exact, hit, thing_exact, thing_hit, flags)
        return got

    def _mark(self, words: _Words, text: str) -> int:
        """`_STEM`, `_NEAR` or 0: how a plan word counts for a thing outside the theme's
        (`_Words.marks`, memoised)."""
        s = self.stem(text)
        if s in words.stems:
            got = _STEM
        elif len(text) >= 5 and (any(near(text, w) for w in words.surface)
                                 or any(near(s, w) for w in words.long_stems)):
            got = _NEAR
        else:
            got = 0
        memo = words.marks
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        memo[text] = got
        return got

    # -- judging ------------------------------------------------------------------------
    def judge(self, plan: str, channel: str | None, items: tuple[str, ...], theme: Theme,
              advantage_threshold: int | None, target: Target | None = None) -> Judgement:
        """Judge a plan by the rubric; see the module docstring."""
        if not plan:
            # No memo for the empty plan (a random Hero's): its verdict is built from
            # per-source parts faster than a key over the items and the thing is hashed, and
            # the memo would keep thousands of entries alive for the collector to visit.
            return self._judge(plan, channel, items, theme, advantage_threshold, target)
        key = (plan, channel, items, theme.source, theme.id, advantage_threshold,
               (target.name, target.plan_words) if target is not None else None)
        got = self._memo.get(key)
        if got is None:
            if len(self._memo) > _MEMO_LIMIT:
                self._memo.clear()
            got = self._memo[key] = self._judge(plan, channel, items, theme,
                                                advantage_threshold, target)
        return got

    def _judge(self, plan: str, channel: str | None, items: tuple[str, ...], theme: Theme,
               threshold: int | None, target: Target | None) -> Judgement:
        parts = sentences(plan) if plan else []
        if not parts:
            return self._judge_silent(channel, items, theme, threshold, target)
        vocab = self.vocab(theme)
        memo = vocab.words
        # Each word is looked up once, in the vocabulary's memo (what it counts for, what kind
        # of word it is). Only the words that count for something (a source's list, one of
        # the theme's things, the start of a name) are kept, in lists indexed by k: their
        # position, what they are, their step and their sentence.
        words: list[str] = []
        at: list[int] = []
        infos: list[_Word] = []
        step_of: list[int] = []
        sentence: list[int] = []
        step = -1
        for number, said in enumerate(parts):
            step += 1  # a new sentence is a new step
            start = len(words)
            words.extend(said)
            for j in range(len(said)):
                text = said[j]
                info = memo.get(text)
                if info is None:
                    info = self._word(vocab, text)
                flags = info.flags
                if flags & _ORDER and j:
                    step += 1
                if info.hit or info.thing_hit or flags & _NAME_START:
                    at.append(start + j)
                    infos.append(info)
                    step_of.append(step)
                    sentence.append(number)
        # Evidence is a content word: no stopword, and no word of a skill's or item's name.
        named = [False] * len(words)
        for k in range(len(at)):
            if infos[k].flags & _NAME_START:
                _mark_name(words, named, at[k], vocab.names[words[at[k]]])
        content = [not infos[k].flags & _STOP and not named[at[k]] for k in range(len(at))]
        evidence: set[int] = set()
        credits: list[SourceCredit] = []
        approve_channel = False
        if channel is not None:
            skill = vocab.skills[channel]
            bit = skill.bit
            used = [k for k in range(len(at)) if infos[k].hit & bit and content[k]]
            if used:
                approve_channel = True
                for k in used:
                    evidence.add(step_of[k])
                shown, reason = _distinct(words, at, used), "used"
            else:
                shown = _named(words, vocab.skill_names[channel])
                reason = "named_only" if shown else "not_used"
            credits.append(SourceCredit("skill", channel, theme.skills[channel].name,
                                        approve_channel, reason, shown, skill.hints))
        approved: list[str] = []
        naming = [False] * len(at)  # words naming a committed item: not the thing's misspelt
        for code in items:
            use_words = vocab.item_uses[code]
            ref_bit, use_bit = vocab.item_refs[code].bit, use_words.bit
            # A word spelt exactly as a use is a use, even if it looks like a misspelt name.
            refs = [k for k in range(len(at)) if infos[k].exact & ref_bit or (
                infos[k].hit & ref_bit and not infos[k].exact & use_bit)]
            uses: list[int] = []
            if refs:
                for k in refs:
                    naming[k] = True
                uses = [k for k in range(len(at)) if infos[k].hit & use_bit and content[k]
                        and k not in refs and _within_reach(refs, k, at, sentence)]
            if uses:
                approved.append(code)
                for k in uses:
                    evidence.add(step_of[k])
            reason = "used" if uses else ("named_only" if refs else "not_used")
            credits.append(SourceCredit("item", code, theme.items[code].name, bool(uses),
                                        reason, _distinct(words, at, uses if uses else refs),
                                        use_words.hints))
        thing_hits: list[int] = []
        thing_hints: tuple[str, ...] = ()
        shown_thing: tuple[str, ...] = ()
        if target is not None:
            thing = vocab.thing_words.get((target.name, tuple(target.plan_words)))
            if thing is not None:  # one of the theme's things: its bit in every word's info
                bit = thing.bit
                for k in range(len(at)):
                    info = infos[k]
                    if (info.thing_hit & bit and content[k]
                            and (info.thing_exact & bit or not naming[k])):
                        thing_hits.append(k)
                        evidence.add(step_of[k])
                shown_thing = _distinct(words, at, thing_hits)
            else:
                thing = self._thing_words(target)
                shown_thing = self._thing_hits(thing, parts, vocab, set(
                    at[k] for k in range(len(at)) if naming[k]), named, evidence)
            thing_hints = thing.hints
        sources = int(approve_channel) + len(approved)
        steps = len(evidence)
        granted = (threshold is not None and sources >= threshold and bool(shown_thing)
                   and steps >= STEPS_FOR_ADVANTAGE)
        needs = AdvantageCheck(threshold, sources, target.name if target else None,
                               shown_thing, thing_hints, steps, STEPS_FOR_ADVANTAGE, granted)
        return Judgement(approve_channel, tuple(approved), granted, tuple(credits), needs)

    def _thing_hits(self, thing: _Words, parts: list[list[str]], vocab: _Vocab,
                    naming: set[int], named: list[bool], evidence: set[int]) -> tuple[str, ...]:
        """`_judge` against a thing outside the theme's (memoised per thing): the content words
        that are its own words, or misspell them without naming a committed item; their steps
        join `evidence`."""
        marks = thing.marks
        out: list[str] = []
        i = 0
        step = -1
        for said in parts:
            step += 1
            for j in range(len(said)):
                text = said[j]
                flags = (vocab.words.get(text) or self._word(vocab, text)).flags
                if flags & _ORDER and j:
                    step += 1
                if not flags & _STOP and not named[i]:
                    mark = marks.get(text)
                    if mark is None:
                        mark = self._mark(thing, text)
                    if mark == _STEM or (mark == _NEAR and i not in naming):
                        evidence.add(step)
                        if text not in out:
                            out.append(text)
                i += 1
        return tuple(out)

    def _judge_silent(self, channel: str | None, items: tuple[str, ...], theme: Theme,
                      threshold: int | None, target: Target | None) -> Judgement:
        """`_judge` of a plan without a word (a random or a terse Hero's): nothing is used or
        named, so each source's credit depends on the source alone and is built once per
        theme, and the roll-twice check on the thing and the threshold alone. Only surface
        words are needed (the hints), so nothing is stemmed: a process of random playouts
        never builds the stemmed vocabulary. The same verdict as the general path
        (tests/games/perils/test_rubric_fast.py checks it against the reference)."""
        key = (theme.source, theme.id)
        silent = self._silent.get(key)
        if silent is None:
            silent = self._silent[key] = {}  # bounded: a theme's skills and items
        credits: list[SourceCredit] = []
        if channel is not None:
            got = silent.get(channel)  # suit letters and item codes never clash
            if got is None:
                skill = theme.skills[channel]
                name = tuple(words_of(skill.name))
                named = _named([], name)
                hints = _surface([*theme.plan_words.skills.get(channel, ()), *skill.keywords],
                                 frozenset(name))
                got = silent[channel] = SourceCredit(
                    "skill", channel, skill.name, False, "named_only" if named else "not_used",
                    named, hints[:HINTS_SHOWN])
            credits.append(got)
        for code in items:
            got = silent.get(code)
            if got is None:
                item = theme.items[code]
                pw = theme.plan_words
                said = [*pw.item_does.get(code, ()), *pw.item_on.get(code, ())]
                ref_words = frozenset(words_of(" ".join([item.name, *item.keywords])))
                hints = _surface(said or [item.blurb], ref_words)
                got = silent[code] = SourceCredit("item", code, item.name, False, "not_used",
                                                  (), hints[:HINTS_SHOWN])
            credits.append(got)
        if target is None:
            needs = AdvantageCheck(threshold, 0, None, (), (), 0, STEPS_FOR_ADVANTAGE, False)
        else:
            thing_key = (target.name, tuple(target.plan_words))
            by_threshold = self._silent_needs.get(thing_key)
            if by_threshold is None:
                by_threshold = {}
                if len(self._silent_needs) < _THINGS_KEPT:  # themes hold a bounded number
                    self._silent_needs[thing_key] = by_threshold
            got_needs = by_threshold.get(threshold)
            if got_needs is None:
                hints = _surface([target.name, *target.plan_words])
                got_needs = by_threshold[threshold] = AdvantageCheck(
                    threshold, 0, target.name, (), hints[:HINTS_SHOWN], 0, STEPS_FOR_ADVANTAGE,
                    False)
            needs = got_needs
        return Judgement(False, (), False, tuple(credits), needs)


def _surface(words: list[str], exclude: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """A word list's surface forms: each word's parts, in order, once, without stopwords and
    `exclude` (what `_Words.surface` holds; no stemming)."""
    surface: list[str] = []
    for w in words:
        for part in words_of(w):
            if part not in STOPWORDS and part not in exclude and part not in surface:
                surface.append(part)
    return tuple(surface)


def _mark_name(words: list[str], named: list[bool], i: int,
               names: tuple[tuple[str, ...], ...]) -> None:
    """Mark the words from position i that spell out one of `names` (a skill's or an item's
    full name is never evidence, for any source)."""
    n = len(words)
    for name in names:
        k = len(name)
        if i + k <= n and all(words[i + j] == name[j] for j in range(k)):
            for j in range(i, i + k):
                named[j] = True


def _within_reach(refs: list[int], u: int, at: list[int], sentence: list[int]) -> bool:
    """A word naming the item (one of `refs`) in the same sentence as word u, at most
    USE_REACH words away (indices into `_judge`'s lists of words that count)."""
    for r in refs:
        if sentence[r] == sentence[u] and -USE_REACH <= at[r] - at[u] <= USE_REACH:
            return True
    return False


def _named(words: list[str], name: tuple[str, ...]) -> tuple[str, ...]:
    n = len(name)
    for i in range(len(words) - n + 1):
        if tuple(words[i:i + n]) == name:
            return (" ".join(name),)
    return ()


def _distinct(words: list[str], at: list[int], found: list[int]) -> tuple[str, ...]:
    """The words `found` (indices into `at`, their positions), each once, in order."""
    if len(found) == 1:
        return (words[at[found[0]]],)
    out: list[str] = []
    for k in found:
        text = words[at[k]]
        if text not in out:
            out.append(text)
    return tuple(out)
