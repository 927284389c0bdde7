"""The words a plan is judged by: a theme's optional `[plan_words]` table, and plan tokens.

A playsheet may add, apart from its skills' and items' own keywords:

    [plan_words.skills.C]
    words = ["duck", "roll", "vault"]        # more action words of the skill
    [plan_words.items.JC]
    does = ["swing", "reel", "climb"]        # what the item does
    on = ["ledge", "gap", "girder"]          # what it acts on

Every list is optional; unknown keys are refused (file, key, what was expected). This module
also splits a plan into words (`tokens`, and `sentences` for the rubric's fast path), knows
which near-misses count as a misspelling (`near`), and matches a word against many word lists
at once (`Lexicon`). It has no stemmer: the rubric is given one (games/perils/rubric.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final

from pocketgalaxy.core.errors import ContentError

_WORD = re.compile(r"[a-z]+")
_SENTENCE_END = re.compile(r"[.;!?\n]+")
_SKILL_KEYS = {"words"}
_ITEM_KEYS = {"does", "on"}
MAX_WORDS_PER_LIST = 64
"""A bound on each list of a user's playsheet (the judge compares every plan word to them)."""

STOPWORDS = frozenset(
    "a an the and or but if of to in on at by for with from into onto off up down out over "
    "under it its it's this that these those there here i i'm me my mine we us our you your he "
    "she they them their is are was were be been being am do does did have has had so as then "
    "than too very just not no yes can could will would shall should may might must all any "
    "some each every one what which who whom whose how when where why while s t ll d m re ve "
    "own anything something nothing everything must need needs only like"
    .split()
)
"""Words that say nothing about a plan (they never count as evidence)."""

ORDER_WORDS = frozenset(
    "then next first second third finally after afterwards before once while meanwhile until "
    "when last".split()
)
"""Words that start a new step of a plan (sentence ends and semicolons do too)."""


@dataclass(frozen=True)
class PlanWords:
    """A theme's extra plan vocabulary, in the playsheet's own spelling (lower case)."""

    skills: dict[str, tuple[str, ...]] = field(default_factory=dict)
    item_does: dict[str, tuple[str, ...]] = field(default_factory=dict)
    item_on: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Token:
    """One word of a plan: its surface form (lower case), position, sentence and step."""

    text: str
    index: int
    sentence: int
    step: int

    def __init__(self, text: str, index: int, sentence: int, step: int) -> None:
        # Its own __init__ (the Perils million, docs/speed.md): compiled, the dataclass-made one
        # stays interpreted code, and every plan the rubric judges builds a token per word.
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "sentence", sentence)
        object.__setattr__(self, "step", step)


def parse_plan_words(raw: Any, file: str, suits: tuple[str, ...], items: tuple[str, ...]
                     ) -> PlanWords:
    """Check and read a `[plan_words]` table (None: an empty one)."""
    if raw is None:
        return PlanWords()
    if not isinstance(raw, dict):
        raise ContentError(file, "plan_words", "a table with skills and items")
    _only(raw, file, "plan_words", {"skills", "items"})
    skills: dict[str, tuple[str, ...]] = {}
    does: dict[str, tuple[str, ...]] = {}
    on: dict[str, tuple[str, ...]] = {}
    for suit, table in _tables(raw, "skills", file, suits).items():
        where = f"plan_words.skills.{suit}"
        _only(table, file, where, _SKILL_KEYS)
        skills[suit] = _words(table, "words", file, where)
    for code, table in _tables(raw, "items", file, items).items():
        where = f"plan_words.items.{code}"
        _only(table, file, where, _ITEM_KEYS)
        does[code] = _words(table, "does", file, where)
        on[code] = _words(table, "on", file, where)
    return PlanWords(skills, does, on)


def _only(table: dict[str, Any], file: str, where: str, allowed: set[str]) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ContentError(file, f"{where}.{unknown[0]}",
                           f"a known key (allowed: {', '.join(sorted(allowed))})")


def _tables(raw: dict[str, Any], key: str, file: str, allowed: tuple[str, ...]
            ) -> dict[str, dict[str, Any]]:
    value = raw.get(key, {})
    if not isinstance(value, dict):
        raise ContentError(file, f"plan_words.{key}", "a table")
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(value):
        if name not in allowed:
            raise ContentError(file, f"plan_words.{key}.{name}",
                               f"one of {', '.join(allowed)}")
        if not isinstance(value[name], dict):
            raise ContentError(file, f"plan_words.{key}.{name}", "a table")
        out[name] = value[name]
    return out


