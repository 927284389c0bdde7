"""The Perils & Pathways lesson: a pinned deal for the Pilot of the Cosmic playsheet, the taught
moves, and the coach's words.

The first eight rounds are laid by hand (three pathways a round, the quicker game) so that the
taught moves show, in order: a pathway choice and an automatic pass, an item, a plan with a
channelled skill and an item, a failure and a wound, a healing gift, and zero health; the seed
then deals the rest and the showdown. The die rolls of the taught plans are pinned. Plans are
approved as named (teller_policy "approve_all") so a learner's own wording cannot change the
lesson; the coach says so. tests/tutorial/test_lessons.py plays the lesson with the real rules
and checks every goal from the events.
"""

from __future__ import annotations

from typing import Any

from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.content import load_theme
from pocketgalaxy.tutorial.lesson import Goal, Lesson, LessonWords, Step

SKILLS = {"D": "Strength", "C": "Agility", "S": "Piloting", "H": "Charm"}
SUITS = {"D": "Diamonds", "C": "Clubs", "S": "Spades", "H": "Hearts"}
_RANKS = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}

OPTIONS: dict[str, Any] = {
    "theme": "cosmic",
    "archetype": "pilot",
    "pathways_per_round": 3,
    "teller_policy": "approve_all",
}

ROUNDS = (
    ("9D", "5S", "8C"),
    ("7S", "10S", "QC"),
    ("3D", "10C", "6H"),
    ("9C", "10D", "7D"),
    ("4H", "9S", "JD"),
    ("8D", "7C", "5C"),
    ("8S", "6D", "6C"),
    ("5D", "KC", "4D"),
)
PINNED: dict[str, Any] = {
    "draw": [c for r in ROUNDS for c in r],
    "big_bads": ["AD", "AC", "AS"],
    "rolls": [1, 2, 1, 1, 1],
}
SEED = 1


def card_words(code: str) -> str:
    """'the 5 of Spades (5S)'; items and Big Bads by their playsheet names, as the tables show
    them: 'the Mag-Boots (QC)', 'The Foundry Colossus (AD)'."""
    theme = load_theme(OPTIONS["theme"], "one_per_suit")
    if code in theme.items:
        return f"the {theme.items[code].name} ({code})"
    if code in theme.big_bads:
        return f"{theme.big_bads[code].name} ({code})"
    if code.startswith("JK"):
        return f"a Joker ({code})"
    rank, suit = code[:-1], code[-1]
    return f"the {_RANKS.get(rank, rank)} of {SUITS[suit]} ({code})"


def _choose(position: int, say: str) -> Step:
    return Step({"type": "ChoosePathway", "position": position}, say, ("type", "position"))


def _plan(channel: str, items: tuple[str, ...], say: str) -> Step:
    return Step({"type": "MakePlan", "channel": channel, "items": list(items),
                 "plan": f"I use my {SKILLS[channel]} to get through"}, say,
                ("type", "channel", "items"))


def _roll(say: str) -> Step:
    return Step({"type": "Roll"}, say)


STEPS = (
    _choose(1, "Round 1: three pathways lie face down and the Teller has described each one by "
               "sight. A pathway whose words hint at Spades with a low number is a peril your "
               "Piloting (level 6) beats without a roll. Take pathway 2."),
    _choose(2, "Round 2, by sound. Face cards are items, tools you can spend on a later plan. "
               "Take pathway 3 to pick one up."),
    _choose(0, "Round 3, by smell. Take pathway 1: a low Diamonds peril. Your Strength "
               "is only 2, so this one needs a plan and a roll."),
    _plan("S", ("QC",), "Make a plan: channel a different skill (Piloting, +1) and commit your "
                        "item (the Mag-Boots, +1), then say in words how you use them. In "
                        "this lesson the Teller approves every bonus you name; in a real game "
                        "the plan must really use them."),
    _roll("Now roll the die: the roll plus your bonus of 2 must reach "
          "the peril's number."),
    _choose(2, "Round 4: every pathway here is a peril. Take pathway 3 and see what a "
               "failure costs."),
    _plan("S", (), "Channel Piloting again (+1). You have no item left, so commit none."),
    _roll("Roll. A 7 needs a 6 on the die even with +1: the odds are against you."),
    _choose(0, "Round 5: you are hurt, and Hearts are healing gifts. Take pathway 1."),
    _choose(0, "Round 6: perils again. Take pathway 1."),
    _plan("S", (), "Channel Piloting (+1) and commit no item."),
    _roll("Roll the die."),
    _choose(1, "Round 7: take pathway 2."),
    _plan("S", (), "Channel Piloting (+1)."),
    _roll("Roll the die. One more wound leaves you at 1 health."),
    _choose(0, "Round 8: take pathway 1. Watch what happens at zero health: the game "
               "is not over."),
    _plan("S", (), "Channel Piloting (+1)."),
    _roll("Roll the die."),
)


