"""What a designer wants to know of one simulated game beyond who won: its course.

A tracer watches every event of a game (all of them: it is the analyst, not a player, so it may
see hidden cards) and sums them up as plain JSON-ready data for the game's `extras`:

- Perils & Pathways: the Hero's health at the start of every round and at the end, the round the
  game ended in, the round health first fell to zero, whether the showdown was reached, the
  perils failed by suit, and the suit of the last peril failed in a lost game (the skill that
  decided it).
- Adventure Cards: missions claimed per seat, how often the lead changed hands, when the eventual
  winner took the lead for good (as a share of the game's decisions) and how far behind the
  winner ever was (drama).

Tracing is off in plain simulations; a balance study turns it on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from pocketgalaxy.core.game import Event
from pocketgalaxy.games.adventure import events as adv
from pocketgalaxy.games.perils import events as per

SUITS = ("D", "H", "C", "S")
"""Suit letters in a fixed order (diamonds, hearts, clubs, spades), so outputs never follow
hash order."""


class Tracer(Protocol):
    def see(self, events: Sequence[Event]) -> None: ...

    def finish(self, winners: Sequence[int]) -> dict[str, Any]: ...


def _suit(card: str) -> str:
    return card[-1:] if card[-1:] in SUITS else ""


class PerilsTracer:
    """The Hero's course through one game of Perils & Pathways."""

    def __init__(self) -> None:
        self.health = 0
        self.round = 0
        self.health_path: list[int] = []
        self.failed = dict.fromkeys(SUITS, 0)
        self.last_failed = ""
        self.showdown = False
        self.first_zero: int | None = None

    def see(self, events: Sequence[Event]) -> None:
        for event in events:
            match event:
                case per.ArchetypeChosen(health=health):
                    self.health = health
                case per.PathwaysLaid(round=number):
                    if number != self.round:
                        self.round = number
                        self.health_path.append(self.health)
                case per.ShowdownBegan(round=number):
                    self.showdown = True
                    self.round = max(self.round, number)
                case per.PerilFailed(card=card):
                    suit = _suit(card)
                    if suit:
                        self.failed[suit] += 1
                        self.last_failed = suit
                case per.HealthLost(health=health) | per.HealthGained(health=health):
                    self.health = health
                case per.HealthReset(health=health):
                    self.health = health
                case per.ZeroHealth():
                    if self.first_zero is None:
                        self.first_zero = self.round
                case _:
                    pass

    def finish(self, winners: Sequence[int]) -> dict[str, Any]:
        return {
            "rounds": self.round,
            "health_path": [*self.health_path, self.health],
            "showdown": self.showdown,
            "first_zero_health": self.first_zero,
            "failed_by_suit": dict(self.failed),
            "deciding_suit": "" if winners else self.last_failed,
        }


class AdventureTracer:
    """The race for missions in one game of Adventure Cards."""

    def __init__(self, players: int) -> None:
        self.missions = [0] * players
        self.decisions = 0
        # (decision number, missions per seat after the claim), in order.
        self.claims: list[tuple[int, tuple[int, ...]]] = []

    def see(self, events: Sequence[Event]) -> None:
        self.decisions += 1
        for event in events:
            if isinstance(event, adv.MissionClaimed):
                self.missions[event.seat] += 1
                self.claims.append((self.decisions, tuple(self.missions)))

    def finish(self, winners: Sequence[int]) -> dict[str, Any]:
        lead_changes = 0
        leader: int | None = None
        decided_at: float | None = None
        drama = 0
        sole = winners[0] if len(winners) == 1 else None
        for decision, counts in self.claims:
            top = max(counts)
            leaders = [seat for seat, c in enumerate(counts) if c == top]
            now = leaders[0] if len(leaders) == 1 else None
            if now is not None and leader is not None and now != leader:
                lead_changes += 1
            if now is not None:
                leader = now
            if sole is not None:
                drama = max(drama, top - counts[sole])
                if now == sole and decided_at is None:
                    decided_at = decision / max(1, self.decisions)
                elif now != sole:
                    decided_at = None  # lost the sole lead again: not yet decided
        return {
            "missions": list(self.missions),
            "lead_changes": lead_changes,
            "decided_at": decided_at,
            "drama": drama,
        }


def tracer_for(game: str, players: int) -> Tracer:
    if game == "perils":
        return PerilsTracer()
    return AdventureTracer(players)