def _words(table: dict[str, Any], key: str, file: str, where: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if (not isinstance(value, list) or len(value) > MAX_WORDS_PER_LIST
            or not all(isinstance(v, str) and _WORD.fullmatch(v.strip().lower()) for v in value)):
        raise ContentError(file, f"{where}.{key}",
                           f"a list of at most {MAX_WORDS_PER_LIST} single words (letters only)")
    return tuple(v.strip().lower() for v in value)


def words_of(text: str) -> list[str]:
    """The lower-case words of a text ("Med-Patch" -> ["med", "patch"])."""
    return _WORD.findall(text.lower())


def tokens(plan: str) -> list[Token]:
    """The plan's words with their step: a step ends at . ; ! ? or a new line, and an order
    word (then, next, first, ...) starts a new one."""
    out: list[Token] = []
    step = sentence = 0
    for text in _SENTENCE_END.split(plan.lower()):
        words = _WORD.findall(text)
        if not words:
            continue
        if out:
            step = out[-1].step + 1
            sentence = out[-1].sentence + 1
        for j, w in enumerate(words):
            if w in ORDER_WORDS and j > 0:
                step += 1
            out.append(Token(w, len(out), sentence, step))
    return out


# `sentences`' table for bytes.translate over an ASCII plan: letters in lower case, a sentence
# end becomes ".", any other byte a space (what the two regular expressions tell apart).
_ASCII_SPLIT: Final = bytes(c + 32 if 65 <= c <= 90 else c if 97 <= c <= 122
                            else 46 if c in b".;!?\n" else 32 for c in range(256))


def sentences(plan: str) -> list[list[str]]:
    """The words of `tokens`, sentence by sentence (sentences without a word left out), as plain
    lists: the rubric's fast path, with no `Token` per word and, for an ASCII plan, no regular
    expression (one table look-up per character, in C)."""
    out: list[list[str]] = []
    if plan.isascii():
        for part in plan.encode("ascii").translate(_ASCII_SPLIT).decode("ascii").split("."):
            words = part.split()
            if words:
                out.append(words)
        return out
    # Other letters part words too, and lower() may turn one into a-z: the expressions.
    for part in _SENTENCE_END.split(plan.lower()):
        words = _WORD.findall(part)
        if words:
            out.append(words)
    return out


def near(a: str, b: str) -> bool:
    """True when `a` is `b` misspelt: two neighbouring letters swapped, or one letter missing or
    extra (words of five letters or more), or one letter wrong (six or more: among shorter
    words one wrong letter is too often another word, "cover" and "hover")."""
    if a == b:
        return True
    la, lb = len(a), len(b)
    if la < 5 or lb < 5 or la - lb > 1 or lb - la > 1:
        return False
    # The first difference, then compare what follows it (slices in C, not letter by letter).
    short, long_ = (a, b) if la <= lb else (b, a)
    i = 0
    while short[i] == long_[i]:
        i += 1
        if i == len(short):
            return True  # `long_` is `short` with one letter added at the end
    if la != lb:
        return short[i:] == long_[i + 1:]
    if a[i + 1:] == b[i + 1:]:
        return la >= 6  # one letter wrong
    return (i + 1 < la and a[i] == b[i + 1] and a[i + 1] == b[i]
            and a[i + 2:] == b[i + 2:])


class Lexicon:
    """Word lists, each with its own bit, matched against a plan word all at once: which lists
    hold its stem (`stems`), and which hold a word it misspells: the lists' surface words and
    long stems by length, since a misspelling is at most one letter longer or shorter."""

    def __init__(self, lists: list[tuple[int, frozenset[str], tuple[str, ...], tuple[str, ...]]]
                 ) -> None:
        """`lists`: each list's (bit, stems, surface words, stems of five letters or more)."""
        stems: dict[str, int] = {}
        surface: dict[str, int] = {}
        long_stems: dict[str, int] = {}
        for bit, its_stems, its_surface, its_long_stems in lists:
            for w in its_stems:
                stems[w] = stems.get(w, 0) | bit
            for w in its_surface:
                surface[w] = surface.get(w, 0) | bit
            for w in its_long_stems:
                long_stems[w] = long_stems.get(w, 0) | bit
        self.stems = stems
        self.surface = _by_length(surface)
        self.long_stems = _by_length(long_stems)

    def match(self, text: str, stem: str) -> tuple[int, int]:
        """The bits of the lists that hold the word's stem, and of those it counts for (by
        stem, or as a misspelling of a word or a long stem: words of five letters or more)."""
        exact = self.stems.get(stem, 0)
        hit = exact
        if len(text) >= 5:
            hit |= _near_bits(self.surface, text, hit)
            hit |= _near_bits(self.long_stems, stem, hit)
        return exact, hit


def _letters(word: str) -> int:
    """A bit per letter of the word (a to z: bits 1 to 26; another character shares a bit,
    which can only make two words look closer)."""
    got = 0
    for c in word:
        got |= 1 << (ord(c) & 31)
    return got


def _by_length(words: dict[str, int]) -> dict[int, list[tuple[str, int, int]]]:
    """(word, bits, letters) by the word's length."""
    out: dict[int, list[tuple[str, int, int]]] = {}
    for w in sorted(words):
        out.setdefault(len(w), []).append((w, words[w], _letters(w)))
    return out


def _near_bits(by_length: dict[int, list[tuple[str, int, int]]], text: str, have: int) -> int:
    """The bits of the words `text` misspells, beyond `have` (bits already found). One letter
    wrong, missing, extra or swapped changes at most two letters of the word's set of letters:
    a cheap test that rules out most words before `near` compares them."""
    got = 0
    n = len(text)
    letters = _letters(text)
    for length in (n - 1, n, n + 1):
        row = by_length.get(length)
        if row is not None:
            for w, bits, its_letters in row:
                differ = letters ^ its_letters
                differ &= differ - 1  # without its lowest bit: at most one bit may be left
                if not differ & (differ - 1) and bits & ~(have | got) and near(text, w):
                    got |= bits
    return got
