"""Computer players for Perils & Pathways, one module per job:

- `hero.py`: the rule-based Hero (`rulebased`); `worth.py`: what a pathway is worth to it;
- `planner/`: the planning Hero (`planner`): `model.py` (the compact model and exact
  showdown), `sampling.py` (paired comparisons), `hero.py` (the agent);
- `plans.py`: the plan writer both Heroes use;
- `teller.py`: the computer Teller; `styles.py`: its judging styles (`teller:style=...`);
- `common.py`: what they share (odds, hint reading, the rubric's advice in a view).

Imports point one way (common <- plans, worth <- hero <- planner; common <- teller <- styles), and
this module only gathers the names for agents/registry.py.
"""

from __future__ import annotations

from collections.abc import Callable

from pocketgalaxy.agents.base import Agent, RandomAgent
from pocketgalaxy.agents.perils.hero import RuleBasedHero
from pocketgalaxy.agents.perils.planner import PlannerHero
from pocketgalaxy.agents.perils.styles import StyledTeller
from pocketgalaxy.agents.perils.teller import ComputerTeller


def agents_for_seat(seat: int, players: int) -> dict[str, Callable[..., Agent]]:
    """Computer players by name: seat 0 (Hero) "planner", "rulebased", "random"; seat 1
    (Teller) "teller" (`StyledTeller`; its default style, fair, judges as `ComputerTeller`
    does) and "random"."""
    if seat == 0:
        return {"planner": PlannerHero, "rulebased": RuleBasedHero, "random": RandomAgent}
    if seat == 1:
        return {"teller": StyledTeller, "random": RandomAgent}
    return {}


__all__ = ["ComputerTeller", "PlannerHero", "RuleBasedHero", "StyledTeller", "agents_for_seat"]
