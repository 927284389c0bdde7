"""What each seat of Perils & Pathways may know: `PerilsView`, built by `build_view`.

Seat 0 (Hero) and watchers (None) never see a face-down card: not the draw pile order, not the
current pathways, not the unchosen pathways (unless reveal_unchosen), not the Big Bads before
they are flipped, not the rng. The Teller (seat 1) also sees the faces of the pathways in front
of the Hero, the unchosen cards, and the computer's suggested descriptions (`suggestions`).
`current_thing` is the id of the theme's thing the revealed current card stands for (public
once the card is face up; None before).

Compiled with mypyc (scripts/compile_core.py, "The Perils million" in docs/speed.md): a view is
built at every decision of a simulation. The view classes stay frozen dataclasses; each has a
`__reduce__` (a constructor call, as `Action` and `Event` have), because a compiled class has no
bare `__new__` for pickle and copy to use, and views are pickled and deep-copied (worker
processes, the web table's thinking copies).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from pocketgalaxy.core.game import Action
from pocketgalaxy.games.perils.content import Theme
from pocketgalaxy.games.perils.odds import PerilOdds, odds_for_state
from pocketgalaxy.games.perils.state import PerilsState

# Each view class writes its own `__init__` (the dataclass keeps its fields, repr, equality and
# frozen guard): compiled, it stores each field in C, where the dataclass-made `__init__` stays
# interpreted code (docs/speed.md). Parameters are the fields, in order.

ROLES: dict[int | None, str] = {0: "hero", 1: "teller", None: "watcher"}


def _fields_of(obj: object) -> tuple[Any, ...]:
    """The constructor's arguments, in field order (for `__reduce__`)."""
    return tuple(getattr(obj, f.name) for f in fields(obj))  # type: ignore[arg-type]


@dataclass(frozen=True)
class SkillView:
    suit: str
    name: str
    base: tuple[str, ...]
    tucked: tuple[str, ...]
    level: int

    def __init__(
        self,
        suit: str,
        name: str,
        base: tuple[str, ...],
        tucked: tuple[str, ...],
        level: int,
    ) -> None:
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "tucked", tucked)
        object.__setattr__(self, "level", level)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (type(self), _fields_of(self))

    def to_json(self) -> dict[str, Any]:
        return {"suit": self.suit, "name": self.name, "base": list(self.base),
                "tucked": list(self.tucked), "level": self.level}


@dataclass(frozen=True)
class ItemView:
    code: str
    name: str
    blurb: str

    def __init__(self, code: str, name: str, blurb: str) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "blurb", blurb)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (type(self), _fields_of(self))

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "name": self.name, "blurb": self.blurb}


@dataclass(frozen=True)
class PathwayView:
    """One face-down pathway. `face` is set only in the Teller's view; `hint` only when the
    description is the computer's suggestion (the text carries the same information)."""

    position: int
    description: str | None
    hint: dict[str, str] | None
    face: str | None

    def __init__(
        self,
        position: int,
        description: str | None,
        hint: dict[str, str] | None,
        face: str | None,
    ) -> None:
        object.__setattr__(self, "position", position)
        object.__setattr__(self, "description", description)
        object.__setattr__(self, "hint", hint)
        object.__setattr__(self, "face", face)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (type(self), _fields_of(self))

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position, "description": self.description,
                "hint": dict(self.hint) if self.hint else None, "face": self.face}


@dataclass(frozen=True)
class PlanView:
    """The plan being resolved, the judgement (once made) and the dice (once rolled)."""

    channel: str | None
    items: tuple[str, ...]
    text: str
    judged: bool
    approve_channel: bool
    approve_items: tuple[str, ...]
    advantage: bool
    bonus: int
    rolls: tuple[int, ...]
    reasons: dict[str, Any] | None = None
    """The rubric's reasons source by source (games/perils/rubric.py `explanation_json`)."""

    def __init__(
        self,
        channel: str | None,
        items: tuple[str, ...],
        text: str,
        judged: bool,
        approve_channel: bool,
        approve_items: tuple[str, ...],
        advantage: bool,
        bonus: int,
        rolls: tuple[int, ...],
        reasons: dict[str, Any] | None = None,
    ) -> None:
        object.__setattr__(self, "channel", channel)
        object.__setattr__(self, "items", items)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "judged", judged)
        object.__setattr__(self, "approve_channel", approve_channel)
        object.__setattr__(self, "approve_items", approve_items)
        object.__setattr__(self, "advantage", advantage)
        object.__setattr__(self, "bonus", bonus)
        object.__setattr__(self, "rolls", rolls)
        object.__setattr__(self, "reasons", reasons)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (type(self), _fields_of(self))

    def to_json(self) -> dict[str, Any]:
        return {"channel": self.channel, "items": list(self.items), "text": self.text,
                "judged": self.judged, "approve_channel": self.approve_channel,
                "approve_items": list(self.approve_items), "advantage": self.advantage,
                "bonus": self.bonus, "rolls": list(self.rolls), "reasons": self.reasons}


