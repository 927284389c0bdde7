"""Teller styles for Perils & Pathways: how the computer Teller judges plans (`style=`).

The computer Teller (`teller`, teller.py) describes pathways and handles the zero-health
choices; its style changes only how it answers a plan, and only through the `JudgePlan`
action, so a style applies when `teller_policy="human"` (the Teller seat judges). With the
default `teller_policy="rubric"` the rules judge by the rubric themselves and the style is
never asked. Simulations and tournaments of styles therefore set `teller_policy="human"`.

Every style starts from the rubric's verdict, which the view carries (`plan.reasons`, the same
advice a person judging is shown; games/perils/rubric.py, docs/plans.md):

- `fair`: the rubric's verdict, unchanged;
- `generous`: every declared source (a skill can always be brought to bear, an item always
  put to some use); the roll-twice from `advantage_threshold - 1` sources, whatever the plan;
- `harsh`: the rubric's sources; the roll-twice only when the rubric grants it and the plan
  has `advantage_threshold + 1` approved sources;
- `adaptive`: generous, fair or sharper by the Hero's standing, below.

Generous approves at least what fair approves, and harsh at most (a test holds them to it).

The adaptive Teller keeps the game tense. It estimates the Hero's standing from the public
state (levels, health, items, how much of the maze is left): the exact chance of surviving the
Big Bads if the showdown began now, with the items in hand plus `_KEEP_SHARE` (three quarters)
of the items the rest of the maze can be expected to offer (`standing`). Then, with `low`=0.5
and `high`=0.6 (settings):

- standing < `low` / 2: **rescue**: every declared source, and the roll-twice always;
- standing < `low`: **generous**;
- standing <= `high`: **fair**;
- standing > `high`: **tough**: the fair verdict, trimmed while the roll would still succeed
  at least half the time: first the roll-twice goes, then the items one by one, then the
  channelled skill. A plan already at even odds or worse is judged fairly. (A flat refusal
  would be no tension at all: the Big Bads need 11, and a Hero refused everything cannot
  win however well it played.)

Every answer is a legal `JudgePlan` (only declared sources, advantage only when the options
allow it): the Teller chooses nothing a Teller may not choose.
"""

from __future__ import annotations

from typing import Any

from pocketgalaxy.agents.perils.common import advised, success_chance
from pocketgalaxy.agents.perils.planner.model import matches_hint, model_for, sim_for
from pocketgalaxy.agents.perils.teller import ComputerTeller
from pocketgalaxy.core.cards import DECK_54
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import Action
from pocketgalaxy.games.perils.actions import JudgePlan
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.rubric import Judgement
from pocketgalaxy.games.perils.views import PerilsView

STYLES = ("fair", "generous", "harsh", "adaptive")
_SUITS = ("D", "C", "S")
_KEEP_SHARE = 0.75
"""Share of the items still to be offered that a Hero can expect to carry into the showdown
(some are spent or lost on the way; measured on the rule-based Hero, docs/agents-perils.md)."""
_ABOVE_ACES = tuple(c for c in DECK_54 if not c.startswith("A"))
_ITEM_SHARE = sum(1 for c in _ABOVE_ACES if matches_hint(c, {"kind": "item"})) / len(_ABOVE_ACES)
"""The share of items among the 50 cards above the aces: the chance a random pathway is one."""


def judge_fair(fair: Judgement, channel: str | None, items: tuple[str, ...],
               threshold: int | None) -> Judgement:
    """The rubric's verdict, unchanged."""
    return fair


def judge_generous(fair: Judgement, channel: str | None, items: tuple[str, ...],
                   threshold: int | None) -> Judgement:
    """Every declared source; the roll-twice one source sooner than the rubric, any plan."""
    sources = int(channel is not None) + len(items)
    advantage = threshold is not None and sources >= threshold - 1
    return Judgement(channel is not None, tuple(items), advantage)


def judge_harsh(fair: Judgement, channel: str | None, items: tuple[str, ...],
                threshold: int | None) -> Judgement:
    """The rubric's sources; the roll-twice only with one more approved source than it needs."""
    sources = int(fair.approve_channel) + len(fair.approve_items)
    advantage = fair.advantage and threshold is not None and sources >= threshold + 1
    return Judgement(fair.approve_channel, fair.approve_items, advantage)


def judge_rescue(fair: Judgement, channel: str | None, items: tuple[str, ...],
                 threshold: int | None) -> Judgement:
    """The adaptive Teller far behind: every declared source, and the roll-twice always
    (when the options allow it at all)."""
    return Judgement(channel is not None, tuple(items), threshold is not None)


_JUDGES = {"fair": judge_fair, "generous": judge_generous, "harsh": judge_harsh,
           "rescue": judge_rescue}


