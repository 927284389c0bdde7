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
processes, the web table's thinking copies). `build_view` calls each constructor with its
values in field order; what the views of one theme and options share (names, the options as
JSON, item views, the prize, the last skills) is worked out once (`_Fixed`). A view keeps the
acting seat's legal actions (`legal_actions`) and makes their JSON only when read (`legal`,
`to_json`): the computer players read the actions. The odds are asked for only while a peril
waits for its roll.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, Final

from pocketgalaxy.core.game import Action
from pocketgalaxy.core.options import options_to_json
from pocketgalaxy.games.perils.content import Theme
from pocketgalaxy.games.perils.narration import prize_of
from pocketgalaxy.games.perils.odds import PerilOdds, odds_for_state
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.state import PerilsState

# Each view class writes its own `__init__` (the dataclass keeps its fields, repr, equality and
# frozen guard): compiled, it stores each field in C, where the dataclass-made `__init__` stays
# interpreted code (docs/speed.md). Parameters are the fields, in order.

ROLES: Final[dict[int | None, str]] = {0: "hero", 1: "teller", None: "watcher"}


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
    legal_actions: tuple[Action, ...]
    """The acting seat's legal actions (empty for every other seat); `legal` has them as JSON."""
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
        legal_actions: tuple[Action, ...],
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
        object.__setattr__(self, "legal_actions", legal_actions)
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
            "legal": [dict(_action_json(a)) for a in self.legal_actions],
            "outcome": dict(self.outcome) if self.outcome else None,
            "suggestions": list(self.suggestions) if self.suggestions is not None else None,
            "options": dict(self.options),
            "odds": self.odds.to_json() if self.odds else None,
            "wounds": list(self.wounds),
        }

    @property
    def legal(self) -> tuple[dict[str, Any], ...]:
        """The legal actions as JSON (`Action.to_json`'s dicts, shared: copy before changing
        one), made when read: a simulation's agents read the actions, not their JSON."""
        return tuple(map(_action_json, self.legal_actions))

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
    levels_of: Callable[[PerilsState], dict[str, int]],
    kind: str | None,
    difficulty: int | None,
    bonus: int,
    to_act: int | None,
    legal: list[Action],
    outcome: dict[str, Any] | None,
    hints: list[dict[str, str] | None] | None,
    suggestions: tuple[str, ...] | None,
    plan_reasons: dict[str, Any] | None = None,
    max_health: int,
    current_thing: str | None = None,
) -> PerilsView:
    """The one place a view is assembled; the rules pass in what they computed. `levels_of` is
    the rules' `levels`, asked only when the skill cards changed since the last view."""
    opts = state.options
    fixed = _fixed_for(theme, opts)
    teller = seat == 1
    skills, levels = fixed.skills(state, levels_of)
    descriptions = state.descriptions
    pathways = tuple([
        PathwayView(i, descriptions[i] if i < len(descriptions) else None,
                    hints[i] if hints is not None and i < len(hints) else None,
                    code if teller else None)
        for i, code in enumerate(state.pathways)])
    plan = None
    if state.plan_made:
        plan = PlanView(state.plan_channel, tuple(state.plan_items), state.plan_text, state.judged,
                        state.approve_channel, tuple(state.approve_items), state.advantage, bonus,
                        tuple(state.rolls), plan_reasons)
    phase = state.phase
    unchosen_faces: tuple[str, ...] | None = None
    if teller or fixed.reveal_unchosen or phase == "over":
        unchosen_faces = tuple(state.unchosen)
    current = state.current
    odds = None
    if current is not None and difficulty is not None and phase in _ODDS_PHASES:
        odds = odds_for_state(
            phase=phase, current=current, difficulty=difficulty, levels=levels,
            inventory=state.inventory, options=opts, plan_channel=state.plan_channel,
            plan_items=state.plan_items, judged_bonus=bonus, advantage=state.advantage,
            stage=state.stage, hero=seat == 0)
    return PerilsView(
        seat,
        ROLES.get(seat, "watcher"),
        phase,
        state.stage,
        state.round,
        sense,
        fixed.theme_id,
        fixed.theme_title,
        state.archetype,
        fixed.archetype_name(state.archetype),
        skills,
        state.health,
        max_health,
        tuple(state.damage),
        fixed.items(state.inventory),
        len(state.draw),
        pathways,
        current,
        kind,
        difficulty,
        plan,
        len(state.big_bads) + _aces(state.pathways, current),
        tuple(state.defeated),
        tuple(state.failed),
        {"unchosen": len(state.unchosen), "spent": len(state.spent),
         "discarded": len(state.discarded)},
        tuple(state.spent),
        unchosen_faces,
        tuple(state.limbo),
        state.levels_to_lose,
        fixed.prize(state),
        to_act,
        tuple(legal) if seat is not None and seat == to_act else (),
        outcome,
        suggestions if teller else None,
        dict(fixed.options_json),
        current_thing,
        odds,
        _wounds(state.damage, state.health, max_health),
    )


