"""The rubric's fast judge (rubric.py `_judge`: plain lists of the words that count, each word
looked up once in the vocabulary's memo, every list and thing of the theme matched at once)
against the word-by-word judge it replaced, kept here as the reference: the same verdict,
reasons and hints for thousands of random plans pinned by seed (theme words, misspellings of
them, item and skill names, order words, filler, rough punctuation and letters outside a-z),
for the computer Hero's own plans, and for things inside and outside the theme."""

from __future__ import annotations

import json
import random
import tomllib
from typing import Any

import pytest

from pocketgalaxy.agents.perils.plans import write_plan
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils.content import PLAYSHEETS, Theme, load_theme, parse_theme
from pocketgalaxy.games.perils.plan_words import (
    STOPWORDS,
    Lexicon,
    Token,
    near,
    tokens,
    words_of,
)
from pocketgalaxy.games.perils.rubric import (
    STEPS_FOR_ADVANTAGE,
    USE_REACH,
    AdvantageCheck,
    Judgement,
    PlanJudge,
    SourceCredit,
    StandInThing,
    Target,
    _Words,
    explanation_json,
)
from pocketgalaxy.registry import plan_judge


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


class ReferenceJudge(PlanJudge):
    """The rubric as it was judged token by token before the set look-ups (same rules)."""

    def _exact_one(self, token: Token, words: _Words) -> bool:
        return self.stem(token.text) in words.stems

    def _hit_one(self, token: Token, words: _Words) -> bool:
        text = token.text
        s = self.stem(text)
        return s in words.stems or (len(text) >= 5 and (
            any(near(text, w) for w in words.surface)
            or any(near(s, w) for w in words.long_stems)))

    def _judge(self, plan: str, channel: str | None, items: tuple[str, ...], theme: Theme,
               threshold: int | None, target: Target | None) -> Judgement:
        vocab = self.vocab(theme)
        toks = tokens(plan)
        masked = _name_tokens(toks, vocab.names)
        content = [t for t in toks if t.index not in masked and t.text not in STOPWORDS]
        evidence: set[int] = set()
        credits: list[SourceCredit] = []
        approve_channel = False
        if channel is not None:
            skill = vocab.skills[channel]
            hits = [t for t in content if self._hit_one(t, skill)]
            evidence.update(t.step for t in hits)
            approve_channel = bool(hits)
            named = _named(toks, vocab.skill_names[channel])
            reason = "used" if hits else ("named_only" if named else "not_used")
            credits.append(SourceCredit("skill", channel, theme.skills[channel].name,
                                        approve_channel, reason,
                                        _texts(hits) if hits else named, skill.surface[:4]))
        approved: list[str] = []
        naming: set[int] = set()
        for code in items:
            refs_words, use_words = vocab.item_refs[code], vocab.item_uses[code]
            refs = [t for t in toks if self._exact_one(t, refs_words) or (
                self._hit_one(t, refs_words) and not self._exact_one(t, use_words))]
            ref_ids = {t.index for t in refs}
            naming |= ref_ids
            uses = [u for u in content if u.index not in ref_ids
                    and self._hit_one(u, use_words)
                    and any(r.sentence == u.sentence and abs(r.index - u.index) <= USE_REACH
                            for r in refs)]
            if uses:
                approved.append(code)
                evidence.update(t.step for t in uses)
            reason = "used" if uses else ("named_only" if refs else "not_used")
            credits.append(SourceCredit("item", code, theme.items[code].name, bool(uses),
                                        reason, _texts(uses) if uses else _texts(refs),
                                        use_words.surface[:4]))
        thing_hits: list[Token] = []
        thing_hints: tuple[str, ...] = ()
        if target is not None:
            thing = self._thing_words(target)
            thing_hints = thing.surface[:4]
            thing_hits = [t for t in content if self._exact_one(t, thing) or (
                t.index not in naming and self._hit_one(t, thing))]
            evidence.update(t.step for t in thing_hits)
        sources = int(approve_channel) + len(approved)
        steps = len(evidence)
        granted = (threshold is not None and sources >= threshold and bool(thing_hits)
                   and steps >= STEPS_FOR_ADVANTAGE)
        needs = AdvantageCheck(threshold, sources, target.name if target else None,
                               _texts(thing_hits), thing_hints, steps, STEPS_FOR_ADVANTAGE,
                               granted)
        return Judgement(approve_channel, tuple(approved), granted, tuple(credits), needs)