def roll_chance(view: PerilsView, options: PerilsOptions, verdict: Judgement) -> float:
    """The exact chance that the roll under judgement succeeds with this verdict."""
    assert view.plan is not None and view.difficulty is not None and view.current is not None
    levels = {s.suit: s.level for s in view.skills}
    bonus = len(verdict.approve_items)
    if verdict.approve_channel and view.plan.channel is not None:
        bonus += levels[view.plan.channel] if options.channel_bonus == "level" else 1
    if options.skill_adds_to_roll:
        bonus += levels.get(view.current[-1], 0)
    need = view.difficulty - bonus + (1 if options.success_comparison == ">" else 0)
    return success_chance(need, verdict.advantage)


def judge_tough(view: PerilsView, options: PerilsOptions, fair: Judgement) -> Judgement:
    """Trim the fair verdict (roll-twice, then items, then the channel) while the roll still
    succeeds at least half the time."""
    verdict = fair
    steps: list[Judgement] = []
    if fair.advantage:
        steps.append(Judgement(fair.approve_channel, fair.approve_items, False))
    items = fair.approve_items
    for n in range(len(items) - 1, -1, -1):
        steps.append(Judgement(fair.approve_channel, items[:n], False))
    if fair.approve_channel:
        steps.append(Judgement(False, (), False))
    for step in steps:
        if roll_chance(view, options, step) < 0.5:
            break
        verdict = step
    return verdict


def standing(view: PerilsView, options: PerilsOptions) -> float:
    """The Hero's standing in [0, 1]: the exact chance to survive the Big Bads from the
    current levels and health, with the items in hand plus the share `_KEEP_SHARE` of those
    the rest of the maze can be expected to offer (an item among a round's pathways at the
    deck's rate). Reads only what everyone can see."""
    levels = {s.suit: s.level for s in view.skills}
    lv = tuple(levels[s] for s in _SUITS)
    health = max(view.health, 0)
    start = options.start_health if isinstance(options.start_health, int) else view.max_health
    sim = sim_for(model_for(options, start))
    k = options.pathways_per_round
    rounds_left = view.draw_count / k if view.stage == "main" else 0.0
    offered = 1 - (1 - _ITEM_SHARE) ** k
    expected_items = len(view.items) + round(_KEEP_SHARE * rounds_left * offered)
    met = {c[-1] for c in (*view.big_bads_defeated, *view.big_bads_failed)}
    rem = sum(1 << i for i, s in enumerate(_SUITS) if s not in met)
    if view.stage == "over" or rem == 0:
        return 1.0 if health > 0 else 0.0
    return sim.showdown(lv, rem, health, expected_items, bool(view.big_bads_failed))


def adaptive_mode(value: float, low: float, high: float) -> str:
    """Which judge the adaptive Teller uses at this standing (see the module text)."""
    if value < low / 2:
        return "rescue"
    if value < low:
        return "generous"
    if value <= high:
        return "fair"
    return "tough"


class StyledTeller(ComputerTeller):
    """The computer Teller with a judging style. Settings: `style` (fair, generous, harsh,
    adaptive; default fair), and for adaptive `low` and `high` (standing thresholds)."""

    name = "teller"

    def __init__(self, seed: int = 0, style: str = "fair", low: float = 0.5,
                 high: float = 0.6, **settings: Any) -> None:
        super().__init__(seed, **settings)
        if style not in STYLES:
            raise PocketGalaxyError(f"unknown Teller style {style!r}", code="agent/bad_spec",
                                    allowed=list(STYLES))
        low, high = float(low), float(high)
        if not 0.0 <= low <= high <= 1.0:
            raise PocketGalaxyError(f"adaptive Teller needs 0 <= low <= high <= 1, got "
                                    f"low={low}, high={high}", code="agent/bad_spec")
        self.style = style
        self.low = low
        self.high = high

    def _opts(self) -> PerilsOptions:
        return self.options if isinstance(self.options, PerilsOptions) else PerilsOptions()

    def mode(self, view: PerilsView) -> str:
        """The judge this Teller uses now: its style, or for adaptive the standing's mode."""
        if self.style != "adaptive":
            return self.style
        return adaptive_mode(standing(view, self._opts()), self.low, self.high)

    def judgement(self, view: PerilsView) -> Judgement:
        """This Teller's verdict on the plan in the view."""
        assert view.plan is not None
        opts = self._opts()
        plan = view.plan
        fair = advised(view)
        mode = self.mode(view)
        if mode == "tough":
            return judge_tough(view, opts, fair)
        return _JUDGES[mode](fair, plan.channel, plan.items, opts.advantage_threshold)

    def act(self, view: Any, legal: list[Action]) -> Action:
        assert isinstance(view, PerilsView)
        if view.phase == "judge" and view.plan is not None:
            verdict = self.judgement(view)
            return JudgePlan(verdict.approve_channel, verdict.approve_items, verdict.advantage)
        return super().act(view, legal)
