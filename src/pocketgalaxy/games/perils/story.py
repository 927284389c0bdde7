"""The computer Teller's story of a revealed card and how it ended, with the numbers beside it.

Pure functions of the theme, the card's thing (`content.thing_for`) and what happened. The rules
put these texts into the events (`story` fields), so the terminal, the web page and the replay
all show the same words. `narrate_event` gives the shells a line for the other events.
"""

from __future__ import annotations

from collections.abc import Iterable

from pocketgalaxy.core.cards import card
from pocketgalaxy.core.game import Event
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.content import Theme
from pocketgalaxy.games.perils.things import Thing, mix

_KIND_WORDS = {"peril": "a peril", "gift": "a healing gift", "item": "a useful item",
               "big_bad": "a Big Bad"}


def hash_code(code: str) -> int:
    """A stable small integer for a card code (Python's str hash is salted per process)."""
    value = 0
    for ch in code:
        value = (value * 131 + ord(ch)) & ((1 << 64) - 1)
    return value


def _pick(options: tuple[str, ...], seed: int, code: str, purpose: int) -> str:
    return options[Rng(mix(seed, hash_code(code), purpose)).below(len(options))]


def card_facts(theme: Theme, code: str, kind: str, difficulty: int) -> str:
    """The numbers of a revealed card: `8♦: a peril, a test of Strength, difficulty 8`."""
    c = card(code)
    label = c.label
    if kind in ("peril", "big_bad") and c.suit is not None:
        skill = theme.skills[c.suit.value].name
        return f"{label}: {_KIND_WORDS[kind]}, a test of {skill}, difficulty {difficulty}"
    if kind == "item":
        return f"{label}: {_KIND_WORDS[kind]}, the {theme.items[code].name}"
    return f"{label}: {_KIND_WORDS.get(kind, kind)}"


def reveal_story(theme: Theme, thing: Thing, code: str, kind: str, difficulty: int, seed: int
                 ) -> str:
    """What the Hero finds, named, with the card's numbers: "… (8♦: a peril, …)"."""
    line = _pick(thing.reveal, seed, code, 0x5E7)
    return f"{line} ({card_facts(theme, code, kind, difficulty)}.)"


def end_sentence(text: str, mark: str = ".") -> str:
    """`text` closed by `mark` unless it already ends a sentence: theme texts (prizes, stories)
    are whole sentences, and a template adding "!" after one made "...mapped.!"."""
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", "\u2026")) else text + mark


def roll_words(values: tuple[int, ...], bonus: int, total: int, difficulty: int,
               strict: bool, skill_level: int = 0) -> str:
    """`rolled 4 + 1 = 5, needed 7` (advantage: `rolled 2 and 5, kept 5 + 1 = 6, …`)."""
    kept = max(values)
    dice = (f"rolled {' and '.join(map(str, values))}, kept {kept}" if len(values) > 1
            else f"rolled {kept}")
    adds = ""
    if bonus:
        adds += f" + {bonus}"
    if skill_level:
        adds += f" + {skill_level} (skill)"
    need = f"more than {difficulty}" if strict else f"{difficulty}"
    return f"{dice}{adds} = {total}, needed {need}" if adds else f"{dice}, needed {need}"


def success_story(theme: Theme, thing: Thing, code: str, seed: int, *, skill: str,
                  level: int, spent: Iterable[str], numbers: str) -> str:
    """The win against a peril and what it left: the skill learnt, the items spent."""
    line = _pick(thing.success, seed, code, 0x5CC)
    gained = f"Your {theme.skills[skill].name} grows to {level}."
    return f"{line} {gained}{_spent(theme, spent)} ({numbers}.)"


def failure_story(theme: Theme, thing: Thing, code: str, seed: int, *, health: int,
                  spent: Iterable[str], numbers: str) -> str:
    """The defeat and its cost: the wound, the items spent for nothing."""
    line = _pick(thing.failure, seed, code, 0xFA1)
    wound = (f"It costs you a wound: health {health}." if health > 0
             else "It costs you your last strength: health 0.")
    return f"{line} {wound}{_spent(theme, spent)} ({numbers}.)"


