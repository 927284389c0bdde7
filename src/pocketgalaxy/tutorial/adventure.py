"""The Adventure Cards lesson: a pinned two-player deal (you are Ada, seat 1 for people; the
computer astronaut Bo plays the other seat), the taught moves, and the coach's words.

The deal puts two cards of mission 2 in your hand, its planet in Bo's hand and its marvel on the
table, so the taught first turn shows a granted request, a refused one and a peek; the second
turn a right declaration and then a wrong guess. The rest of the game (a mission completed)
is played with the lesson's guide suggesting moves, and it ends three missions to three: the
tie-break decides. tests/tutorial/test_lessons.py plays it with the real rules and checks every
goal from the events.
"""

from __future__ import annotations

from typing import Any

from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.games.adventure import events as ev
from pocketgalaxy.games.adventure.recap import card_name
from pocketgalaxy.tutorial.lesson import Goal, Lesson, LessonWords, Step

NAMES = ("Ada", "Bo")

PINNED: dict[str, Any] = {
    "missions": [["S6", "P6", "A5", "M2"], ["S5", "P4", "A2", "M1"], ["S2", "P1", "A4", "M5"],
                 ["S4", "P5", "A3", "M6"], ["S3", "P2", "A6", "M3"], ["S1", "P3", "A1", "M4"]],
    "hands": [["A2", "A5", "M5", "M6", "P2", "P6", "S1", "S5"],
              ["A3", "A6", "M4", "P1", "P3", "P4", "P5", "S3"]],
    "table": ["A1", "M3", "S4", "S2", "M2", "S6", "A4", "M1"],
    "first_player": 0,
}
OPTIONS: dict[str, Any] = {"first_player": "seat0"}

card_words = card_name  # "Planet 4 (Name)", the words every shell uses for a card


STEPS = (
    Step({"type": "RequestCard", "target": 1, "card": "P4"},
         "Mission 2 needs Space ship 5, Planet 4, Alien 2 and Marvel 1. You hold the ship and "
         "the alien. Ask Bo for Planet 4.", ("type", "target", "card")),
    Step({"type": "RequestCard", "target": 1, "card": "M1"},
         "A granted request lets you ask again. Now ask Bo for Marvel 1.",
         ("type", "target", "card")),
    Step({"type": "Peek", "slot": 7},
         "After a refused request you may peek at one face-down table card. Peek at slot 8.",
         ("type", "slot")),
    Step({"type": "DeclareCard", "slot": 7, "card": "M1"},
         "You saw Marvel 1 in slot 8. Name it to take it.",
         ("type", "slot", "card")),
    Step({"type": "DeclareCard", "slot": 0, "card": "A3"},
         "A right declaration lets you go on. Try a guess you cannot be sure of: "
         "declare that slot 1 is Alien 3.", ("type", "slot", "card")),
)


def _tally(events: list[Event]) -> dict[int, list[str]]:
    """The cards of the missions each seat claimed, by seat."""
    out: dict[int, list[str]] = {}
    for e in events:
        if isinstance(e, ev.MissionClaimed):
            out.setdefault(e.seat, []).extend(e.cards)
    return out


def _tie(event: Event, hero: int, earlier: list[Event]) -> bool:
    if not isinstance(event, ev.GameEnded) or event.ended_by_cap:
        return False
    values = sorted((len(v) for v in _tally(earlier).values()), reverse=True)
    return len(values) >= 2 and values[0] == values[1]


GOALS = (
    Goal("granted", "a granted request", "Ask anyone for a card you lack; if they hold it they "
         "must hand it over, and you ask again.",
         lambda e, hero, earlier: isinstance(e, ev.RequestGranted) and e.requester == hero),
    Goal("refused", "a refused request", "If they do not hold it, everyone now knows that, "
         "and your turn moves on after an optional peek.",
         lambda e, hero, earlier: isinstance(e, ev.RequestRefused) and e.requester == hero),
    Goal("peek", "a peek", "Only you saw that card; remember where it lies.",
         lambda e, hero, earlier: isinstance(e, ev.PeekSeen) and e.seat == hero),
    Goal("right", "a right declaration", "Naming a table card correctly takes it into your "
         "hand, and you play on.",
         lambda e, hero, earlier: isinstance(e, ev.CardDeclared) and e.seat == hero
         and e.correct),
    Goal("wrong", "a wrong declaration", "A wrong name turns the card face up for everyone "
         "to see, goes back face down, and ends your turn.",
         lambda e, hero, earlier: isinstance(e, ev.CardDeclared) and e.seat == hero
         and not e.correct),
    Goal("mission", "a mission completed", "Four cards of one mission in your hand are "
         "claimed at once: they score and leave the game.",
         lambda e, hero, earlier: isinstance(e, ev.MissionClaimed) and e.seat == hero),
    Goal("tiebreak", "the tie-break", "Equal missions? The sum of the numbers on the mission "
         "cards each player claimed decides (rule AC-R13).", _tie),
)


