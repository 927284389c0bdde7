"""The actions of Perils & Pathways: frozen dataclasses named as commands.

Seat 0 is the Hero, seat 1 the Teller. Which seat may take which action in which phase is
listed in `ACTION_PHASES`; the rules check everything else.
"""

from __future__ import annotations

from dataclasses import dataclass

from pocketgalaxy.core.game import Action

HERO = 0
TELLER = 1


@dataclass(frozen=True, slots=True)
class ChooseArchetype(Action):
    """Hero, phase "archetype": take an archetype of the theme by its id (PP-R2)."""

    archetype: str


@dataclass(frozen=True, slots=True)
class DescribePathways(Action):
    """Teller, phase "describe": one text per face-down pathway, in position order (PP-R8)."""

    descriptions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChoosePathway(Action):
    """Hero, phase "choose": take the pathway at `position` (0-based, PP-R9)."""

    position: int


@dataclass(frozen=True, slots=True)
class MakePlan(Action):
    """Hero, phase "plan": channel one other skill (a suit letter), commit items, tell the plan.

    `channel` is "D", "C" or "S" (also "H" with heart_is_skill), `items` are card codes from
    the inventory, `plan` is free text (the rubric reads it; PP-R13).
    """

    channel: str | None = None
    items: tuple[str, ...] = ()
    plan: str = ""


@dataclass(frozen=True, slots=True)
class JudgePlan(Action):
    """Teller, phase "judge" (teller_policy="human"): approve bonus sources, grant advantage."""

    approve_channel: bool
    approve_items: tuple[str, ...]
    advantage: bool


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Hero, phase "roll": roll the die (two, keep the higher, with advantage; PP-R14)."""


@dataclass(frozen=True, slots=True)
class ChooseLostLevels(Action):
    """Phase "lose_levels": the gained-level cards to lose at zero health (PP-R18, PP-A9)."""

    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChooseShuffleBack(Action):
    """Teller, phase "shuffle_back" (shuffle_back_rule="teller_chooses"): lost cards to return."""

    cards: tuple[str, ...]


ACTION_TYPES: tuple[type[Action], ...] = (
    ChooseArchetype,
    DescribePathways,
    ChoosePathway,
    MakePlan,
    JudgePlan,
    Roll,
    ChooseLostLevels,
    ChooseShuffleBack,
)

ACTION_PHASES: dict[type[Action], str] = {
    ChooseArchetype: "archetype",
    DescribePathways: "describe",
    ChoosePathway: "choose",
    MakePlan: "plan",
    JudgePlan: "judge",
    Roll: "roll",
    ChooseLostLevels: "lose_levels",
    ChooseShuffleBack: "shuffle_back",
}

MAX_DESCRIPTION = 400
MAX_PLAN = 2000
