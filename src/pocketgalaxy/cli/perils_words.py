"""Perils & Pathways events in words, for the terminal screens and `replay`.

Events are data; this module turns each one into a sentence: the event's own story where it
carries one (the computer Teller's words, story.py, the same on every shell), else a plain
sentence. It reads only the event and the public playsheet (names of skills, items and Big
Bads), never a state.
"""

from __future__ import annotations

from typing import Any

from pocketgalaxy.cli.cards import card_label
from pocketgalaxy.core.cards import card as lookup
from pocketgalaxy.core.game import Event
from pocketgalaxy.games.perils.story import end_sentence, narrate_event

SENSE_WORDS = {
    "sight": "sight only",
    "sound": "sound only",
    "smell": "smell only",
    "free": "any sense",
}
POSITION_NAMES = {1: ("ahead",), 2: ("left", "right"), 3: ("left", "straight", "right")}


def position_name(position: int, count: int) -> str:
    """`pathway 1 (left)`: a number for typing and a direction for the story."""
    names = POSITION_NAMES.get(count)
    where = f" ({names[position]})" if names and position < len(names) else ""
    return f"pathway {position + 1}{where}"


def _skill(theme: Any, suit: str) -> str:
    try:
        return str(theme.skill_name(suit))
    except (KeyError, AttributeError):
        return {"D": "♦ skill", "C": "♣ skill", "S": "♠ skill", "H": "♥ skill"}.get(suit, suit)


def item_name(theme: Any, code: str) -> str:
    item = getattr(theme, "items", {}).get(code)
    return f"{card_label(code)} {item.name}" if item else card_label(code)


def big_bad_name(theme: Any, code: str) -> str:
    bad = getattr(theme, "big_bads", {}).get(code)
    return f"{bad.name} ({card_label(code)})" if bad else card_label(code)


def _cards(codes: Any) -> str:
    return ", ".join(card_label(c) for c in codes) or "nothing"


def event_text(event: Event, theme: Any, *, count: int = 2, seed: int = 0) -> str | None:
    """One sentence for an event, or None for events that need no words.

    The moments of the story (a card revealed, a peril won, lost or passed, a gift or item
    taken) carry the computer Teller's words in the event (`story`): every shell shows those.
    """
    e: Any = event
    kind = type(event).__name__
    story = getattr(event, "story", "")
    if story:
        return str(story)
    if kind == "CardRevealed":
        plain = _revealed(e, theme)
        flavour = _flavour(event, theme, seed)
        return f"{plain} {flavour}" if flavour else plain
    if kind == "ArchetypeChosen":
        arch = theme.archetype(e.archetype) if theme is not None else None
        name = arch.name if arch else e.archetype
        return f"The Hero sets out as the {name} ({_cards(e.cards)}) with {e.health} health."
    if kind == "PathwaysDealt":
        return f"You look at the next pathways: {_cards(e.cards)}."
    if kind == "PathwaysLaid":
        if e.stage == "showdown":
            return (
                f"Round {e.round}: {e.count} Big Bad{'s wait' if e.count != 1 else ' waits'} "
                f"behind the pathways ({SENSE_WORDS.get(e.sense, e.sense)})."
            )
        return (
            f"Round {e.round}: {e.count} pathway{'s' if e.count != 1 else ''} open ahead "
            f"({SENSE_WORDS.get(e.sense, e.sense)})."
        )
    if kind == "PathwaysDescribed":
        n = len(e.descriptions)
        return "The Teller describes them: " + " / ".join(
            f"{position_name(i, n)}: “{d}”" for i, d in enumerate(e.descriptions)
        )
    if kind == "PathwayChosen":
        return (
            f"The Hero takes {position_name(e.position, count)}"
            f"{', the only way on' if e.automatic else ''}."
        )
    return _rest(e, kind, theme, count)


def _flavour(event: Event, theme: Any, seed: int) -> str | None:
    """Older records: a revealed card without a story gets no flavour line."""
    del seed
    if theme is None:
        return None
    try:
        words = narrate_event(event, theme)
        return None if words and words.startswith("Revealed:") else words
    except (KeyError, IndexError, AttributeError):
        return None