def _misspell(rng: random.Random, word: str) -> str:
    if len(word) < 4:
        return word
    i = rng.randrange(len(word) - 1)
    kind = rng.randrange(4)
    if kind == 0:  # swap neighbours
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if kind == 1:  # drop a letter
        return word[:i] + word[i + 1:]
    if kind == 2:  # extra letter
        return word[:i] + rng.choice("aeiourst") + word[i:]
    return word[:i] + rng.choice("aeiourst") + word[i + 1:]  # wrong letter


def _pool(theme: Theme) -> list[str]:
    words: list[str] = []
    for skill in theme.skills.values():
        words += [skill.name, *skill.keywords]
    for item in theme.items.values():
        words += [item.name, *item.keywords, *item.blurb.split()]
    for suit_words in theme.plan_words.skills.values():
        words += list(suit_words)
    pw = theme.plan_words
    for code in theme.items:
        words += [*pw.item_does.get(code, ()), *pw.item_on.get(code, ())]
    for thing in theme.things.values():
        words += [thing.name, *thing.plan_words]
    return words + ["then", "next", "first", "finally", "the", "with", "i", "it", "wall", "floor"]


def _plan(rng: random.Random, pool: list[str]) -> str:
    parts: list[str] = []
    for _ in range(rng.randrange(1, 30)):
        w = rng.choice(pool)
        if rng.random() < 0.2:
            w = _misspell(rng, w.lower())
        if rng.random() < 0.3:
            w += rng.choice("ing ed s".split())
        parts.append(w)
        if rng.random() < 0.12:
            parts.append(rng.choice([".", ";", "!", "\n", ","]))
    return " ".join(parts)


def _cases(theme: Theme, seed: int, n: int) -> list[tuple[Any, ...]]:
    rng = random.Random(seed)
    pool = _pool(theme)
    things: list[Target] = sorted(theme.things.values(), key=lambda t: t.id)
    things.append(StandInThing("danger", ()))
    suits = sorted(theme.skills)
    codes = sorted(theme.items)
    out = []
    for _ in range(n):
        channel = rng.choice([None, *suits])
        items = tuple(rng.sample(codes, rng.randrange(0, min(4, len(codes)) + 1)))
        threshold = rng.choice([None, 1, 2, 3])
        target = rng.choice([None, *things])
        out.append((_plan(rng, pool), channel, items, threshold, target))
    return out


@pytest.mark.parametrize("theme_id,seed", [("cosmic", 12), ("dungeon", 34)])
def test_set_judge_agrees_with_the_word_by_word_reference(theme_id: str, seed: int) -> None:
    theme = load_theme(theme_id)
    fast = plan_judge()
    ref = ReferenceJudge(fast._stem_fn, "reference")
    cases = _cases(theme, seed, 1500)
    granted = used = 0
    for plan, channel, items, threshold, target in cases:
        got = fast._judge(plan, channel, items, theme, threshold, target)
        want = ref._judge(plan, channel, items, theme, threshold, target)
        assert got == want, plan
        granted += got.advantage
        used += sum(c.reason == "used" for c in got.credits)
    # The random plans reach every branch: some roll-twice granted, many sources used.
    assert granted > 10
    assert used > 300


_ROUGH = [",", "-", "'", "2", "é", "ß", "İ", "\u212a", "\t", "..", "?!", ";\n", "\u00a0", "—"]


def _rough_plan(rng: random.Random, pool: list[str]) -> str:
    """A plan as a person might type it: capitals, punctuation glued to words or between the
    letters of a name, and characters outside a-z (some lower() turns into a-z)."""
    text = _plan(rng, pool)
    out: list[str] = []
    for ch in text:
        if ch == " " and rng.random() < 0.15:
            out.append(rng.choice(_ROUGH))
            continue
        out.append(ch.upper() if rng.random() < 0.05 else ch)
    return "".join(out)


