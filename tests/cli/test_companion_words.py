"""cli/companion_words.py: the table's chores for the events of a companion game."""

from __future__ import annotations

from pocketgalaxy.cli.companion_words import setup_steps, table_steps
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.content import load_theme

THEME = load_theme("cosmic")


def test_chores_say_where_each_card_goes() -> None:
    steps = table_steps([
        ev.PathwayChosen(round=1, position=0),
        ev.PerilSucceeded(card="8D", suit="D", level=3),
        ev.PerilFailed(card="9C"),
        ev.ItemGained(card="QS"),
        ev.HealthGained(amount=1, health=3, card="5H"),
        ev.CardsShuffledBack(cards=("QS", "KD"), draw_count=20),
        ev.CardsShuffledBack(cards=(), draw_count=20),
        ev.HealthLost(amount=1, health=2),
    ], THEME)
    assert steps == [
        "Turn the chosen pathway face up; set the others aside face down, unseen.",
        "Tuck 8♦ behind your Strength card: level 3.",
        "Tuck 9♣ behind your heart card as damage.",
        "Keep Q♠ Nav Chip face up by your playsheet: an item.",
        "Set the healing gift 5♥ aside.",
        "Shuffle Q♠, K♦ back into the maze (20 cards in the maze now).",
    ]


def test_the_showdown_chore_follows_the_showdown_order() -> None:
    began = [ev.ShowdownBegan(round=24)]
    assert "lay them in a row" in table_steps(began, THEME)[0]
    assert "one at a time" in table_steps(began, THEME, showdown_order="sequential")[0]
    assert table_steps([ev.PathwayChosen(round=3, position=0, automatic=True)], THEME) == [
        "Turn the only pathway face up."]


def test_setup_names_the_prize_and_the_big_bads() -> None:
    text = " ".join(setup_steps(THEME))
    assert "A♥ aside face up: it is the Prize" in text
    assert "A♦, A♣, A♠ aside face down" in text
