"""What a lesson is: the pinned game, the taught moves, the goals, and the words for them.

A lesson is data. `steps` are the taught moves of the learner (seat `hero`) in order, each
with the coach's line; `goals` are the rule events the lesson must show, each recognised from an
event the learner's seat may see. When the learner leaves the script (any other legal move),
the coach asks the lesson's `guide` (a deterministic computer player that sees only the
learner's view) for the next move to suggest, so a lesson never gets stuck.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import Action, Event

GAMES = ("perils", "adventure")
_MODULES = {"perils": "pocketgalaxy.tutorial.perils",
            "adventure": "pocketgalaxy.tutorial.adventure"}


@dataclass(frozen=True)
class Step:
    """One taught move: the action (as its JSON), the fields that make it "the taught move",
    and the coach's line said before it."""

    action: dict[str, Any]
    say: str
    match: tuple[str, ...] = ("type",)


@dataclass(frozen=True)
class Goal:
    """A rule the lesson shows: `reached(event, hero, earlier)` recognises it in `event`
    (`earlier`: the learner's events before it); `line` is said once, the first time."""

    id: str
    title: str
    line: str
    reached: Callable[[Event, int, list[Event]], bool]

    def first(self, events: list[Event], hero: int) -> int | None:
        """The index of the event that first shows this goal, or None."""
        for i, event in enumerate(events):
            if self.reached(event, hero, events[:i]):
                return i
        return None


@dataclass(frozen=True)
class Lesson:
    """One guided first game."""

    game: str
    title: str
    options: dict[str, Any]
    seed: int
    pinned: dict[str, Any]
    players: int
    hero: int
    opponents: dict[int, tuple[str, int]]
    """Computer seats: (player spec, its seed); deterministic, so the lesson is reproducible."""
    guide: tuple[str, int]
    """The computer player whose move the coach suggests off the script: (spec, seed)."""
    intro: tuple[str, ...]
    steps: tuple[Step, ...]
    goals: tuple[Goal, ...]
    words: Any
    """The game's words: a `LessonWords` subclass with `event_line`, `action_words` and `keys`
    (see perils.py / adventure.py)."""
    seat_names: tuple[str, ...] = field(default=())

    def taught(self, index: int) -> Step | None:
        return self.steps[index] if 0 <= index < len(self.steps) else None

    def same_move(self, step: Step, action: Action) -> bool:
        """True when `action` is the taught move of `step` (only the fields in `match`)."""
        data = action.to_json()
        return all(data.get(k) == _norm(step.action.get(k)) for k in step.match)


class LessonWords:
    """What both games' coach words share; each game's subclass says its moves and events."""

    @staticmethod
    def action_words(action: Action) -> str:
        raise NotImplementedError

    @classmethod
    def instruction(cls, action: Action, view: Any) -> str:
        """The suggested move in words: the move's phrase as a sentence."""
        text = cls.action_words(action)
        return text[0].upper() + text[1:] + "."


def _norm(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def lesson_for(game: str) -> Lesson:
    """The lesson of `game` ("perils" or "adventure")."""
    if game not in _MODULES:
        raise PocketGalaxyError(f"there is no lesson for {game!r}", code="tutorial/unknown_game",
                                allowed=list(GAMES))
    module = importlib.import_module(_MODULES[game])
    lesson: Lesson = module.LESSON
    return lesson