def _outside_things(theme: Theme, rng: random.Random) -> list[Target]:
    """Targets that are not the theme's things (tools and tests use them): other names, some
    of the theme's thing words, none at all."""
    words = sorted({w for t in theme.things.values() for w in t.plan_words})
    named = sorted({w for i in theme.items.values() for w in words_of(i.name) if len(w) > 4})
    return [StandInThing("danger", ()), StandInThing("a rogue " + rng.choice(words), ()),
            StandInThing("the grid", tuple(rng.sample(words, 4))),
            StandInThing(sorted(theme.things.values(), key=lambda t: t.id)[0].name, ("x",)),
            # Words that name items: a misspelt one names the item, it does not meet the thing.
            StandInThing("a loose " + rng.choice(named), tuple(rng.sample(named, 4)))]


@pytest.mark.parametrize("theme_id,seed", [("cosmic", 56), ("dungeon", 78)])
def test_rough_plans_and_outside_things_agree_with_the_reference(theme_id: str,
                                                                 seed: int) -> None:
    """The fast path's own corners: the ASCII split and its regular-expression fallback,
    names cut by punctuation, a thing outside the theme (matched word by word, memoised per
    thing), a fresh judge and then warm memos."""
    theme = load_theme(theme_id)
    fast = PlanJudge(plan_judge()._stem_fn, "fresh")
    ref = ReferenceJudge(fast._stem_fn, "reference")
    rng = random.Random(seed)
    pool = _pool(theme)
    outside = _outside_things(theme, rng)
    cases = _cases(theme, seed, 1000)
    granted = used = ascii_only = 0
    for n, (plan, channel, items, threshold, target) in enumerate(cases):
        rough = _rough_plan(rng, pool)
        ascii_only += rough.isascii()
        if n % 3 == 0:
            target = rng.choice(outside)
        for text in (rough, plan):
            got = fast._judge(text, channel, items, theme, threshold, target)
            assert got == ref._judge(text, channel, items, theme, threshold, target), text
            granted += got.advantage
            used += sum(c.reason == "used" for c in got.credits)
    assert granted > 10 and used > 300
    assert 100 < ascii_only < 900  # both ways of splitting were taken


@pytest.mark.parametrize("theme_id", ["cosmic", "dungeon"])
def test_the_heros_own_plans_agree_with_the_reference(theme_id: str) -> None:
    """The plans a simulation judges: the plan writer's, for every kind of declaration."""
    theme = load_theme(theme_id)
    fast = PlanJudge(plan_judge()._stem_fn, "fresh")
    ref = ReferenceJudge(fast._stem_fn, "reference")
    rng = Rng(11)
    things = sorted(theme.things.values(), key=lambda t: t.id)
    codes = sorted(theme.items)
    for n in range(600):
        target = things[n % len(things)]
        channel = rng.choice([None, *sorted(theme.skills)])
        items = tuple(rng.sample(codes, rng.below(6)))
        plan = write_plan(theme, channel, items, target, rng, advantage=n % 5 != 0)
        threshold = rng.choice([None, 1, 2, 3, 4])
        got = fast.judge(plan, channel, items, theme, threshold, target)
        assert got == ref._judge(plan, channel, items, theme, threshold, target), plan


