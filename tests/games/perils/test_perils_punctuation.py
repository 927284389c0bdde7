"""No doubled sentence marks ("...nobody has mapped.!") in any bundled theme's text as shown."""

from __future__ import annotations

import re

import pytest

from pocketgalaxy.cli.perils_words import event_text
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.content import BUNDLED, load_theme
from pocketgalaxy.games.perils.story import end_sentence, narrate_event

DOUBLED = re.compile(r"[.!?\u2026]\s*[.!?]")


def test_end_sentence_adds_a_mark_only_when_none_is_there() -> None:
    assert end_sentence("a world nobody has mapped.", "!") == "a world nobody has mapped."
    assert end_sentence("a seed vault", "!") == "a seed vault!"
    assert end_sentence("Really?  ") == "Really?"
    assert end_sentence("and then\u2026") == "and then\u2026"


@pytest.mark.parametrize("theme_id", BUNDLED)
def test_every_prize_reads_with_one_final_mark_in_both_shells(theme_id: str) -> None:
    theme = load_theme(theme_id)
    assert theme.prizes
    for prize in theme.prizes:
        won = ev.GameWon(prize=prize, health=2, defeated=3)
        for line in (narrate_event(won, theme), event_text(won, theme)):
            assert line is not None and prize.rstrip(".!?") in line
            assert not DOUBLED.search(line), line
            assert line.endswith((".", "!", "?"))


@pytest.mark.parametrize("theme_id", BUNDLED)
def test_theme_sentences_carry_one_final_mark(theme_id: str) -> None:
    theme = load_theme(theme_id)
    for thing in theme.things.values():
        for line in (*thing.reveal, *thing.success, *thing.failure):
            assert not DOUBLED.search(line), (thing.id, line)