def _revealed(e: Any, theme: Any) -> str:
    c = lookup(e.card)
    if e.kind == "peril" and c.suit is not None:
        return (
            f"It is a peril: {card_label(e.card)}, a test of "
            f"{_skill(theme, c.suit.value)} at difficulty {e.difficulty}."
        )
    if e.kind == "big_bad" and c.suit is not None:
        return (
            f"A Big Bad: {big_bad_name(theme, e.card)}, a test of "
            f"{_skill(theme, c.suit.value)} at difficulty {e.difficulty}."
        )
    if e.kind == "gift":
        return f"It is a healing gift ({card_label(e.card)})."
    if e.kind == "item":
        return f"It is a useful item: {item_name(theme, e.card)}."
    return f"Revealed: {card_label(e.card)}."


def _rest(e: Any, kind: str, theme: Any, count: int) -> str | None:
    if kind == "UnchosenRevealed":
        return f"The pathways not taken were: {_cards(e.cards)}."
    if kind == "LeftoverDiscarded":
        return f"{e.count} leftover card{'s are' if e.count != 1 else ' is'} set aside unseen."
    if kind == "PerilPassed":
        return (
            f"Skill {e.level} beats difficulty {e.difficulty}: the Hero passes "
            f"{card_label(e.card)} safely (no roll, no new level)."
        )
    if kind == "PlanMade":
        parts = []
        if e.channel:
            parts.append(f"channel {_skill(theme, e.channel)}")
        if e.items:
            parts.append("use " + ", ".join(item_name(theme, c) for c in e.items))
        plan = f" “{e.plan}”" if e.plan else ""
        return f"The Hero's plan: {' and '.join(parts) or 'no bonus sources'}.{plan}"
    if kind == "PlanJudged":
        approved = []
        if e.approve_channel:
            approved.append("the skill")
        approved += [item_name(theme, c) for c in e.approve_items]
        adv = " and grants advantage (two dice, keep the higher)" if e.advantage else ""
        return f"The Teller approves {', '.join(approved) or 'nothing'}: bonus +{e.bonus}{adv}."
    if kind == "DieRolled":
        dice = (
            f"{' and '.join(map(str, e.values))}, keeping {max(e.values)}"
            if len(e.values) > 1
            else str(e.values[0])
        )
        return (
            f"Die: {dice}; with bonus +{e.bonus} the total is {e.total} against "
            f"difficulty {e.difficulty}."
        )
    if kind == "PerilSucceeded":
        return (
            f"Success! {card_label(e.card)} is tucked behind the "
            f"{_skill(theme, e.suit)} card: that skill is now level {e.level}."
        )
    if kind == "PerilFailed":
        return f"Failure: {card_label(e.card)} is tucked behind the heart as damage."
    if kind == "HealthLost":
        return f"Health −{e.amount}: now {e.health}."
    if kind == "HealthGained":
        return f"The healing gift restores {e.amount} health: now {e.health}."
    if kind == "HealWasted":
        return f"Already at full health ({e.health}): the healing gift is spent for nothing."
    if kind == "ItemGained":
        return f"The Hero picks up {item_name(theme, e.card)}."
    if kind == "ItemsSpent":
        return "Used up: " + ", ".join(item_name(theme, c) for c in e.cards) + "."
    if kind == "ZeroHealth":
        return "Health has fallen to zero!"
    if kind == "ItemsLost":
        return f"All items are lost: {_cards(e.cards)}."
    if kind == "LevelsLost":
        return f"Skill levels are lost: {_cards(e.cards)}."
    if kind == "CardsShuffledBack":
        return (
            f"{_cards(e.cards)} {'are' if len(e.cards) != 1 else 'is'} shuffled back into "
            f"the maze ({e.draw_count} cards ahead now)."
        )
    if kind == "CardsDiscarded":
        return f"Discarded ({e.reason}): {_cards(e.cards)}."
    if kind == "HealthReset":
        return f"The Hero gets back up with {e.health} health."
    if kind == "ShowdownBegan":
        return "The maze runs out. The showdown begins: three Big Bads guard the prize!"
    if kind == "BigBadFaced":
        verdict = {"passed": "slipped past", "defeated": "defeated", "failed": "not beaten"}
        return (
            f"{big_bad_name(theme, e.card)}: {verdict.get(e.result, e.result)}; "
            f"{e.remaining} to go."
        )
    if kind == "GameWon":
        return (
            f"The Hero survives the showdown with {e.health} health and "
            f"{e.defeated} Big Bad{'s' if e.defeated != 1 else ''} defeated, and wins "
            + end_sentence(f"the prize: {e.prize}", "!")
        )
    if kind == "GameLost":
        return f"The Hero is lost: {str(e.reason).replace('_', ' ')}."
    return None