def test_a_name_whose_first_word_counts_for_nothing_is_still_no_evidence() -> None:
    """A skill named "Nimble Swing" (made up): "nimble" is in no list, "swing" is a use of the
    Grappling Hook. Spelt out as the name, "swing" is no use; alone, it is."""
    data = tomllib.loads((PLAYSHEETS / "cosmic.toml").read_text(encoding="utf-8"))
    data["skills"]["C"]["name"] = "Nimble Swing"
    theme = parse_theme(data, "nimble.toml")
    fast = PlanJudge(plan_judge()._stem_fn, "fresh")
    ref = ReferenceJudge(fast._stem_fn, "reference")
    named = "With my nimble swing I grab the grappling hook"
    alone = "I swing on the grappling hook"
    for plan in (named, alone):
        assert fast._judge(plan, "S", ("JC",), theme, 3, None) == ref._judge(
            plan, "S", ("JC",), theme, 3, None)
    assert fast._judge(named, "S", ("JC",), theme, 3, None).approve_items == ()
    assert fast._judge(alone, "S", ("JC",), theme, 3, None).approve_items == ("JC",)
    for plan, channel, items, threshold, target in _cases(theme, 3, 600):
        assert fast._judge(plan, channel, items, theme, threshold, target) == ref._judge(
            plan, channel, items, theme, threshold, target), plan


def _brute_force(text: str, stem: str, lists: list[_Words]) -> tuple[int, int]:
    """A plan word against each list in turn (what the judge did before `Lexicon`)."""
    exact = hit = 0
    for words in lists:
        if stem in words.stems:
            exact |= words.bit
            hit |= words.bit
        elif len(text) >= 5 and (any(near(text, w) for w in words.surface)
                                 or any(near(stem, w) for w in words.long_stems)):
            hit |= words.bit
    return exact, hit


@pytest.mark.parametrize("theme_id", ["cosmic", "dungeon"])
def test_the_lexicon_matches_every_list_as_the_lists_one_by_one(theme_id: str) -> None:
    """`Lexicon.match` (stems by table, misspellings only among words within one letter of
    the length and two of the letters) finds the same lists as trying each list in turn."""
    theme = load_theme(theme_id)
    judge = PlanJudge(plan_judge()._stem_fn, "fresh")
    vocab = judge.vocab(theme)
    sources = [*vocab.skills.values(), *vocab.item_refs.values(), *vocab.item_uses.values()]
    things = list(vocab.thing_words.values())
    rng = random.Random(9)
    pool = [w for text in _pool(theme) for w in words_of(text)]
    checked = near_only = 0
    for _ in range(4000):
        text = rng.choice(pool)
        for _ in range(rng.randrange(3)):
            text = _misspell(rng, text)
        text += rng.choice(["", "", "s", "ing", "ed"])
        stem = judge.stem(text)
        for lexicon, lists in ((vocab.sources, sources), (vocab.things, things)):
            got = lexicon.match(text, stem)
            assert got == _brute_force(text, stem, lists), text
            near_only += got[1] != got[0]
            checked += 1
    assert checked == 8000 and near_only > 300
    assert len({w.bit for w in sources}) == len(sources)
    assert len({w.bit for w in things}) == len(things) == len(
        {(t.name, t.plan_words) for t in theme.things.values()})
    assert isinstance(vocab.sources, Lexicon)


def _old_explain(verdict: Judgement, level: int) -> dict[str, Any]:
    """planning.py's reasons before `explanation_json` took the skill's value: the JSON, then
    each source's value set key by key."""
    out = explanation_json(verdict)
    for source in out["sources"]:
        value = level if source["kind"] == "skill" else 1
        source["value"] = value if source["credited"] else 0
    return out


def test_reasons_with_values_are_the_json_they_were() -> None:
    theme = load_theme("cosmic")
    judge = plan_judge()
    for n, (plan, channel, items, threshold, target) in enumerate(_cases(theme, 21, 400)):
        verdict = judge.judge(plan, channel, items, theme, threshold, target)
        level = 1 + n % 4
        got = explanation_json(verdict, level)
        want = _old_explain(verdict, level)
        assert got == want and list(got) == list(want)
        assert [list(s) for s in got["sources"]] == [list(s) for s in want["sources"]]
        assert json.dumps(got) == json.dumps(want)


def test_memoised_judge_gives_the_same_verdicts_twice() -> None:
    """The per-list memos change no verdict the second time round (warm memos)."""
    theme = load_theme("cosmic")
    fast = plan_judge()
    cases = _cases(theme, 5, 300)
    first = [fast._judge(p, c, i, theme, th, t) for p, c, i, th, t in cases]
    second = [fast._judge(p, c, i, theme, th, t) for p, c, i, th, t in cases]
    assert first == second
    assert any(j.approve_channel for j in first)