@dataclass(frozen=True)
class PerilsView:
    """Everything one seat may know, as plain data with `to_json()`."""

    seat: int | None
    role: str
    phase: str
    stage: str
    round: int
    sense: str
    theme: str
    theme_title: str
    archetype: str | None
    archetype_name: str | None
    skills: tuple[SkillView, ...]
    health: int
    max_health: int
    damage: tuple[str, ...]
    items: tuple[ItemView, ...]
    draw_count: int
    pathways: tuple[PathwayView, ...]
    current: str | None
    current_kind: str | None
    difficulty: int | None
    plan: PlanView | None
    big_bads_remaining: int
    big_bads_defeated: tuple[str, ...]
    big_bads_failed: tuple[str, ...]
    table: dict[str, int]
    spent: tuple[str, ...]
    unchosen_faces: tuple[str, ...] | None
    lost_pending: tuple[str, ...]
    levels_to_lose: int
    prize: str
    to_act: int | None
    legal: tuple[dict[str, Any], ...]
    outcome: dict[str, Any] | None
    suggestions: tuple[str, ...] | None
    options: dict[str, Any]
    current_thing: str | None = None
    odds: PerilOdds | None = None
    """What the die must show and the chance, while a peril waits for its roll (odds.py)."""
    wounds: tuple[str, ...] = ()
    """The damage cards that still count: a healing gift closes the latest wound (PP-A5's
    count model), so `damage` is the history and `wounds` what the Hero carries now."""

    def __init__(
        self,
        seat: int | None,
        role: str,
        phase: str,
        stage: str,
        round: int,
        sense: str,
        theme: str,
        theme_title: str,
        archetype: str | None,
        archetype_name: str | None,
        skills: tuple[SkillView, ...],
        health: int,
        max_health: int,
        damage: tuple[str, ...],
        items: tuple[ItemView, ...],
        draw_count: int,
        pathways: tuple[PathwayView, ...],
        current: str | None,
        current_kind: str | None,
        difficulty: int | None,
        plan: PlanView | None,
        big_bads_remaining: int,
        big_bads_defeated: tuple[str, ...],
        big_bads_failed: tuple[str, ...],
        table: dict[str, int],
        spent: tuple[str, ...],
        unchosen_faces: tuple[str, ...] | None,
        lost_pending: tuple[str, ...],
        levels_to_lose: int,
        prize: str,
        to_act: int | None,
        legal: tuple[dict[str, Any], ...],
        outcome: dict[str, Any] | None,
        suggestions: tuple[str, ...] | None,
        options: dict[str, Any],
        current_thing: str | None = None,
        odds: PerilOdds | None = None,
        wounds: tuple[str, ...] = (),
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "role", role)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "stage", stage)
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "sense", sense)
        object.__setattr__(self, "theme", theme)
        object.__setattr__(self, "theme_title", theme_title)
        object.__setattr__(self, "archetype", archetype)
        object.__setattr__(self, "archetype_name", archetype_name)
        object.__setattr__(self, "skills", skills)
        object.__setattr__(self, "health", health)
        object.__setattr__(self, "max_health", max_health)
        object.__setattr__(self, "damage", damage)
        object.__setattr__(self, "items", items)
        object.__setattr__(self, "draw_count", draw_count)
        object.__setattr__(self, "pathways", pathways)
        object.__setattr__(self, "current", current)
        object.__setattr__(self, "current_kind", current_kind)
        object.__setattr__(self, "difficulty", difficulty)
        object.__setattr__(self, "plan", plan)
        object.__setattr__(self, "big_bads_remaining", big_bads_remaining)
        object.__setattr__(self, "big_bads_defeated", big_bads_defeated)
        object.__setattr__(self, "big_bads_failed", big_bads_failed)
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "spent", spent)
        object.__setattr__(self, "unchosen_faces", unchosen_faces)
        object.__setattr__(self, "lost_pending", lost_pending)
        object.__setattr__(self, "levels_to_lose", levels_to_lose)
        object.__setattr__(self, "prize", prize)
        object.__setattr__(self, "to_act", to_act)
        object.__setattr__(self, "legal", legal)
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "suggestions", suggestions)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "current_thing", current_thing)
        object.__setattr__(self, "odds", odds)
        object.__setattr__(self, "wounds", wounds)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (type(self), _fields_of(self))

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "perils",
            "seat": self.seat,
            "role": self.role,
            "phase": self.phase,
            "stage": self.stage,
            "round": self.round,
            "sense": self.sense,
            "theme": self.theme,
            "theme_title": self.theme_title,
            "archetype": self.archetype,
            "archetype_name": self.archetype_name,
            "skills": [s.to_json() for s in self.skills],
            "health": self.health,
            "max_health": self.max_health,
            "damage": list(self.damage),
            "items": [i.to_json() for i in self.items],
            "draw_count": self.draw_count,
            "pathways": [p.to_json() for p in self.pathways],
            "current": self.current,
            "current_kind": self.current_kind,
            "current_thing": self.current_thing,
            "difficulty": self.difficulty,
            "plan": self.plan.to_json() if self.plan else None,
            "big_bads_remaining": self.big_bads_remaining,
            "big_bads_defeated": list(self.big_bads_defeated),
            "big_bads_failed": list(self.big_bads_failed),
            "table": dict(self.table),
            "spent": list(self.spent),
            "unchosen_faces": list(self.unchosen_faces) if self.unchosen_faces is not None
            else None,
            "lost_pending": list(self.lost_pending),
            "levels_to_lose": self.levels_to_lose,
            "prize": self.prize,
            "to_act": self.to_act,
            "legal": [dict(a) for a in self.legal],
            "outcome": dict(self.outcome) if self.outcome else None,
            "suggestions": list(self.suggestions) if self.suggestions is not None else None,
            "options": dict(self.options),
            "odds": self.odds.to_json() if self.odds else None,
            "wounds": list(self.wounds),
        }

    def skill(self, suit: str) -> SkillView | None:
        for s in self.skills:
            if s.suit == suit:
                return s
        return None


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_JSON_BY_ID: dict[int, tuple[Action, dict[str, Any]]] = {}


