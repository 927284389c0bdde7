"""The computer Teller for Perils & Pathways: it describes the pathways with the view's
suggestions, judges a plan as the view's rubric advice says, returns lost items to the stack
when it chooses, and loses the largest skills' most recent levels when it must choose."""

from __future__ import annotations

from typing import Any

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.perils.common import advised, agent_options, lose_greedy
from pocketgalaxy.core.game import Action
from pocketgalaxy.games.perils.actions import (
    ChooseLostLevels,
    ChooseShuffleBack,
    DescribePathways,
    JudgePlan,
)
from pocketgalaxy.games.perils.views import PerilsView


class ComputerTeller(Agent):
    """The computer Teller: describes pathways with the view's suggestions, judges plans by the
    rubric, returns lost items to the stack when it chooses, and loses the largest skills'
    most recent levels when it must choose."""

    name = "teller"
    forced_is_first = True  # the one listed description is the suggestion it would give

    def act(self, view: Any, legal: list[Action]) -> Action:
        assert isinstance(view, PerilsView)
        opts = agent_options(self)
        if view.phase == "describe" and view.suggestions is not None:
            return DescribePathways(tuple(view.suggestions))
        if view.phase == "judge" and view.plan is not None:
            verdict = advised(view)
            return JudgePlan(verdict.approve_channel, verdict.approve_items, verdict.advantage)
        if view.phase == "shuffle_back":
            return ChooseShuffleBack(tuple(c for c in view.lost_pending
                                           if not c[:-1].isdigit()))
        if view.phase == "lose_levels":
            if opts.half_scope == "per_skill":
                return legal[-1]
            return ChooseLostLevels(lose_greedy(view, view.levels_to_lose))
        return legal[0]