@pytest.mark.parametrize("theme_id", ["cosmic", "dungeon"])
def test_a_plan_without_words_agrees_with_the_reference(theme_id: str) -> None:
    """The short cut for a plan with no word (`PlanJudge._judge_silent`, what a random Hero's
    empty plan takes) gives the reference's verdict, reasons and hints for every source."""
    theme = load_theme(theme_id)
    fast = PlanJudge(plan_judge()._stem_fn, "fresh")  # fresh memos: the short cut builds them
    ref = ReferenceJudge(fast._stem_fn, "reference")
    things: list[Target] = sorted(theme.things.values(), key=lambda t: t.id)
    things.append(StandInThing("danger", ()))
    codes = sorted(theme.items)
    item_sets = [(), tuple(codes[:1]), tuple(codes[1:4]), tuple(reversed(codes[-3:]))]
    checked = 0
    for plan in ("", "   ", " .;!? \n", ", -"):
        for channel in (None, *sorted(theme.skills)):
            for items in item_sets:
                for threshold in (None, 0, 3):
                    for target in (None, things[0], things[len(things) // 2], things[-1]):
                        got = fast._judge(plan, channel, items, theme, threshold, target)
                        want = ref._judge(plan, channel, items, theme, threshold, target)
                        assert got == want, (plan, channel, items, threshold, target)
                        checked += 1
    assert checked == 4 * (1 + len(theme.skills)) * 4 * 3 * 4
    # The short cut was taken (its per-source credits were memoised, nothing was stemmed).
    assert set(fast._silent[(theme.source, theme.id)]) == (
        set(theme.skills) | set(codes[:4]) | set(codes[-3:]))
    assert fast._stems == {} and fast._vocabs == {}
    verdict = fast._judge("", sorted(theme.skills)[0], tuple(codes[:2]), theme, 3, things[0])
    assert verdict.approve_channel is False and verdict.approve_items == ()
    assert [c.reason for c in verdict.credits] == ["not_used"] * 3
    assert all(c.hints for c in verdict.credits)
    assert verdict.needs is not None and verdict.needs.thing == things[0].name
    # Through the public `judge`: the same verdict, and the empty plan keeps no memo entry.
    public = fast.judge("", sorted(theme.skills)[0], tuple(codes[:2]), theme, 3, things[0])
    assert public == verdict
    assert fast._memo == {}
    assert fast.judge("dodge", None, (), theme, 3, things[0]) == ref._judge(
        "dodge", None, (), theme, 3, things[0])
    assert len(fast._memo) == 1


def test_verdict_classes_keep_their_fields_defaults_and_frozen_guard() -> None:
    """The verdict's classes write their own `__init__` (compiled, it stores in C): the fields
    in order, the defaults, keywords, equality and the frozen guard stay the dataclass's."""
    import dataclasses

    credit = SourceCredit("item", "JD", "Grapple", False, "not_used", (), ("hook",))
    assert credit == SourceCredit(kind="item", code="JD", name="Grapple", credited=False,
                                  reason="not_used", words=(), hints=("hook",))
    needs = AdvantageCheck(3, 1, "a slime", ("slime",), ("ooze",), 2, 2, False)
    assert [getattr(needs, f.name) for f in dataclasses.fields(AdvantageCheck)] == [
        3, 1, "a slime", ("slime",), ("ooze",), 2, 2, False]
    bare = Judgement(True, ("JD",), False)
    assert (bare.credits, bare.needs) == ((), None)
    full = Judgement(True, ("JD",), False, credits=(credit,), needs=needs)
    assert full != bare and full == Judgement(True, ("JD",), False, (credit,), needs)
    assert hash(full) == hash(Judgement(True, ("JD",), False, (credit,), needs))
    for obj, name in ((credit, "reason"), (needs, "granted"), (full, "advantage")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, True)
