"""The state of a game of Perils & Pathways: plain data, a fast `clone()`, and JSON both ways.

Every one of the 54 cards is in exactly one place at all times (`PLACES`; `locate_all` checks it).
Card codes are the core's ("8D", "10C", "JK1"); lists that are piles hold the top card first.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from pocketgalaxy.core.cards import DECK_54
from pocketgalaxy.core.errors import OptionsError, RecordError
from pocketgalaxy.core.mypyc_marks import mypyc_attr
from pocketgalaxy.core.options import options_from_json, options_to_json
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils.options import PerilsOptions

SUIT_KEYS = ("D", "C", "S", "H")

# Every place a card can be. `tucked` is split per suit, `current` holds at most one card.
PLACES = (
    "deck", "base", "tucked_D", "tucked_C", "tucked_S", "tucked_H", "damage", "inventory",
    "draw", "big_bads", "prize", "pathways", "current", "unchosen", "spent", "discarded", "limbo",
)

PHASES = ("archetype", "describe", "choose", "plan", "judge", "roll", "lose_levels",
          "shuffle_back", "over")
STAGES = ("setup", "main", "showdown", "over")
_INTS = ("seed", "narration_seed", "round", "health", "start_health", "levels_to_lose",
         "players")

_LISTS = (
    "deck", "base", "damage", "inventory", "draw", "big_bads", "prize", "pathways", "unchosen",
    "spent", "discarded", "limbo", "descriptions", "history", "tuck_order", "plan_items",
    "approve_items", "rolls", "defeated", "failed",
)


def _empty_tucked() -> dict[str, list[str]]:
    return {s: [] for s in SUIT_KEYS}


# Compiled with mypyc (scripts/compile_core.py): the compiled rules then read and write native
# attributes instead of a `__dict__`. `serializable`: states are pickled to worker processes;
# with `allow_interpreted_subclasses` too, so that interpreted code calling the class runs its
# `__init__` (marked `serializable` alone, a compiled class skips it: docs/speed.md).
@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
@dataclass(eq=False)
class PerilsState:
    """Plain data. Phases: archetype, describe, choose, plan, judge, roll, lose_levels,
    shuffle_back, over. Stages: setup, main, showdown, over."""

    options: PerilsOptions
    seed: int
    narration_seed: int
    rng: Rng
    pinned: dict[str, list[Any]] | None = None
    phase: str = "archetype"
    stage: str = "setup"
    round: int = 0
    archetype: str | None = None
    health: int = 0
    start_health: int = 0
    deck: list[str] = field(default_factory=list)
    base: list[str] = field(default_factory=list)
    tucked: dict[str, list[str]] = field(default_factory=_empty_tucked)
    tuck_order: list[str] = field(default_factory=list)
    damage: list[str] = field(default_factory=list)
    inventory: list[str] = field(default_factory=list)
    draw: list[str] = field(default_factory=list)
    big_bads: list[str] = field(default_factory=list)
    prize: list[str] = field(default_factory=list)
    pathways: list[str] = field(default_factory=list)
    descriptions: list[str] = field(default_factory=list)
    suggested: list[bool] = field(default_factory=list)
    history: list[str] = field(default_factory=list)
    current: str | None = None
    unchosen: list[str] = field(default_factory=list)
    spent: list[str] = field(default_factory=list)
    discarded: list[str] = field(default_factory=list)
    limbo: list[str] = field(default_factory=list)
    levels_to_lose: int = 0
    plan_made: bool = False
    plan_channel: str | None = None
    plan_items: list[str] = field(default_factory=list)
    plan_text: str = ""
    judged: bool = False
    approve_channel: bool = False
    approve_items: list[str] = field(default_factory=list)
    advantage: bool = False
    rolls: list[int] = field(default_factory=list)
    defeated: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    result: str | None = None
    result_reason: str = ""
    players: int = 2

    # Its own `__init__` (the parameters are the fields, in order; a list left out is a new
    # empty one): compiled, it runs in C, where the dataclass-made one is interpreted code
    # (about 23,000 instructions a game). No `__new__`: `clone` passes every field.
    def __init__(
        self,
        options: PerilsOptions,
        seed: int,
        narration_seed: int,
        rng: Rng,
        pinned: dict[str, list[Any]] | None = None,
        phase: str = "archetype",
        stage: str = "setup",
        round: int = 0,
        archetype: str | None = None,
        health: int = 0,
        start_health: int = 0,
        deck: list[str] | None = None,
        base: list[str] | None = None,
        tucked: dict[str, list[str]] | None = None,
        tuck_order: list[str] | None = None,
        damage: list[str] | None = None,
        inventory: list[str] | None = None,
        draw: list[str] | None = None,
        big_bads: list[str] | None = None,
        prize: list[str] | None = None,
        pathways: list[str] | None = None,
        descriptions: list[str] | None = None,
        suggested: list[bool] | None = None,
        history: list[str] | None = None,
        current: str | None = None,
        unchosen: list[str] | None = None,
        spent: list[str] | None = None,
        discarded: list[str] | None = None,
        limbo: list[str] | None = None,
        levels_to_lose: int = 0,
        plan_made: bool = False,
        plan_channel: str | None = None,
        plan_items: list[str] | None = None,
        plan_text: str = "",
        judged: bool = False,
        approve_channel: bool = False,
        approve_items: list[str] | None = None,
        advantage: bool = False,
        rolls: list[int] | None = None,
        defeated: list[str] | None = None,
        failed: list[str] | None = None,
        result: str | None = None,
        result_reason: str = "",
        players: int = 2,
    ) -> None:
        self.options = options
        self.seed = seed
        self.narration_seed = narration_seed
        self.rng = rng
        self.pinned = pinned
        self.phase = phase
        self.stage = stage
        self.round = round
        self.archetype = archetype
        self.health = health
        self.start_health = start_health
        self.deck = deck if deck is not None else []
        self.base = base if base is not None else []
        self.tucked = tucked if tucked is not None else _empty_tucked()
        self.tuck_order = tuck_order if tuck_order is not None else []
        self.damage = damage if damage is not None else []
        self.inventory = inventory if inventory is not None else []
        self.draw = draw if draw is not None else []
        self.big_bads = big_bads if big_bads is not None else []
        self.prize = prize if prize is not None else []
        self.pathways = pathways if pathways is not None else []
        self.descriptions = descriptions if descriptions is not None else []
        self.suggested = suggested if suggested is not None else []
        self.history = history if history is not None else []
        self.current = current
        self.unchosen = unchosen if unchosen is not None else []
        self.spent = spent if spent is not None else []
        self.discarded = discarded if discarded is not None else []
        self.limbo = limbo if limbo is not None else []
        self.levels_to_lose = levels_to_lose
        self.plan_made = plan_made
        self.plan_channel = plan_channel
        self.plan_items = plan_items if plan_items is not None else []
        self.plan_text = plan_text
        self.judged = judged
        self.approve_channel = approve_channel
        self.approve_items = approve_items if approve_items is not None else []
        self.advantage = advantage
        self.rolls = rolls if rolls is not None else []
        self.defeated = defeated if defeated is not None else []
        self.failed = failed if failed is not None else []
        self.result = result
        self.result_reason = result_reason
        self.players = players

    def clone(self) -> PerilsState:
        """A fast independent copy (lists copied, the options shared: they are frozen), every
        field passed to the constructor in order (tests/games/perils/test_perils_state_init.py
        checks that each is copied)."""
        pinned = self.pinned
        tucked = self.tucked
        return PerilsState(
            self.options,
            self.seed,
            self.narration_seed,
            self.rng.clone(),
            {k: list(v) for k, v in pinned.items()} if pinned is not None else None,
            self.phase,
            self.stage,
            self.round,
            self.archetype,
            self.health,
            self.start_health,
            self.deck.copy(),
            self.base.copy(),
            {"D": tucked["D"].copy(), "C": tucked["C"].copy(), "S": tucked["S"].copy(),
             "H": tucked["H"].copy()},
            self.tuck_order.copy(),
            self.damage.copy(),
            self.inventory.copy(),
            self.draw.copy(),
            self.big_bads.copy(),
            self.prize.copy(),
            self.pathways.copy(),
            self.descriptions.copy(),
            self.suggested.copy(),
            self.history.copy(),
            self.current,
            self.unchosen.copy(),
            self.spent.copy(),
            self.discarded.copy(),
            self.limbo.copy(),
            self.levels_to_lose,
            self.plan_made,
            self.plan_channel,
            self.plan_items.copy(),
            self.plan_text,
            self.judged,
            self.approve_channel,
            self.approve_items.copy(),
            self.advantage,
            self.rolls.copy(),
            self.defeated.copy(),
            self.failed.copy(),
            self.result,
            self.result_reason,
            self.players,
        )

    def place_of_each(self) -> dict[str, str]:
        """Card code -> place name; raises ValueError if a card is missing or in two places."""
        where: dict[str, str] = {}
        for place in PLACES:
            if place.startswith("tucked_"):
                cards: list[str] = self.tucked[place[-1]]
            elif place == "current":
                cards = [self.current] if self.current is not None else []
            else:
                cards = getattr(self, place)
            for c in cards:
                if c in where:
                    raise ValueError(f"card {c} is in both {where[c]} and {place}")
                where[c] = place
        missing = sorted(set(DECK_54) - set(where))
        extra = sorted(set(where) - set(DECK_54))
        if missing or extra:
            raise ValueError(f"cards missing {missing} or unknown {extra}")
        return where

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "options":
                value = options_to_json(value)
            elif f.name == "rng":
                value = value.to_json()
            elif f.name == "tucked":
                value = {s: list(v) for s, v in value.items()}
            elif isinstance(value, list):
                value = list(value)
            elif f.name == "pinned" and value is not None:
                value = {k: list(v) for k, v in value.items()}
            data[f.name] = value
        return data

    @classmethod
    def from_json(cls, data: Any) -> PerilsState:
        """Inverse of `to_json`; raises RecordError on corrupt data."""
        if not isinstance(data, dict):
            raise RecordError("a Perils state is a JSON object")
        names = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(names))
        missing = sorted(set(names) - set(data))
        if unknown or missing:
            raise RecordError(f"Perils state: unknown keys {unknown}, missing keys {missing}")
        try:
            kwargs: dict[str, Any] = dict(data)
            kwargs["options"] = options_from_json(PerilsOptions, data["options"])
            kwargs["rng"] = Rng.from_json(data["rng"])
            tucked = data["tucked"]
            if not isinstance(tucked, dict) or sorted(tucked) != sorted(SUIT_KEYS):
                raise ValueError("tucked must map D, C, S, H to lists")
            kwargs["tucked"] = {s: _codes(tucked[s], "tucked") for s in SUIT_KEYS}
            for name in _LISTS:
                kwargs[name] = list(data[name]) if isinstance(data[name], list) else _bad(name)
            kwargs["suggested"] = [bool(x) for x in data["suggested"]]
            for name in _INTS:
                if isinstance(data[name], bool) or not isinstance(data[name], int):
                    raise ValueError(f"{name} must be an integer")
            if data["phase"] not in PHASES or data["stage"] not in STAGES:
                raise ValueError(f"unknown phase {data['phase']!r} or stage {data['stage']!r}")
            state = cls(**kwargs)
            state.place_of_each()
        except (OptionsError, KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"corrupt Perils state: {exc}") from exc
        return state


def _codes(value: Any, name: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ValueError(f"{name} must be a list of card codes")
    return list(value)


def _bad(name: str) -> list[Any]:
    raise ValueError(f"{name} must be a list")
