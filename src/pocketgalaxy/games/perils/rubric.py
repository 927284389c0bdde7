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
from typing import Any, Protocol

from pocketgalaxy.core.mypyc_marks import mypyc_attr
from pocketgalaxy.games.perils.content import Theme
from pocketgalaxy.games.perils.plan_words import (
    STOPWORDS,
    Token,
    near,
    tokens,
    words_of,
)

Stem = Callable[[str], str]
USE_REACH = 8
"""How many words apart an item's name and the word of its use may be."""
STEPS_FOR_ADVANTAGE = 2
DETAILED_WORDS = 20
"""Kept for the harsh Teller style: it wants twice this many words for the roll-twice."""
HINTS_SHOWN = 4
_MEMO_LIMIT = 20_000
_THINGS_KEPT = 4096


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


# The verdict's classes write their own `__init__` (the dataclass keeps the fields, repr,
# equality and frozen guard): compiled, it stores the fields in C, where the dataclass-made one
# stays interpreted code (about 10,000 instructions for a `Judgement`). Parameters are the
# fields, in order, with the same defaults.
@dataclass(frozen=True)
class SourceCredit:
    """The judgement of one declared source. `reason`: used (it earned +1), named_only (named,
    never used), not_used (never used or named), approve_all, or teller (the Teller decided
    otherwise than the rubric found). `words`: the plan's words that used or named it;
    `hints`: words that would count."""

    kind: str
    code: str
    name: str
    credited: bool
    reason: str
    words: tuple[str, ...]
    hints: tuple[str, ...]

    def __init__(self, kind: str, code: str, name: str, credited: bool, reason: str,
                 words: tuple[str, ...], hints: tuple[str, ...]) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "credited", credited)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "words", words)
        object.__setattr__(self, "hints", hints)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "code": self.code, "name": self.name,
                "credited": self.credited, "reason": self.reason, "words": list(self.words),
                "hints": list(self.hints)}


@dataclass(frozen=True)
class AdvantageCheck:
    """What the roll-twice needs and what the plan met: `threshold` approved sources (None:
    never), the thing's words (`thing_words` found in the plan), `steps_needed` steps."""

    threshold: int | None
    sources: int
    thing: str | None
    thing_words: tuple[str, ...]
    thing_hints: tuple[str, ...]
    steps: int
    steps_needed: int
    granted: bool

    def __init__(self, threshold: int | None, sources: int, thing: str | None,
                 thing_words: tuple[str, ...], thing_hints: tuple[str, ...], steps: int,
                 steps_needed: int, granted: bool) -> None:
        object.__setattr__(self, "threshold", threshold)
        object.__setattr__(self, "sources", sources)
        object.__setattr__(self, "thing", thing)
        object.__setattr__(self, "thing_words", thing_words)
        object.__setattr__(self, "thing_hints", thing_hints)
        object.__setattr__(self, "steps", steps)
        object.__setattr__(self, "steps_needed", steps_needed)
        object.__setattr__(self, "granted", granted)

    def to_json(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "sources": self.sources, "thing": self.thing,
                "thing_words": list(self.thing_words), "thing_hints": list(self.thing_hints),
                "steps": self.steps, "steps_needed": self.steps_needed,
                "granted": self.granted}


@dataclass(frozen=True)
class Judgement:
    approve_channel: bool
    approve_items: tuple[str, ...]
    advantage: bool
    credits: tuple[SourceCredit, ...] = ()
    needs: AdvantageCheck | None = None

    def __init__(self, approve_channel: bool, approve_items: tuple[str, ...], advantage: bool,
                 credits: tuple[SourceCredit, ...] = (), needs: AdvantageCheck | None = None
                 ) -> None:
        object.__setattr__(self, "approve_channel", approve_channel)
        object.__setattr__(self, "approve_items", approve_items)
        object.__setattr__(self, "advantage", advantage)
        object.__setattr__(self, "credits", credits)
        object.__setattr__(self, "needs", needs)


def explanation_json(verdict: Judgement) -> dict[str, Any]:
    """The reasons of a verdict as plain JSON (what the shells render)."""
    return {"sources": [c.to_json() for c in verdict.credits],
            "advantage": verdict.needs.to_json() if verdict.needs else None}