def _action_json(action: Action) -> dict[str, Any]:
    """`action.to_json()`, shared (never mutated: a view's `to_json` copies it). The rules'
    legal lists share their action instances, so the memo is first by identity (an action's
    dataclass hash runs interpreted, field by field); the entry holds the action, so its id
    cannot be reused while the entry lives."""
    hit = _JSON_BY_ID.get(id(action))
    if hit is not None and hit[0] is action:
        return hit[1]
    data = _action_json_by_value(action)
    if len(_JSON_BY_ID) > 4096:
        _JSON_BY_ID.clear()
    _JSON_BY_ID[id(action)] = (action, data)
    return data


@lru_cache(maxsize=4096)
def _action_json_by_value(action: Action) -> dict[str, Any]:
    cls = type(action)
    if cls.to_json is not Action.to_json:
        return action.to_json()
    # Action.to_json's dict, with the field names looked up once per class
    # (dataclasses.fields is slow, and a new plan text misses this memo every time).
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(action))
    data: dict[str, Any] = {"type": cls.__name__}
    for name in names:
        value = getattr(action, name)
        data[name] = list(value) if isinstance(value, tuple) else value
    return data


def build_view(
    state: PerilsState,
    seat: int | None,
    theme: Theme,
    *,
    sense: str,
    levels: dict[str, int],
    kind: str | None,
    difficulty: int | None,
    bonus: int,
    to_act: int | None,
    legal: list[Action],
    outcome: dict[str, Any] | None,
    hints: list[dict[str, str] | None],
    suggestions: tuple[str, ...] | None,
    prize: str,
    plan_reasons: dict[str, Any] | None = None,
    max_health: int,
    options: dict[str, Any],
    current_thing: str | None = None,
) -> PerilsView:
    """The one place a view is assembled; the rules pass in what they computed."""
    teller = seat == 1
    arch = theme.archetype(state.archetype) if state.archetype else None
    by_suit: dict[str, list[str]] = {"D": [], "C": [], "S": [], "H": []}
    for c in state.base:
        by_suit[c[-1]].append(c)
    tucked = state.tucked
    skills = tuple(
        _skill(suit, theme.skills[suit].name, tuple(by_suit[suit]), tuple(tucked[suit]),
               levels[suit])
        for suit in ("D", "C", "S", "H")
    )
    pathways = []
    descriptions = state.descriptions
    for i, code in enumerate(state.pathways):
        pathways.append(_new(PathwayView, {
            "position": i,
            "description": descriptions[i] if i < len(descriptions) else None,
            "hint": hints[i] if i < len(hints) else None,
            "face": code if teller else None}))
    plan = None
    if state.plan_made:
        plan = _new(PlanView, {
            "channel": state.plan_channel, "items": tuple(state.plan_items),
            "text": state.plan_text, "judged": state.judged,
            "approve_channel": state.approve_channel, "approve_items": tuple(state.approve_items),
            "advantage": state.advantage, "bonus": bonus, "rolls": tuple(state.rolls),
            "reasons": plan_reasons})
    items = tuple(_item(theme, c) for c in state.inventory)
    unchosen_faces: tuple[str, ...] | None = None
    if teller or state.options.reveal_unchosen or state.phase == "over":
        unchosen_faces = tuple(state.unchosen)
    # A simulation builds a view at every decision: see `_new`.
    view: PerilsView = _new(PerilsView, {
        "seat": seat,
        "role": ROLES.get(seat, "watcher"),
        "phase": state.phase,
        "stage": state.stage,
        "round": state.round,
        "sense": sense,
        "theme": theme.id,
        "theme_title": theme.title,
        "archetype": state.archetype,
        "archetype_name": arch.name if arch else None,
        "skills": skills,
        "health": state.health,
        "max_health": max_health,
        "damage": tuple(state.damage),
        "items": items,
        "draw_count": len(state.draw),
        "pathways": tuple(pathways),
        "current": state.current,
        "current_kind": kind,
        "difficulty": difficulty,
        "plan": plan,
        "big_bads_remaining": len(state.big_bads) + _aces(state.pathways, state.current),
        "big_bads_defeated": tuple(state.defeated),
        "big_bads_failed": tuple(state.failed),
        "table": {"unchosen": len(state.unchosen), "spent": len(state.spent),
                  "discarded": len(state.discarded)},
        "spent": tuple(state.spent),
        "unchosen_faces": unchosen_faces,
        "lost_pending": tuple(state.limbo),
        "levels_to_lose": state.levels_to_lose,
        "prize": prize,
        "to_act": to_act,
        "legal": tuple(map(_action_json, legal)) if seat is not None and seat == to_act
        else (),
        "outcome": outcome,
        "suggestions": suggestions if teller else None,
        "options": dict(options),
        "current_thing": current_thing,
        "odds": odds_for_state(
            phase=state.phase, current=state.current, difficulty=difficulty, levels=levels,
            inventory=state.inventory, options=state.options, plan_channel=state.plan_channel,
            plan_items=state.plan_items, judged_bonus=bonus, advantage=state.advantage,
            stage=state.stage, hero=seat == 0),
        "wounds": _wounds(state.damage, state.health, max_health),
    })
    return view


