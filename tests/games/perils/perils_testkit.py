"""Helpers for the Perils & Pathways tests: pinned games and short ways to drive them.

The cosmic Pilot (the default archetype here) holds 2D, 4C, 6S, 3H: Strength 2, Agility 4,
Piloting 6, and the heart card 3H.
"""

from __future__ import annotations

from typing import Any

from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.games.perils.actions import ChoosePathway, DescribePathways, MakePlan, Roll
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.state import PerilsState
from pocketgalaxy.registry import perils_rules

R = perils_rules()


def new(draw: tuple[str, ...] | list[str] = (), bigs: tuple[str, ...] = ("AD", "AC", "AS"),
        rolls: tuple[int, ...] | list[int] = (), seed: int = 7, **options: Any) -> PerilsState:
    """A pinned game; the archetype defaults to the cosmic Pilot."""
    options.setdefault("archetype", "pilot")
    pinned = {"draw": list(draw), "big_bads": list(bigs), "rolls": list(rolls)}
    return R.new(PerilsOptions(**options), seed, pinned=pinned)


def act(state: PerilsState, action: Action, seat: int | None = None
        ) -> tuple[PerilsState, list[Event]]:
    who = R.to_act(state) if seat is None else seat
    assert who is not None, "the game is over"
    return R.apply(state, who, action)


def describe(state: PerilsState) -> tuple[PerilsState, list[Event]]:
    return act(state, DescribePathways(R.suggestions(state)))


def take(state: PerilsState, position: int = 0) -> tuple[PerilsState, list[Event]]:
    """Describe the round (computer suggestions) and choose a pathway."""
    state, events = describe(state)
    if state.phase == "choose":
        state, more = act(state, ChoosePathway(position))
        events = events + more
    return state, events


def attempt(state: PerilsState, channel: str | None = None, items: tuple[str, ...] = (),
            plan: str = "") -> tuple[PerilsState, list[Event]]:
    """Make a plan and roll (the pinned rolls decide)."""
    state, events = act(state, MakePlan(channel, items, plan))
    if state.phase == "roll":
        state, more = act(state, Roll())
        events = events + more
    return state, events


def move(state: PerilsState, code: str, place: str) -> None:
    """Test arrangement: move one card to a list place, keeping every card in one place."""
    where = state.place_of_each()[code]
    if where.startswith("tucked_"):
        state.tucked[where[-1]].remove(code)
    elif where == "current":
        state.current = None
    else:
        getattr(state, where).remove(code)
    if place.startswith("tucked_"):
        state.tucked[place[-1]].append(code)
        state.tuck_order.append(code)
    else:
        getattr(state, place).append(code)


def drain(state: PerilsState) -> None:
    """Test arrangement: the maze is walked; the rest of the draw pile lies spent on the table."""
    for code in list(state.draw):
        move(state, code, "spent")


def names(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def first(events: list[Event], kind: type[Event]) -> Any:
    for e in events:
        if isinstance(e, kind):
            return e
    raise AssertionError(f"no {kind.__name__} in {names(events)}")
