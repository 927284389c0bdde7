"""A playsheet's `[plan_words]` table: checked key by key (file, key, what was expected), bounded,
optional (without it an item's blurb gives its uses), and plans split into steps as documented."""

from __future__ import annotations

import random
import tomllib
from typing import Any

import pytest

from pocketgalaxy.core.errors import ContentError
from pocketgalaxy.games.perils.content import PLAYSHEETS, parse_theme
from pocketgalaxy.games.perils.plan_words import MAX_WORDS_PER_LIST, near, sentences, tokens
from pocketgalaxy.games.perils.rubric import StandInThing
from pocketgalaxy.registry import plan_judge


def _cosmic() -> dict[str, Any]:
    return tomllib.loads((PLAYSHEETS / "cosmic.toml").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("plan_words", "key", "expected"), [
    ({"skill": {}}, "plan_words.skill", "allowed: items, skills"),
    ({"skills": {"X": {"words": ["a"]}}}, "plan_words.skills.X", "one of D, C, S, H"),
    ({"skills": {"C": {"verbs": ["duck"]}}}, "plan_words.skills.C.verbs", "allowed: words"),
    ({"skills": {"C": {"words": "duck"}}}, "plan_words.skills.C.words", "single words"),
    ({"skills": {"C": {"words": ["duck and roll"]}}}, "plan_words.skills.C.words",
     "single words"),
    ({"items": {"JC": {"does": ["swing"] * (MAX_WORDS_PER_LIST + 1)}}},
     "plan_words.items.JC.does", f"at most {MAX_WORDS_PER_LIST}"),
    ({"items": {"2D": {"does": ["swing"]}}}, "plan_words.items.2D", "one of JD"),
    ("words", "plan_words", "a table"),
])
def test_a_bad_plan_words_table_is_refused_clearly(plan_words: Any, key: str,
                                                   expected: str) -> None:
    data = _cosmic()
    data["plan_words"] = plan_words
    with pytest.raises(ContentError) as err:
        parse_theme(data, "mine.toml")
    message = str(err.value)
    assert "mine.toml" in message and key in message and expected in message


def test_without_plan_words_the_blurb_says_what_an_item_does() -> None:
    data = _cosmic()
    del data["plan_words"]
    theme = parse_theme(data, "bare.toml")
    assert theme.plan_words.item_does == {}
    judge = plan_judge()
    thing = StandInThing("door", ("door",))
    # The Breaching Charge's blurb: "A shaped charge that opens doors that would rather stay shut."
    used = judge.judge("I set the breaching charge so it opens the doors", None, ("QD",), theme, 3,
                       thing)
    assert used.approve_items == ("QD",)
    # Without the table, "duck" is no Agility word (only the theme's keywords are).
    assert not judge.judge("I duck", "C", (), theme, 3, thing).approve_channel
    assert judge.judge("I dodge", "C", (), theme, 3, thing).approve_channel


def test_steps_end_at_sentences_and_order_words() -> None:
    toks = tokens("First I look; then I leap. Next, I run and finally rest")
    assert [t.text for t in toks] == ["first", "i", "look", "then", "i", "leap", "next", "i",
                                      "run", "and", "finally", "rest"]
    assert [t.step for t in toks] == [0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3]
    assert [t.sentence for t in toks] == [0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2]


@pytest.mark.parametrize(("typed", "word", "same"), [
    ("stere", "steer", True), ("navagate", "navigate", True), ("grapling", "grappling", True),
    ("cover", "hover", False), ("doge", "dodge", False), ("climb", "climb", True),
    ("leaps", "leap", False), ("tumbel", "tumble", True),
])
def test_what_counts_as_a_misspelling(typed: str, word: str, same: bool) -> None:
    assert near(typed, word) is same


_LETTERS = ("abcdefghijklmnopqrstuvwxyzAQZ@[`{ .,;:!?\n\t\r\x0b\x0c\x1c\x7f-'09"
            "\u00e9\u0130\u212a\u00df\u00a0")


def test_sentences_are_the_words_of_tokens_sentence_by_sentence() -> None:
    """`sentences` (the rubric's fast split: a byte table for an ASCII plan, the regular
    expressions otherwise) gives the words and sentences of `tokens` on random text: every
    ASCII character, capitals, and letters that lower() turns into a-z ("\u212a", Kelvin)."""
    rng = random.Random(4)
    ascii_only = 0
    for _ in range(20_000):
        text = "".join(rng.choice(_LETTERS) for _ in range(rng.randrange(40)))
        ascii_only += text.isascii()
        want = tokens(text)
        got = sentences(text)
        assert [w for words in got for w in words] == [t.text for t in want], text
        assert [n for n, words in enumerate(got) for _ in words] == [t.sentence for t in want]
    assert 2_000 < ascii_only < 18_000
    assert sentences("First I look; then I leap. Next, I run and finally rest") == [
        ["first", "i", "look"], ["then", "i", "leap"], ["next", "i", "run", "and", "finally",
                                                         "rest"]]


def _reference_near(a: str, b: str) -> bool:
    """`near` as it was written first, letter by letter."""
    if a == b:
        return True
    la, lb = len(a), len(b)
    if min(la, lb) < 5 or abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return la >= 6
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if la < lb else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1:]


def test_near_agrees_with_the_letter_by_letter_reference() -> None:
    rng = random.Random(8)
    agreed = 0
    for _ in range(60_000):
        a = "".join(rng.choice("abcde") for _ in range(rng.randrange(3, 9)))
        i = rng.randrange(len(a))
        b = rng.choice([a, a[:i] + a[i + 1:], a[:i] + rng.choice("abcde") + a[i:],
                        a[:i] + rng.choice("abcde") + a[i + 1:],
                        a[:i] + a[i + 1:i + 2] + a[i:i + 1] + a[i + 2:],
                        "".join(rng.choice("abcde") for _ in range(rng.randrange(3, 9)))])
        assert near(a, b) is _reference_near(a, b), (a, b)
        assert near(b, a) is _reference_near(b, a), (a, b)
        agreed += near(a, b)
    assert 10_000 < agreed < 50_000