def passed_story(theme: Theme, thing: Thing, code: str, seed: int, *, skill: str, level: int,
                 difficulty: int) -> str:
    """A peril passed without a roll: the first success line, and why no roll was needed."""
    line = _pick(thing.success, seed, code, 0x9A5)
    name = theme.skills[skill].name
    return (f"{line} Your {name} is more than enough; you learn nothing new "
            f"({name} {level} against difficulty {difficulty}, no roll.)")


def gift_story(thing: Thing, code: str, seed: int, *, healed: bool, health: int) -> str:
    """A healing gift taken: healed, or already whole (its `failure` line)."""
    if healed:
        line = _pick(thing.success, seed, code, 0x6E1)
        return f"{line} Health {health}."
    line = _pick(thing.failure, seed, code, 0x6E2)
    return f"{line} You are already whole (health {health}); the gift is spent."


def item_story(theme: Theme, thing: Thing, code: str, seed: int) -> str:
    """An item picked up: its success line, the item named."""
    line = _pick(thing.success, seed, code, 0x17E)
    return f"{line} You take the {theme.items[code].name}; it can be used once."


def _spent(theme: Theme, cards: Iterable[str]) -> str:
    names = [theme.items[c].name for c in cards if c in theme.items]
    if not names:
        return ""
    return " Spent: " + ", ".join(f"the {n}" for n in names) + "."


def narrate_event(event: Event, theme: Theme) -> str | None:
    """A line of words for an event, for the shells: the event's own story where it carries
    one, else a short sentence; None for events that need no words."""
    story = getattr(event, "story", "")
    if story:
        return str(story)
    skill = theme.skill_name
    match event:
        case ev.ArchetypeChosen(archetype=a):
            arch = theme.archetype(a)
            return f"The Hero sets out as the {arch.name if arch else a}."
        case ev.PathwaysLaid(count=n, sense=s, stage=stage):
            where = "The last guardians wait" if stage == "showdown" else "The way divides"
            how = "in any sense" if s == "free" else f"by {s}"
            return f"{where}: {n} path{'s' if n != 1 else ''} to describe {how}."
        case ev.CardRevealed(card=code, kind=kind, difficulty=d):
            return f"Revealed: {card_facts(theme, code, kind, d)}."
        case ev.PerilPassed(card=code):
            return f"Your {skill(code[-1])} carries you straight past it."
        case ev.DieRolled(values=vals, total=total, difficulty=d, bonus=bonus):
            return roll_words(vals, bonus, total, d, False).capitalize() + "."
        case ev.PerilSucceeded(suit=suit, level=level):
            return f"Success! {skill(suit)} rises to {level}."
        case ev.PerilFailed():
            return "The attempt fails."
        case ev.HealthLost(health=h):
            return f"You are hurt: health {h}."
        case ev.HealthGained(health=h):
            return f"You feel better: health {h}."
        case ev.HealWasted():
            return "You are already at full health; the comfort changes nothing."
        case ev.ItemGained(card=code):
            return f"You pick up the {theme.items[code].name}."
        case ev.ItemsSpent(cards=cards):
            return f"Used up: {_names(theme, cards)}."
        case ev.ZeroHealth():
            return "You collapse, and wake up later with less than you had."
        case ev.ItemsLost(cards=cards) if cards:
            return f"Lost: {_names(theme, cards)}."
        case ev.CardsShuffledBack(cards=cards) if cards:
            return f"{len(cards)} lost card(s) drift back into the maze."
        case ev.ShowdownBegan():
            return "The maze ends. The Big Bads wait."
        case ev.GameWon(prize=prize):
            return end_sentence(f"You survive, and claim the prize: {prize}")
        case ev.GameLost(reason=reason):
            return f"The adventure ends here ({reason.replace('_', ' ')})."
    return None


def _names(theme: Theme, cards: Iterable[str]) -> str:
    return ", ".join(theme.items[c].name if c in theme.items else c for c in cards)
