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


@dataclass(frozen=True, slots=True, kw_only=True)
class ArchetypeChosen(Event):
    archetype: str
    cards: tuple[str, ...]
    health: int
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PathwaysDealt(Event):
    """Teller only: the faces of the pathways just laid (the Teller looks at them)."""

    round: int
    cards: tuple[str, ...]
    audience: tuple[int, ...] | None = TELLER_ONLY


@dataclass(frozen=True, slots=True, kw_only=True)
class PathwaysLaid(Event):
    round: int
    count: int
    sense: str
    stage: str
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PathwaysDescribed(Event):
    round: int
    descriptions: tuple[str, ...]
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PathwayChosen(Event):
    round: int
    position: int
    automatic: bool = False
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CardRevealed(Event):
    """A chosen pathway flipped face up. kind: peril, gift, item or big_bad; `thing` the id of
    the theme's thing it stands for."""

    card: str
    kind: str
    difficulty: int
    thing: str = ""
    story: str = ""
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class UnchosenRevealed(Event):
    """reveal_unchosen: the pathways not taken, flipped face up (PP-A11)."""

    cards: tuple[str, ...]
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LeftoverDiscarded(Event):
    """discard_leftover: fewer cards than pathways were left; set aside unseen (PP-A12)."""

    count: int
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PerilPassed(Event):
    """Automatic pass: skill level beat the difficulty (PP-R12)."""

    card: str
    level: int
    difficulty: int
    story: str = ""
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanMade(Event):
    channel: str | None
    items: tuple[str, ...]
    plan: str
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
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


@dataclass(frozen=True, slots=True, kw_only=True)
class DieRolled(Event):
    values: tuple[int, ...]
    advantage: bool
    bonus: int
    total: int
    difficulty: int
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PerilSucceeded(Event):
    card: str
    suit: str
    level: int
    story: str = ""
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PerilFailed(Event):
    card: str
    story: str = ""
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class HealthLost(Event):
    amount: int
    health: int
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class HealthGained(Event):
    amount: int
    health: int
    card: str
    story: str = ""
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class HealWasted(Event):
    """A healing gift at full health does nothing (PP-A5)."""

    card: str
    health: int
    story: str = ""
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemGained(Event):
    card: str
    story: str = ""
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemsSpent(Event):
    cards: tuple[str, ...]
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ZeroHealth(Event):
    stage: str
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemsLost(Event):
    cards: tuple[str, ...]
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LevelsLost(Event):
    cards: tuple[str, ...]
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsShuffledBack(Event):
    """Lost cards returned into the draw pile: identities public, positions unknown to all."""

    cards: tuple[str, ...]
    draw_count: int
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsDiscarded(Event):
    cards: tuple[str, ...]
    reason: str
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class HealthReset(Event):
    health: int
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ShowdownBegan(Event):
    round: int
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BigBadFaced(Event):
    card: str
    result: str  # "passed", "defeated" or "failed"
    remaining: int
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameWon(Event):
    prize: str
    health: int
    defeated: int
    audience: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameLost(Event):
    reason: str
    audience: tuple[int, ...] | None = None
