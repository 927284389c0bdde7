"""The events of Perils & Pathways: frozen dataclasses in the past tense, each with an audience.

`audience=None` is public; `(1,)` is the Teller only. Events are data; the moments of the story
(a card revealed, a peril won or lost, a gift or item taken) also carry the computer Teller's
`story` (story.py, public like the card), so every shell shows the same words. Card codes
are the core's short codes ("8D", "JK1").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pocketgalaxy.core.game import Event

TELLER_ONLY: tuple[int, ...] = (1,)

# Each event writes its own `__init__` (the dataclass keeps its fields, repr, equality and frozen
# guard): compiled with mypyc it builds the event in C, where the dataclass-made `__init__`
# stays interpreted code. Parameters are the fields, in order, so an event also pickles as the
# constructor call `Event.__reduce__` makes (docs/speed.md). Callers name every argument.


@dataclass(frozen=True, slots=True)
class ArchetypeChosen(Event):
    archetype: str
    cards: tuple[str, ...]
    health: int
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        archetype: str,
        cards: tuple[str, ...],
        health: int,
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "archetype", archetype)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "health", health)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class PathwaysDealt(Event):
    """Teller only: the faces of the pathways just laid (the Teller looks at them)."""

    round: int
    cards: tuple[str, ...]
    audience: tuple[int, ...] | None = TELLER_ONLY

    def __init__(
        self,
        round: int,
        cards: tuple[str, ...],
        audience: tuple[int, ...] | None = TELLER_ONLY,
    ) -> None:
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class PathwaysLaid(Event):
    round: int
    count: int
    sense: str
    stage: str
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        round: int,
        count: int,
        sense: str,
        stage: str,
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "sense", sense)
        object.__setattr__(self, "stage", stage)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class PathwaysDescribed(Event):
    round: int
    descriptions: tuple[str, ...]
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        round: int,
        descriptions: tuple[str, ...],
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "descriptions", descriptions)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class PathwayChosen(Event):
    round: int
    position: int
    automatic: bool = False
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        round: int,
        position: int,
        automatic: bool = False,
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "position", position)
        object.__setattr__(self, "automatic", automatic)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class CardRevealed(Event):
    """A chosen pathway flipped face up. kind: peril, gift, item or big_bad; `thing` the id of
    the theme's thing it stands for."""

    card: str
    kind: str
    difficulty: int
    thing: str = ""
    story: str = ""
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        card: str,
        kind: str,
        difficulty: int,
        thing: str = "",
        story: str = "",
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "difficulty", difficulty)
        object.__setattr__(self, "thing", thing)
        object.__setattr__(self, "story", story)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class UnchosenRevealed(Event):
    """reveal_unchosen: the pathways not taken, flipped face up (PP-A11)."""

    cards: tuple[str, ...]
    audience: tuple[int, ...] | None = None

    def __init__(self, cards: tuple[str, ...], audience: tuple[int, ...] | None = None) -> None:
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class LeftoverDiscarded(Event):
    """discard_leftover: fewer cards than pathways were left; set aside unseen (PP-A12)."""

    count: int
    audience: tuple[int, ...] | None = None

    def __init__(self, count: int, audience: tuple[int, ...] | None = None) -> None:
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class PerilPassed(Event):
    """Automatic pass: skill level beat the difficulty (PP-R12)."""

    card: str
    level: int
    difficulty: int
    story: str = ""
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        card: str,
        level: int,
        difficulty: int,
        story: str = "",
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "difficulty", difficulty)
        object.__setattr__(self, "story", story)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class PlanMade(Event):
    channel: str | None
    items: tuple[str, ...]
    plan: str
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        channel: str | None,
        items: tuple[str, ...],
        plan: str,
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "channel", channel)
        object.__setattr__(self, "items", items)
        object.__setattr__(self, "plan", plan)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class PlanJudged(Event):
    """The verdict on a plan. `reasons`: the rubric's reasons, source by source, and what the
    roll-twice needed (games/perils/rubric.py `explanation_json`), for every shell to show."""

    approve_channel: bool
    approve_items: tuple[str, ...]
    advantage: bool
    bonus: int
    by: str
    reasons: dict[str, Any] | None = None
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        approve_channel: bool,
        approve_items: tuple[str, ...],
        advantage: bool,
        bonus: int,
        by: str,
        reasons: dict[str, Any] | None = None,
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "approve_channel", approve_channel)
        object.__setattr__(self, "approve_items", approve_items)
        object.__setattr__(self, "advantage", advantage)
        object.__setattr__(self, "bonus", bonus)
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "reasons", reasons)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class DieRolled(Event):
    values: tuple[int, ...]
    advantage: bool
    bonus: int
    total: int
    difficulty: int
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        values: tuple[int, ...],
        advantage: bool,
        bonus: int,
        total: int,
        difficulty: int,
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "advantage", advantage)
        object.__setattr__(self, "bonus", bonus)
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "difficulty", difficulty)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class PerilSucceeded(Event):
    card: str
    suit: str
    level: int
    story: str = ""
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        card: str,
        suit: str,
        level: int,
        story: str = "",
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "story", story)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class PerilFailed(Event):
    card: str
    story: str = ""
    audience: tuple[int, ...] | None = None

    def __init__(self, card: str, story: str = "", audience: tuple[int, ...] | None = None) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "story", story)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class HealthLost(Event):
    amount: int
    health: int
    audience: tuple[int, ...] | None = None

    def __init__(self, amount: int, health: int, audience: tuple[int, ...] | None = None) -> None:
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "health", health)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class HealthGained(Event):
    amount: int
    health: int
    card: str
    story: str = ""
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        amount: int,
        health: int,
        card: str,
        story: str = "",
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "health", health)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "story", story)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class HealWasted(Event):
    """A healing gift at full health does nothing (PP-A5)."""

    card: str
    health: int
    story: str = ""
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        card: str,
        health: int,
        story: str = "",
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "health", health)
        object.__setattr__(self, "story", story)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class ItemGained(Event):
    card: str
    story: str = ""
    audience: tuple[int, ...] | None = None

    def __init__(self, card: str, story: str = "", audience: tuple[int, ...] | None = None) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "story", story)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class ItemsSpent(Event):
    cards: tuple[str, ...]
    audience: tuple[int, ...] | None = None

    def __init__(self, cards: tuple[str, ...], audience: tuple[int, ...] | None = None) -> None:
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class ZeroHealth(Event):
    stage: str
    audience: tuple[int, ...] | None = None

    def __init__(self, stage: str, audience: tuple[int, ...] | None = None) -> None:
        object.__setattr__(self, "stage", stage)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class ItemsLost(Event):
    cards: tuple[str, ...]
    audience: tuple[int, ...] | None = None

    def __init__(self, cards: tuple[str, ...], audience: tuple[int, ...] | None = None) -> None:
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class LevelsLost(Event):
    cards: tuple[str, ...]
    audience: tuple[int, ...] | None = None

    def __init__(self, cards: tuple[str, ...], audience: tuple[int, ...] | None = None) -> None:
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class CardsShuffledBack(Event):
    """Lost cards returned into the draw pile: identities public, positions unknown to all."""

    cards: tuple[str, ...]
    draw_count: int
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        cards: tuple[str, ...],
        draw_count: int,
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "draw_count", draw_count)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class CardsDiscarded(Event):
    cards: tuple[str, ...]
    reason: str
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        cards: tuple[str, ...],
        reason: str,
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class HealthReset(Event):
    health: int
    audience: tuple[int, ...] | None = None

    def __init__(self, health: int, audience: tuple[int, ...] | None = None) -> None:
        object.__setattr__(self, "health", health)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class ShowdownBegan(Event):
    round: int
    audience: tuple[int, ...] | None = None

    def __init__(self, round: int, audience: tuple[int, ...] | None = None) -> None:
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class BigBadFaced(Event):
    card: str
    result: str  # "passed", "defeated" or "failed"
    remaining: int
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        card: str,
        result: str,
        remaining: int,
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "result", result)
        object.__setattr__(self, "remaining", remaining)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    prize: str
    health: int
    defeated: int
    audience: tuple[int, ...] | None = None

    def __init__(
        self,
        prize: str,
        health: int,
        defeated: int,
        audience: tuple[int, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "prize", prize)
        object.__setattr__(self, "health", health)
        object.__setattr__(self, "defeated", defeated)
        object.__setattr__(self, "audience", audience)


@dataclass(frozen=True, slots=True)
class GameLost(Event):
    reason: str
    audience: tuple[int, ...] | None = None

    def __init__(self, reason: str, audience: tuple[int, ...] | None = None) -> None:
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "audience", audience)