def _is(kind: type[Event]) -> Any:
    return lambda e, hero, earlier: isinstance(e, kind)


GOALS = (
    Goal("choice", "a pathway choice", "Each round you pick one face-down pathway from the "
         "Teller's words alone; the others are set aside unseen.",
         lambda e, hero, earlier: isinstance(e, ev.PathwayChosen) and not e.automatic),
    Goal("autopass", "an automatic pass", "A peril whose number is below your skill level in "
         "its suit is passed with no roll at all.", _is(ev.PerilPassed)),
    Goal("plan", "a plan with a channelled skill and an item", "Each approved source adds 1 to "
         "the roll; items are spent once used.",
         lambda e, hero, earlier: isinstance(e, ev.PlanMade) and bool(e.channel) and bool(e.items)),
    Goal("wound", "a failure and a wound", "A failed roll costs 1 health; the card is set "
         "aside as damage.", _is(ev.PerilFailed)),
    Goal("heal", "a healing gift", "A Hearts card heals 1, but only while you are below full "
         "health.", _is(ev.HealthGained)),
    Goal("zero", "zero health", "At zero health you lose every item and half the levels you "
         "gained, then play on at full health.", _is(ev.ZeroHealth)),
    Goal("showdown", "the showdown", "When the draw pile is empty the three Big Bads (the Aces, "
         "difficulty 11) come out; survive them all to win the Prize.", _is(ev.ShowdownBegan)),
)