def stand_in_thing(theme: Theme, code: str) -> Target:
    """A thing of the theme that fits card `code` (the first by id), for tests and tools where
    no game has chosen one; a game's own choice is `content.thing_for(state, code)`."""
    fitting = sorted((t for t in theme.things.values() if t.fits(code)), key=lambda t: t.id)
    return fitting[0] if fitting else StandInThing("danger", ())


def _content(text: str) -> tuple[str, ...]:
    seen: list[str] = []
    for w in words_of(text):
        if w not in STOPWORDS and len(w) > 2 and w not in seen:
            seen.append(w)
    return tuple(seen)


@dataclass(frozen=True)
class _Words:
    """A list of evidence words: surface forms (in order, for hints) and their stems."""

    surface: tuple[str, ...]
    stems: frozenset[str]
    long_stems: tuple[str, ...]
    kept: bool = True
    """Held by the judge for good (its memos then live as long as the judge)."""
    hits: dict[str, bool] = field(default_factory=dict, compare=False, hash=False, repr=False)
    """Memo: plan word -> counts for this list (by stem or as a misspelling)."""
    exact: dict[str, bool] = field(default_factory=dict, compare=False, hash=False, repr=False)
    """Memo: plan word -> its stem is one of this list's."""
    bit: int = 0
    """This list's bit in its vocabulary's word masks (`_Vocab.masks`; 0: not in one)."""


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
    lists: tuple[_Words, ...] = ()
    """The skill, reference and use lists, each with its own bit."""
    masks: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False, hash=False,
                                              repr=False)
    """Memo: plan word -> (bits of the lists its stem is in, bits of the lists it counts for
    by stem or as a misspelling): one look-up per word instead of one per word and list."""


