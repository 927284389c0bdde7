"""A playsheet's `[plan_words]` table: checked key by key (file, key, what was expected), bounded,
optional (without it an item's blurb gives its uses), and plans split into steps as documented."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from pocketgalaxy.core.errors import ContentError
from pocketgalaxy.games.perils.content import PLAYSHEETS, parse_theme
from pocketgalaxy.games.perils.plan_words import MAX_WORDS_PER_LIST, near, tokens
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
