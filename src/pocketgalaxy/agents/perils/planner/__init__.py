"""The planning Hero (`planner`), split by job: `model.py` (the compact model of the rules and
the exact showdown), `sampling.py` (comparing choices on paired samples), `hero.py` (the
agent: memory, positions, decisions)."""

from __future__ import annotations

from pocketgalaxy.agents.perils.planner.hero import PlannerHero
from pocketgalaxy.agents.perils.planner.model import matches_hint, model_for, sim_for
from pocketgalaxy.agents.perils.planner.sampling import pick

__all__ = ["PlannerHero", "matches_hint", "model_for", "pick", "sim_for"]