@mypyc_attr(allow_interpreted_subclasses=True)
class PlanJudge:
    """The rubric bound to a stemmer (`stem("dodging") == stem("dodge")`). `name` says which
    stemmer, for records and docs. Verdicts are memoised (bounded; values immutable)."""

    def __init__(self, stem: Stem, name: str = "custom") -> None:
        self.name = name
        self._stem_fn = stem
        self._stems: dict[str, str] = {}
        self._vocabs: dict[tuple[str, str], _Vocab] = {}
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
                got = _Words(got.surface, got.stems, got.long_stems, kept=False)
        return got

    def stem(self, word: str) -> str:
        got = self._stems.get(word)
        if got is None:
            if len(self._stems) > _MEMO_LIMIT:
                self._stems.clear()
            got = self._stems[word] = self._stem_fn(word)
        return got

    # -- vocabulary -------------------------------------------------------------------
    def _words(self, words: list[str], exclude: frozenset[str] = frozenset()) -> _Words:
        surface = _surface(words, exclude)
        stems = frozenset(self.stem(w) for w in surface)
        return _Words(surface, stems, tuple(sorted(s for s in stems if len(s) >= 5)))

    def vocab(self, theme: Theme) -> _Vocab:
        key = (theme.source, theme.id)
        got = self._vocabs.get(key)
        if got is not None:
            return got
        pw = theme.plan_words
        skills = {}
        skill_names = {}
        for suit, skill in theme.skills.items():
            name = tuple(words_of(skill.name))
            skill_names[suit] = name
            # The playsheet's action words first: they make the best hints.
            skills[suit] = self._words([*pw.skills.get(suit, ()), *skill.keywords], frozenset(name))
        refs, uses, item_names = {}, {}, {}
        for code, item in theme.items.items():
            name = tuple(words_of(item.name))
            item_names[code] = name
            refs[code] = self._words([item.name, *item.keywords])
            said = [*pw.item_does.get(code, ()), *pw.item_on.get(code, ())]
            ref_words = frozenset(words_of(" ".join([item.name, *item.keywords])))
            uses[code] = self._words(said or [item.blurb], ref_words)
        by_first: dict[str, list[tuple[str, ...]]] = {}
        for n in sorted({*skill_names.values(), *item_names.values()}):
            if n:
                by_first.setdefault(n[0], []).append(n)
        names = {w: tuple(ns) for w, ns in by_first.items()}
        lists: list[_Words] = []
        for table in (skills, refs, uses):
            for k in list(table):
                w = table[k]
                table[k] = _Words(w.surface, w.stems, w.long_stems, bit=1 << len(lists))
                lists.append(table[k])
        got = self._vocabs[key] = _Vocab(skills, refs, uses, names, skill_names, item_names,
                                         tuple(lists))
        return got

    def _masks(self, vocab: _Vocab, texts: set[str]) -> dict[str, tuple[int, int]]:
        """Each distinct plan word's (exact, hit) bits over the vocabulary's lists."""
        memo = vocab.masks
        out = {}
        for text in texts:
            got = memo.get(text)
            if got is None:
                s = self.stem(text)
                exact = hit = 0
                for words in vocab.lists:
                    if s in words.stems:
                        exact |= words.bit
                        hit |= words.bit
                    elif len(text) >= 5 and (any(near(text, w) for w in words.surface)
                                             or any(near(s, w) for w in words.long_stems)):
                        hit |= words.bit
                if len(memo) > _MEMO_LIMIT:
                    memo.clear()
                got = memo[text] = (exact, hit)
            out[text] = got
        return out

    def _exact_set(self, texts: set[str], words: _Words) -> set[str]:
        """The plan's distinct words whose stem is one of the list's (memoised per list)."""
        memo = words.exact
        out = set()
        for text in texts:
            got = memo.get(text)
            if got is None:
                if len(memo) > _MEMO_LIMIT:
                    memo.clear()
                got = memo[text] = self.stem(text) in words.stems
            if got:
                out.add(text)
        return out

    def _hit_set(self, texts: set[str], words: _Words) -> set[str]:
        """The plan's distinct words that are one of the list's, by stem or as a misspelling
        (memoised per list: plans reuse their words). Only membership is read from the set,
        so its order never reaches a verdict."""
        memo = words.hits
        out = set()
        for text in texts:
            got = memo.get(text)
            if got is None:
                s = self.stem(text)
                got = s in words.stems or (len(text) >= 5 and (
                    any(near(text, w) for w in words.surface)
                    or any(near(s, w) for w in words.long_stems)))
                if len(memo) > _MEMO_LIMIT:
                    memo.clear()
                memo[text] = got
            if got:
                out.add(text)
        return out

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
        toks = tokens(plan) if plan else []
        if not toks:
            return self._judge_silent(channel, items, theme, threshold, target)
        vocab = self.vocab(theme)
        masked = _name_tokens(toks, vocab.names)
        content = [t for t in toks if t.index not in masked and t.text not in STOPWORDS]
        # Each word list is matched once per distinct plan word; the tokens then only look
        # their word up in the resulting sets.
        every = {t.text for t in toks}
        said = {t.text for t in content}
        masks = self._masks(vocab, every)
        evidence: set[int] = set()
        credits: list[SourceCredit] = []
        approve_channel = False
        if channel is not None:
            skill = vocab.skills[channel]
            bit = skill.bit
            hits = [t for t in content if masks[t.text][1] & bit]
            evidence.update(t.step for t in hits)
            approve_channel = bool(hits)
            named = _named(toks, vocab.skill_names[channel])
            reason = "used" if hits else ("named_only" if named else "not_used")
            credits.append(SourceCredit("skill", channel, theme.skills[channel].name,
                                        approve_channel, reason,
                                        _texts(hits) if hits else named,
                                        skill.surface[:HINTS_SHOWN]))
        approved: list[str] = []
        naming: set[int] = set()  # words naming a committed item: not the thing's misspelt
        for code in items:
            refs_words, use_words = vocab.item_refs[code], vocab.item_uses[code]
            ref_bit, use_bit = refs_words.bit, use_words.bit
            # A word spelt exactly as a use is a use, even if it looks like a misspelt name.
            refs = []
            for t in toks:
                exact, hit = masks[t.text]
                if exact & ref_bit or (hit & ref_bit and not exact & use_bit):
                    refs.append(t)
            ref_ids = {t.index for t in refs}
            naming |= ref_ids
            uses = [u for u in content if masks[u.text][1] & use_bit
                    and u.index not in ref_ids
                    and any(r.sentence == u.sentence and abs(r.index - u.index) <= USE_REACH
                            for r in refs)] if refs else []
            if uses:
                approved.append(code)
                evidence.update(t.step for t in uses)
            reason = "used" if uses else ("named_only" if refs else "not_used")
            credits.append(SourceCredit("item", code, theme.items[code].name, bool(uses),
                                        reason, _texts(uses) if uses else _texts(refs),
                                        use_words.surface[:HINTS_SHOWN]))
        thing_hits: list[Token] = []
        thing_hints: tuple[str, ...] = ()
        if target is not None:
            thing = self._thing_words(target)
            thing_hints = thing.surface[:HINTS_SHOWN]
            thing_exact = self._exact_set(said, thing)
            near_hit = self._hit_set(said, thing)
            thing_hits = [t for t in content if t.text in thing_exact or (
                t.index not in naming and t.text in near_hit)]
            evidence.update(t.step for t in thing_hits)
        sources = int(approve_channel) + len(approved)
        steps = len(evidence)
        granted = (threshold is not None and sources >= threshold and bool(thing_hits)
                   and steps >= STEPS_FOR_ADVANTAGE)
        needs = AdvantageCheck(threshold, sources, target.name if target else None,
                               _texts(thing_hits), thing_hints, steps, STEPS_FOR_ADVANTAGE,
                               granted)
        return Judgement(approve_channel, tuple(approved), granted, tuple(credits), needs)

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


