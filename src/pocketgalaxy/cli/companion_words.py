"""What to do with the real cards after each event of a companion game (cli/companion_cmd.py).

The story of an event is told by the screen (cli/perils_words.py, the same words as every
shell); this module adds the table's chores: which card goes where. It reads only events the
Hero may see and the public playsheet, so it never tells the Hero a face-down card.
"""

from __future__ import annotations

from typing import Any

from pocketgalaxy.cli.cards import card_label
from pocketgalaxy.cli.perils_words import item_name
from pocketgalaxy.core.game import Event

BIG_BADS = ("AD", "AC", "AS")


def _cards(codes: Any) -> str:
    return ", ".join(card_label(c) for c in codes) or "nothing"


def setup_steps(theme: Any) -> list[str]:
    """Before the game: what is needed and what to set aside."""
    return [
        "You need a 54-card deck (two jokers included), one six-sided die, and the "
        f"{theme.title} playsheet (or `pocketgalaxy rules perils`).",
        f"Set the {card_label('AH')} aside face up: it is the Prize.",
        f"Set the three Big Bads {_cards(BIG_BADS)} aside face down; they wait for the "
        "showdown.",
    ]


def table_steps(events: list[Event], theme: Any, *, showdown_order: str = "hero_chooses"
                ) -> list[str]:
    """The chores the table does for these events, in order (one sentence each)."""
    out: list[str] = []
    for event in events:
        line = _step(event, theme, showdown_order)
        if line:
            out.append(line)
    return out


def _skill(theme: Any, suit: str) -> str:
    try:
        return str(theme.skill_name(suit))
    except (KeyError, AttributeError):
        return suit


def _step(event: Event, theme: Any, showdown_order: str) -> str | None:
    e: Any = event
    kind = type(event).__name__
    if kind == "ArchetypeChosen":
        return (f"Take your archetype's cards out of the deck and lay them face up before the "
                f"Hero: {_cards(e.cards)}. Shuffle the other cards face down: that is the maze.")
    if kind == "ShowdownBegan":
        if showdown_order == "hero_chooses":
            return ("The maze is empty. Shuffle the three Big Bads face down and lay them in a "
                    "row: the Hero chooses which to meet first.")
        return ("The maze is empty. Shuffle the three Big Bads face down in a stack: they are "
                "met one at a time, from the top.")
    if kind == "PathwayChosen":
        if e.automatic:
            return "Turn the only pathway face up."
        return "Turn the chosen pathway face up; set the others aside face down, unseen."
    if kind == "LeftoverDiscarded":
        return f"Set the last {e.count} card(s) of the maze aside unseen."
    if kind == "PerilPassed":
        return f"Set {card_label(e.card)} aside: passed."
    if kind == "PerilSucceeded":
        return (f"Tuck {card_label(e.card)} behind your {_skill(theme, e.suit)} card: "
                f"level {e.level}.")
    if kind == "PerilFailed":
        return f"Tuck {card_label(e.card)} behind your heart card as damage."
    if kind in ("HealthGained", "HealWasted"):
        return f"Set the healing gift {card_label(e.card)} aside."
    if kind == "ItemGained":
        return f"Keep {item_name(theme, e.card)} face up by your playsheet: an item."
    if kind == "ItemsSpent":
        return "Set the used items aside: " + ", ".join(item_name(theme, c) for c in e.cards)
    if kind == "ItemsLost":
        return f"Take away every item: {_cards(e.cards)}." if e.cards else None
    if kind == "LevelsLost":
        return f"Take away the lost levels: {_cards(e.cards)}." if e.cards else None
    if kind == "CardsShuffledBack":
        if not e.cards:
            return None
        return (f"Shuffle {_cards(e.cards)} back into the maze ({e.draw_count} cards in the "
                "maze now).")
    if kind == "CardsDiscarded":
        return f"Set aside for good: {_cards(e.cards)}."
    return None