def _probe() -> None:
    """A function whose type tells whether this module runs compiled (no `__code__` then)."""


_COMPILED = not hasattr(_probe, "__code__")


def _new(cls: type[Any], values: dict[str, Any]) -> Any:
    """An instance of the frozen dataclass `cls` with exactly these field values, given in the
    order of its fields.

    Compiled, its own `__init__` is a C function, called with the values as positional
    arguments (by keyword, matching 38 names cost about 30,000 instructions a view). Pure, the
    instance is filled as that `__init__` would fill it, without a call per field. Either way
    tests/games/perils/test_perils_views_fast.py checks the result equals the constructor's
    by field name, and the key order."""
    if _COMPILED:
        return cls(*values.values())
    obj = object.__new__(cls)
    obj.__dict__.update(values)
    return obj


@lru_cache(maxsize=8192)
def _skill(suit: str, name: str, base: tuple[str, ...], tucked: tuple[str, ...], level: int
           ) -> SkillView:
    # Views are immutable, so equal skills may share one object (few distinct ones recur).
    return SkillView(suit, name, base, tucked, level)


_ITEMS: dict[tuple[str, str, str], ItemView] = {}


def _item(theme: Theme, code: str) -> ItemView:
    key = (theme.source, theme.id, code)
    view = _ITEMS.get(key)
    if view is None:
        if len(_ITEMS) > 4096:
            _ITEMS.clear()
        thing = theme.items[code]
        view = _ITEMS[key] = ItemView(code, thing.name, thing.blurb)
    return view


_ACES = frozenset(("AD", "AC", "AS", "AH"))


def _aces(pathways: list[str], current: str | None) -> int:
    """Big Bads face down in front of the Hero or being faced."""
    n = sum(1 for c in pathways if c in _ACES)
    return n + 1 if current is not None and current in _ACES else n


def _wounds(damage: list[str], health: int, max_health: int) -> tuple[str, ...]:
    """The latest damage cards, one per missing health point (never more than were taken)."""
    missing = min(len(damage), max(0, max_health - health))
    return tuple(damage[len(damage) - missing:]) if missing else ()
