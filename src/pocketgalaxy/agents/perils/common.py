"""What the Perils & Pathways computer players share: the d6 odds, their options, reading a
description's hint, and losing levels greedily."""

from __future__ import annotations

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.games.perils import narration
from pocketgalaxy.games.perils.content import Theme
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.rubric import Judgement
from pocketgalaxy.games.perils.views import PerilsView

SKILLS = ("D", "C", "S")


def success_chance(needed: int, advantage: bool) -> float:
    """P(best die >= needed) for one d6, or two d6 keeping the higher."""
    if needed <= 1:
        return 1.0
    if needed > 6:
        return 0.0
    miss = (needed - 1) / 6
    return 1 - miss * miss if advantage else 1 - miss


def agent_options(agent: Agent) -> PerilsOptions:
    opts = agent.options
    return opts if isinstance(opts, PerilsOptions) else PerilsOptions()


def lose_greedy(view: PerilsView, n: int) -> tuple[str, ...]:
    """Lose levels from the skill with the largest level first, most recent card first (PP-A9)."""
    levels = {s.suit: s.level for s in view.skills}
    tucked = {s.suit: list(s.tucked) for s in view.skills}
    out: list[str] = []
    for _ in range(n):
        suit = max((s for s in SKILLS if tucked[s]), key=lambda s: (levels[s], s))
        out.append(tucked[suit].pop())
        levels[suit] -= 1
    return tuple(out)


def read_hint(text: str, theme: Theme) -> dict[str, str]:
    """Recognise the theme's own things and frames in a description (what a reader of the
    playsheet would notice): the hint they carry, or {} when nothing is recognised."""
    return narration.read_hint(text, theme)


def advised(view: PerilsView) -> Judgement:
    """The rubric's verdict on the plan in the view (its `plan.reasons`): what the rules would
    decide under teller_policy="rubric", shown to any Teller who judges."""
    plan = view.plan
    assert plan is not None
    reasons = plan.reasons or {}
    sources = reasons.get("sources") or []
    channel = any(s["kind"] == "skill" and s["reason"] == "used" for s in sources)
    items = tuple(s["code"] for s in sources if s["kind"] == "item" and s["reason"] == "used")
    needs = reasons.get("advantage") or {}
    advantage = bool(needs.get("granted")) and needs.get("threshold") is not None
    return Judgement(channel, items, advantage)