def _name_tokens(toks: list[Token], names: dict[str, tuple[tuple[str, ...], ...]]) -> set[int]:
    """Positions of the words that spell out a skill's or an item's full name."""
    words = [t.text for t in toks]
    out: set[int] = set()
    for i, w in enumerate(words):
        for name in names.get(w, ()):
            n = len(name)
            if tuple(words[i:i + n]) == name:
                out.update(range(i, i + n))
    return out


def _named(toks: list[Token], name: tuple[str, ...]) -> tuple[str, ...]:
    words = [t.text for t in toks]
    n = len(name)
    for i in range(len(words) - n + 1):
        if tuple(words[i:i + n]) == name:
            return (" ".join(name),)
    return ()


def _texts(found: list[Token]) -> tuple[str, ...]:
    out: list[str] = []
    for t in found:
        if t.text not in out:
            out.append(t.text)
    return tuple(out)


def approve_all(channel: str | None, items: tuple[str, ...], advantage_threshold: int | None,
                theme: Theme | None = None) -> Judgement:
    """teller_policy="approve_all": every declared source approved; advantage by count alone."""
    sources = int(channel is not None) + len(items)
    advantage = advantage_threshold is not None and sources >= advantage_threshold
    credits: list[SourceCredit] = []
    if channel is not None:
        name = theme.skills[channel].name if theme else channel
        credits.append(SourceCredit("skill", channel, name, True, "approve_all", (), ()))
    for code in items:
        name = theme.items[code].name if theme else code
        credits.append(SourceCredit("item", code, name, True, "approve_all", (), ()))
    needs = AdvantageCheck(advantage_threshold, sources, None, (), (), 0, 0, advantage)
    return Judgement(channel is not None, tuple(items), advantage, tuple(credits), needs)


def overruled(advice: Judgement, approve_channel: bool, approve_items: tuple[str, ...],
              advantage: bool) -> Judgement:
    """A Teller's own verdict with the rubric's reasons beside it: a source the Teller judged
    otherwise than the rubric gets the reason "teller"."""
    credits = []
    for c in advice.credits:
        mine = approve_channel if c.kind == "skill" else c.code in approve_items
        credits.append(c if mine == c.credited else
                       SourceCredit(c.kind, c.code, c.name, mine, "teller", c.words, c.hints))
    needs = advice.needs
    if needs is not None:
        sources = int(approve_channel) + len(approve_items)
        needs = AdvantageCheck(needs.threshold, sources, needs.thing, needs.thing_words,
                               needs.thing_hints, needs.steps, needs.steps_needed, advantage)
    return Judgement(approve_channel, approve_items, advantage, tuple(credits), needs)
