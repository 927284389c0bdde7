"""Refusals of Perils & Pathways in the player's words.

The rules refuse with a stable reason code and a rule number (rules.py, planning.py,
penalty.py); this module turns (code, rule, action, the seat's view) into one sentence for a
person: skills, items and archetypes by their playsheet names, cards by their faces ("7♦"),
pathways counted from 1, and the rule number at the end, for example
"There is no pathway 4: choose pathway 1-3. (PP-R9)".

It reads only the view and the public playsheet, never a state, so a sentence cannot tell a seat
more than its view holds. It plays no part in deciding legality: the rules keep their codes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from pocketgalaxy.core.cards import card
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.games.perils.actions import MAX_DESCRIPTION, MAX_PLAN
from pocketgalaxy.games.perils.content import Theme, load_theme
from pocketgalaxy.games.perils.views import PerilsView

_Explainer = Callable[["_Words"], str]
_SKILL_SUITS = ("D", "C", "S")

PHASE_WORDS = {
    "archetype": ("the Hero", "choose an archetype"),
    "describe": ("the Teller", "describe the pathways"),
    "choose": ("the Hero", "choose a pathway"),
    "plan": ("the Hero", "make a plan"),
    "judge": ("the Teller", "judge the Hero's plan"),
    "roll": ("the Hero", "roll the die"),
    "lose_levels": ("", "choose the skill levels to lose"),
    "shuffle_back": ("the Teller", "choose which lost cards go back into the maze"),
}
"""Each phase: who acts in it and what they do, for sentences."""


def label(code: Any) -> str:
    """`7D` -> `7♦`; anything that is not a card code, as typed."""
    try:
        return card(str(code)).label
    except PocketGalaxyError:
        return repr(code)


def _list(words: Sequence[str], joiner: str = "or") -> str:
    items = list(words)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {joiner} {items[-1]}"


class _Words:
    """What a sentence may draw on: the action, the rule, the seat's view and its playsheet."""

    def __init__(self, rule: str, action: Any, view: PerilsView) -> None:
        self.rule = rule
        self.action = action
        self.view = view
        self.theme: Theme | None
        try:
            self.theme = load_theme(view.theme)
        except PocketGalaxyError:
            self.theme = None

    def skill(self, suit: Any) -> str:
        found = self.view.skill(suit) if isinstance(suit, str) else None
        return found.name if found is not None else repr(suit)

    def item(self, code: Any) -> str:
        known = {i.code: i.name for i in self.view.items}
        name = known.get(code)
        if name is None and self.theme is not None and isinstance(code, str):
            found = self.theme.items.get(code)
            name = found.name if found is not None else None
        return f"{name} ({label(code)})" if name else label(code)

    def cards(self, codes: Sequence[str]) -> str:
        return _list([label(c) for c in codes], "and") or "none"

    def channels(self) -> list[str]:
        """The suits the legal plans channel (what the Hero may channel now)."""
        suits = {a.get("channel") for a in self.view.legal if a.get("type") == "MakePlan"}
        return [s for s in ("D", "C", "S", "H") if s in suits]

    def archetypes(self) -> str:
        ids = [a.get("archetype") for a in self.view.legal if a.get("type") == "ChooseArchetype"]
        names = []
        for aid in ids:
            arch = self.theme.archetype(str(aid)) if self.theme is not None else None
            names.append(arch.name if arch is not None else str(aid))
        return _list(names)

    def gained(self) -> list[str]:
        return [c for s in self.view.skills if s.suit in _SKILL_SUITS for c in s.tucked]


def _game_over(w: _Words) -> str:
    return "The game is over: no more moves can be made."


def _not_your_turn(w: _Words) -> str:
    who, what = PHASE_WORDS.get(w.view.phase, ("", "play"))
    if w.view.to_act is None:
        return "The game is over: no more moves can be made."
    if not who:
        who = "the Hero" if w.view.to_act == 0 else "the Teller"
    return f"It is not your turn: {who} is to {what}."


def _wrong_phase(w: _Words) -> str:
    who, what = PHASE_WORDS.get(w.view.phase, ("", "play"))
    mine = (w.view.seat == 0 and who == "the Hero") or (w.view.seat == 1 and who == "the Teller")
    if mine or not who:
        return f"That is not the step now: now you {what}."
    return f"That is not the step now: {who} is to {what}."


def _no_such_pathway(w: _Words) -> str:
    n = len(w.view.pathways)
    asked = getattr(w.action, "position", None)
    shown = asked + 1 if isinstance(asked, int) and not isinstance(asked, bool) else repr(asked)
    choose = f"choose pathway 1-{n}" if n > 1 else "the only pathway is 1"
    return f"There is no pathway {shown}: {choose}."


def _not_a_lost_card(w: _Words) -> str:
    return (f"Choose only among the lost cards ({w.cards(w.view.lost_pending)}), each at most "
            "once.")


def _no_such_archetype(w: _Words) -> str:
    wanted = getattr(w.action, "archetype", "")
    return f"{wanted!r} is not an archetype of this playsheet: choose {w.archetypes()}."


def _archetype_conflicts_pinned(w: _Words) -> str:
    return ("This game's maze was laid with some of that archetype's cards in it: choose "
            "another archetype.")


