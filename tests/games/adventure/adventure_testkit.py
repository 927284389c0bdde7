"""Pinned deals and small drivers shared by the Adventure Cards tests (not a test module)."""

from __future__ import annotations

from typing import Any

from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.games.adventure import AdventureOptions, AdventureRules, AdventureState

RULES = AdventureRules()

# Mission k (0..5) is S{k+1}, P{k+1}, A{k+1}, M{k+1}: easy to read in a test.
PLAIN_MISSIONS = [[f"S{k}", f"P{k}", f"A{k}", f"M{k}"] for k in range(1, 7)]


def mission_cards(k: int) -> list[str]:
    """The four cards of PLAIN_MISSIONS[k]."""
    return list(PLAIN_MISSIONS[k])


FOUR_PLAYER_DEAL: dict[str, Any] = {
    "missions": PLAIN_MISSIONS,
    "hands": [
        ["S1", "P1", "A1", "S2"],
        ["M1", "P2", "A2", "S3"],
        ["M2", "P3", "A3", "S4"],
        ["M3", "P4", "A4", "S5"],
    ],
    "table": ["M4", "P5", "A5", "S6", "M5", "P6", "A6", "M6"],
    "first_player": 0,
}
"""4 players, 4 cards each, 8 on the table (AC-R2); seat 0 starts and lacks only M1 of mission 0."""


def new(pinned: dict[str, Any] | None = None, players: int = 4, **options: Any) -> AdventureState:
    """A pinned game (the four-player deal unless another is given) with `options`."""
    return RULES.new(
        AdventureOptions(**options),
        seed=7,
        players=players,
        pinned=FOUR_PLAYER_DEAL if pinned is None else pinned,
    )


def play(state: AdventureState, *steps: tuple[int, Action]) -> tuple[AdventureState, list[Event]]:
    """Apply checked steps in order; returns the final state and all their events."""
    events: list[Event] = []
    for seat, action in steps:
        state, new_events = RULES.apply(state, seat, action)
        events += new_events
    return state, events


def types_of(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]