def _who(seat: int, hero: int) -> str:
    return "You" if seat == hero else NAMES[seat] if seat < len(NAMES) else f"Seat {seat + 1}"


class AdventureWords(LessonWords):
    """The coach's words for Adventure Cards events and moves (the learner is Ada)."""

    @staticmethod
    def action_words(action: Action) -> str:
        data = action.to_json()
        kind = data["type"]
        if kind == "RequestCard":
            return f"ask {NAMES[data['target']]} for {card_words(data['card'])}"
        if kind == "DeclareCard":
            return f"declare slot {data['slot'] + 1} is {card_words(data['card'])}"
        if kind == "Peek":
            return f"peek at slot {data['slot'] + 1}"
        if kind == "SkipPeek":
            return "skip the peek"
        if kind == "PassTurn":
            return "pass (nothing else is legal)"
        if kind == "ClaimMission":
            return f"claim mission {data['mission'] + 1}"
        return str(kind)

    @staticmethod
    def keys(action: Action, view: Any) -> str:
        """What to type in the terminal for the move."""
        data = action.to_json()
        kind = data["type"]
        if kind == "RequestCard":
            return f"ask {NAMES[data['target']]} {data['card']}"
        if kind == "DeclareCard":
            return f"declare {data['slot'] + 1} {data['card']}"
        if kind == "Peek":
            return f"peek {data['slot'] + 1}"
        return {"SkipPeek": "skip", "PassTurn": "pass"}.get(kind, "do")

    @staticmethod
    def event_line(event: Event, hero: int, earlier: list[Event]) -> str | None:
        """What just happened and why, for the events Ada's seat sees (None: nothing to add)."""
        if isinstance(event, ev.RequestGranted):
            target = "you" if event.target == hero else NAMES[event.target]
            return (f"{_who(event.requester, hero)} asked {target} for {card_words(event.card)}:"
                    " granted, so the asker plays again.")
        if isinstance(event, ev.RequestRefused):
            target = "you" if event.target == hero else NAMES[event.target]
            return (f"{_who(event.requester, hero)} asked {target} for {card_words(event.card)}:"
                    " refused (now everyone knows who lacks it).")
        if isinstance(event, ev.PeekSeen) and event.seat == hero:
            return f"Only you see it: slot {event.slot + 1} is {card_words(event.card)}."
        if isinstance(event, ev.SlotPeeked) and event.seat != hero:
            return f"{_who(event.seat, hero)} peeked at slot {event.slot + 1} (only they saw it)."
        if isinstance(event, ev.CardDeclared):
            if event.correct:
                whose = "your" if event.seat == hero else f"{NAMES[event.seat]}'s"
                return (f"{_who(event.seat, hero)} named slot {event.slot + 1} right: "
                        f"{card_words(event.card)} goes to {whose} hand.")
            return (f"{_who(event.seat, hero)} named slot {event.slot + 1} as "
                    f"{card_words(event.card)}, but it is {card_words(event.revealed_card)}: "
                    "everyone saw it, and the turn passes.")
        if isinstance(event, ev.MissionClaimed):
            return (f"{_who(event.seat, hero)} completed mission {event.mission + 1} and "
                    "claimed it.")
        if isinstance(event, ev.GameEnded):
            text = "All six missions are claimed"
            if event.ended_by_cap:
                text = "The turn limit ended the game"
            tally = _tally(earlier)
            counts = sorted({len(v) for v in tally.values()}, reverse=True)
            if len(tally) > 1 and len(counts) == 1:
                sums = ", ".join(f"{_who(s, hero)} {sum(int(c[1]) for c in cards)}"
                                 for s, cards in sorted(tally.items()))
                text += f" and the mission counts are equal, so the card numbers decide: {sums}"
            if event.winners == (hero,):
                return text + ". You win!"
            if hero in event.winners:
                return text + ". A shared win."
            return text + f". {' and '.join(NAMES[s] for s in event.winners)} wins this time."
        return None


LESSON = Lesson(
    game="adventure",
    title="Adventure Cards: your first mission",
    options=OPTIONS,
    seed=0,
    pinned=PINNED,
    players=2,
    hero=0,
    opponents={1: ("memory", 1)},
    guide=("memory", 7),
    intro=(
        "Welcome, Ada! You and the computer astronaut Bo race to complete six missions; each "
        "needs its four cards (a ship, a planet, an alien and a marvel) in one hand.",
        "Eight cards lie face down on the table. Ask for cards, peek, and name table cards "
        "to collect them.",
    ),
    steps=STEPS,
    goals=GOALS,
    words=AdventureWords,
    seat_names=NAMES,
)