_ODDS_PHASES: Final = frozenset(("plan", "judge", "roll"))
_SUITS: Final = ("D", "C", "S", "H")


class _Fixed:
    """What the views of one theme under one set of options share, worked out once: names,
    the options as JSON, the item views, the prize of the last game and the skills of the last
    skill cards seen. Entries that change are tuples replaced
    whole, so a reader on another thread sees an old entry or a new one, never half of each."""

    def __init__(self, theme: Theme, options: PerilsOptions) -> None:
        self.theme = theme
        self.options = options
        self.theme_id = theme.id
        self.theme_title = theme.title
        self.skill_names = tuple(theme.skills[suit].name for suit in _SUITS)
        self.options_json = options_to_json(options)
        self.reveal_unchosen = options.reveal_unchosen
        self.archetype_names: dict[str, str | None] = {}
        self.item_views: dict[str, ItemView] = {}
        self.last_prize: tuple[int, str] | None = None
        # (base, tucked, skills, levels): the last skill cards and what the view makes of them.
        self.last_skills: tuple[list[str], dict[str, list[str]], tuple[SkillView, ...],
                                dict[str, int]] | None = None

    def archetype_name(self, archetype_id: str | None) -> str | None:
        if not archetype_id:
            return None
        if archetype_id not in self.archetype_names:
            arch = self.theme.archetype(archetype_id)
            self.archetype_names[archetype_id] = arch.name if arch else None
        return self.archetype_names[archetype_id]

    def items(self, inventory: list[str]) -> tuple[ItemView, ...]:
        views = self.item_views
        out = []
        for code in inventory:
            view = views.get(code)
            if view is None:
                thing = self.theme.items[code]
                view = views[code] = ItemView(code, thing.name, thing.blurb)
            out.append(view)
        return tuple(out)

    def prize(self, state: PerilsState) -> str:
        last = self.last_prize
        if last is not None and last[0] == state.narration_seed:
            return last[1]
        text = prize_of(state, self.theme)
        self.last_prize = (state.narration_seed, text)
        return text

    def skills(self, state: PerilsState, levels_of: Callable[[PerilsState], dict[str, int]]
               ) -> tuple[tuple[SkillView, ...], dict[str, int]]:
        """The skill views and levels (shared: views are immutable, and no reader changes the
        levels), remade only when the base or tucked cards differ from the last view's."""
        last = self.last_skills
        if last is not None and last[0] == state.base and last[1] == state.tucked:
            return last[2], last[3]
        levels = levels_of(state)
        by_suit: dict[str, list[str]] = {"D": [], "C": [], "S": [], "H": []}
        for code in state.base:
            by_suit[code[-1]].append(code)
        tucked = state.tucked
        names = self.skill_names
        skills = tuple([SkillView(suit, names[i], tuple(by_suit[suit]), tuple(tucked[suit]),
                                  levels[suit]) for i, suit in enumerate(_SUITS)])
        self.last_skills = (list(state.base), {s: list(c) for s, c in tucked.items()}, skills,
                            levels)
        return skills, levels


# The last theme and options' shared values (a simulation plays one set all along).
_FIXED: _Fixed | None = None


def _fixed_for(theme: Theme, options: PerilsOptions) -> _Fixed:
    global _FIXED
    fixed = _FIXED
    if fixed is None or fixed.theme is not theme or fixed.options is not options:
        fixed = _FIXED = _Fixed(theme, options)
    return fixed


_ACES: Final = frozenset(("AD", "AC", "AS", "AH"))


def _aces(pathways: list[str], current: str | None) -> int:
    """Big Bads face down in front of the Hero or being faced."""
    n = 1 if current is not None and current in _ACES else 0
    for c in pathways:
        if c in _ACES:
            n += 1
    return n


def _wounds(damage: list[str], health: int, max_health: int) -> tuple[str, ...]:
    """The latest damage cards, one per missing health point (never more than were taken)."""
    missing = min(len(damage), max(0, max_health - health))
    return tuple(damage[len(damage) - missing:]) if missing else ()