def _wrong_count(w: _Words) -> str:
    if w.rule == "PP-R8":
        n = len(w.view.pathways)
        return f"Give exactly one description for each of the {n} pathways."
    n = w.view.levels_to_lose
    chosen = len(getattr(w.action, "cards", ()) or ())
    return (f"Lose exactly {n} gained level{'s' if n != 1 else ''}: you chose {chosen}.")


def _bad_description(w: _Words) -> str:
    texts = getattr(w.action, "descriptions", ()) or ()
    for i, text in enumerate(texts):
        if not isinstance(text, str) or not text.strip():
            return f"The description of pathway {i + 1} is empty: say what the Hero senses."
        if len(text.strip()) > MAX_DESCRIPTION:
            return (f"The description of pathway {i + 1} is {len(text.strip())} characters "
                    f"long: keep each one to {MAX_DESCRIPTION}.")
    return f"Each description must be 1 to {MAX_DESCRIPTION} characters."


def _not_a_gained_level(w: _Words) -> str:
    return (f"Choose only among the levels you gained ({w.cards(w.gained())}), each at most "
            "once.")


def _wrong_split(w: _Words) -> str:
    opts = w.view.options or {}
    rnd = math.ceil if opts.get("half_rounding") == "up" else math.floor
    parts = []
    for s in w.view.skills:
        if s.suit in _SKILL_SUITS:
            parts.append(f"{int(rnd(len(s.tucked) / 2))} from {s.name}")
    return f"Lose half of each skill's gained levels: {_list(parts, 'and')}."


def _channel_same_suit(w: _Words) -> str:
    suit = getattr(w.action, "channel", None)
    others = _list([w.skill(s) for s in w.channels()])
    return (f"This peril already tests {w.skill(suit)}: channel another skill"
            f"{' (' + others + ')' if others else ''}, or none.")


def _channel_not_allowed(w: _Words) -> str:
    suit = getattr(w.action, "channel", None)
    others = _list([w.skill(s) for s in w.channels()])
    if suit == "H":
        what = "Health (the heart) is not a skill you can channel in this game"
    else:
        what = f"{w.skill(suit)} cannot be channelled here"
    return f"{what}: channel {others + ', or ' if others else ''}none."


def _duplicate_item(w: _Words) -> str:
    items = list(getattr(w.action, "items", ()) or ())
    twice = next((c for c in items if items.count(c) > 1), None)
    return f"Each item can be used once: {w.item(twice)} is listed twice."


def _item_not_held(w: _Words) -> str:
    held = {i.code for i in w.view.items}
    missing = next((c for c in getattr(w.action, "items", ()) if c not in held), None)
    have = _list([w.item(i.code) for i in w.view.items], "and") or "nothing"
    return f"You do not carry {w.item(missing)}: your items are {have}."


def _item_wrong_suit(w: _Words) -> str:
    peril = w.view.current
    suit = card(peril).suit if peril else None
    tested = w.skill(suit.value) if suit is not None else "the peril's skill"
    return (f"In this game an item must match the skill tested ({tested}) or the skill you "
            "channel (or be a joker): leave out the others.")


def _plan_too_long(w: _Words) -> str:
    return f"A plan can be at most {MAX_PLAN} characters: say it more shortly."


def _nothing_to_approve(w: _Words) -> str:
    return "The plan channels no skill, so there is no skill to approve."


def _item_not_in_plan(w: _Words) -> str:
    plan = w.view.plan
    committed = [w.item(c) for c in plan.items] if plan is not None else []
    return (f"Approve only items the Hero committed to the plan: "
            f"{_list(committed, 'and') or 'none were'}.")


def _advantage_disabled(w: _Words) -> str:
    return "Advantage is switched off in this game: judge the plan without it."


EXPLAINERS: dict[str, _Explainer] = {
    "game_over": _game_over,
    "not_your_turn": _not_your_turn,
    "wrong_phase": _wrong_phase,
    "no_such_pathway": _no_such_pathway,
    "not_a_lost_card": _not_a_lost_card,
    "no_such_archetype": _no_such_archetype,
    "archetype_conflicts_pinned": _archetype_conflicts_pinned,
    "wrong_count": _wrong_count,
    "bad_description": _bad_description,
    "not_a_gained_level": _not_a_gained_level,
    "wrong_split": _wrong_split,
    "channel_same_suit": _channel_same_suit,
    "channel_not_allowed": _channel_not_allowed,
    "duplicate_item": _duplicate_item,
    "item_not_held": _item_not_held,
    "item_wrong_suit": _item_wrong_suit,
    "plan_too_long": _plan_too_long,
    "nothing_to_approve": _nothing_to_approve,
    "item_not_in_plan": _item_not_in_plan,
    "advantage_disabled": _advantage_disabled,
}
"""One sentence maker per refusal code the rules can return (a test holds them equal)."""


def explain(reason: str, rule: str, action: Any, view: PerilsView,
            names: Sequence[str] | None = None) -> str:
    """The refusal `reason` (a code like "no_such_pathway", with or without "action/") of
    `action` under `rule`, for the seat of `view`, as one sentence ending with the rule number.
    `names` is accepted for the same call as Adventure Cards; the seats are the Hero and the
    Teller."""
    del names
    code = reason.removeprefix("action/")
    maker = EXPLAINERS.get(code)
    text = maker(_Words(rule, action, view)) if maker is not None else (
        "That move is not allowed now.")
    text = text[:1].upper() + text[1:]
    return f"{text} ({rule})" if rule and rule != "game" else text