class PerilsWords(LessonWords):
    """The coach's words for Perils & Pathways events and moves (the learner is the Hero)."""

    @staticmethod
    def action_words(action: Action) -> str:
        data = action.to_json()
        kind = data["type"]
        if kind == "ChoosePathway":
            return f"take pathway {data['position'] + 1}"
        if kind == "MakePlan":
            parts = []
            if data.get("channel"):
                parts.append(f"channel {SKILLS.get(data['channel'], data['channel'])}")
            if data.get("items"):
                parts.append("commit " + ", ".join(card_words(c) for c in data["items"]))
            return "make a plan: " + (", ".join(parts) if parts else "no bonus named")
        if kind == "Roll":
            return "roll the die"
        if kind == "ChooseLostLevels":
            cards = data.get("cards") or []
            return "lose " + (", ".join(card_words(c) for c in cards) if cards else "nothing")
        if kind == "ChooseArchetype":
            return f"play the {data['archetype']}"
        return str(kind)

    @staticmethod
    def keys(action: Action, view: Any) -> str:
        """What to type in the terminal for the move ("" when nothing needs saying)."""
        data = action.to_json()
        if data["type"] == "ChoosePathway":
            return str(data["position"] + 1)
        if data["type"] == "MakePlan":
            items = [i.code for i in getattr(view, "items", ())]
            keys = [data["channel"] or "Enter"]
            if items:
                keys.append(" ".join(str(items.index(c) + 1) for c in data["items"]
                                     if c in items) or "Enter")
            if data["channel"] or data["items"]:
                keys.append("a sentence saying how")
            return ", then ".join(keys)
        if data["type"] == "Roll":
            return "Enter"
        return "do"

    @staticmethod
    def event_line(event: Event, hero: int, earlier: list[Event]) -> str | None:
        """What just happened and why, for the events a Hero sees (None: nothing to add)."""
        if isinstance(event, ev.PerilPassed):
            return (f"Passed without a roll: your level {event.level} is above the peril's "
                    f"{event.difficulty} (rule PP-R12).")
        if isinstance(event, ev.CardRevealed):
            kind = {"peril": "a peril", "gift": "a healing gift", "item": "an item",
                    "big_bad": "a Big Bad"}.get(event.kind, event.kind)
            extra = f" of difficulty {event.difficulty}" if event.difficulty else ""
            return f"Revealed: {card_words(event.card)}, {kind}{extra}."
        if isinstance(event, ev.ItemGained):
            return f"You keep {card_words(event.card)} as an item: +1 on one later plan."
        if isinstance(event, ev.PlanJudged):
            return (f"Your plan is judged: bonus +{event.bonus}"
                    + (", and advantage (roll two dice, keep the higher)" if event.advantage
                       else "") + ".")
        if isinstance(event, ev.DieRolled):
            verdict = "enough" if event.total >= event.difficulty else "not enough"
            return (f"The die shows {max(event.values)}; with +{event.bonus} that makes "
                    f"{event.total} against {event.difficulty}: {verdict}.")
        if isinstance(event, ev.PerilSucceeded):
            return (f"Success: the card is tucked under your {SKILLS.get(event.suit, event.suit)}"
                    f", now level {event.level} (rule PP-R16).")
        if isinstance(event, ev.HealthLost):
            return f"A wound: health {event.health}."
        if isinstance(event, ev.HealthGained):
            return f"Healed 1: health {event.health}."
        if isinstance(event, ev.HealWasted):
            return "A healing gift at full health does nothing (rule PP-A5)."
        if isinstance(event, ev.ZeroHealth):
            return "Zero health! The penalty follows (rule PP-R18)."
        if isinstance(event, ev.ItemsLost) and event.cards:
            return "Items lost: " + ", ".join(card_words(c) for c in event.cards) + "."
        if isinstance(event, ev.LevelsLost):
            return ("Gained levels lost: " + ", ".join(card_words(c) for c in event.cards) + "."
                    if event.cards else "No gained level to lose (half of your gains, rounded "
                    "down).")
        if isinstance(event, ev.HealthReset):
            return f"Back on your feet with {event.health} health."
        if isinstance(event, ev.ShowdownBegan):
            return "The draw pile is empty: the showdown begins."
        if isinstance(event, ev.BigBadFaced):
            result = {"passed": "passed", "defeated": "defeated", "failed": "not beaten"}
            return (f"Big Bad: {card_words(event.card)}, {result.get(event.result, event.result)};"
                    f" {event.remaining} left.")
        if isinstance(event, ev.GameWon):
            return f"You won the Prize with {event.health} health left!"
        if isinstance(event, ev.GameLost):
            return "The Hero fell in the showdown: the game is lost this time."
        return None


LESSON = Lesson(
    game="perils",
    title="Perils & Pathways: your first expedition",
    options=OPTIONS,
    seed=SEED,
    pinned=PINNED,
    players=2,
    hero=0,
    opponents={1: ("teller", 1)},
    guide=("rulebased:keep_items=0", 7),
    intro=(
        "Welcome, Pilot! You are the Hero; the computer is the Teller, who sees the cards and "
        "describes each pathway without naming it.",
        "Your cards: 2 of Diamonds (Strength 2), 4 of Clubs (Agility 4), 6 of Spades "
        "(Piloting 6) and 3 of Hearts (3 health).",
        "This lesson lays three pathways a round (the quicker game) and approves every bonus "
        "you name, so you can learn the steps first.",
    ),
    steps=STEPS,
    goals=GOALS,
    words=PerilsWords,
    seat_names=("Hero", "Teller"),
)
