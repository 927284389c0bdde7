"""The planner's memo tables (pathway scores, archetype values) give what a fresh computation
gives, whatever the process computed before (else `--workers N` and a game alone would differ)."""

from __future__ import annotations

from pocketgalaxy.agents.perils.planner.hero import _ARCHETYPE_VALUES, PlannerHero
from pocketgalaxy.agents.perils.planner.model import PERIL as _PERIL
from pocketgalaxy.agents.perils.planner.model import Sim as _Sim
from pocketgalaxy.agents.perils.planner.model import model_for
from pocketgalaxy.games.perils.content import load_theme
from pocketgalaxy.games.perils.options import PerilsOptions


def test_a_score_does_not_depend_on_the_scores_before_it() -> None:
    differ = []
    for keep in (0, 5, 9, 12):
        model = model_for(PerilsOptions(), 5, keep=keep)
        for d in range(2, 11):
            for lv in ([0, 0, 0], [2, 2, 2], [3, 3, 3]):
                for h in (1, 3):
                    for items in range(8, 16):
                        peril = (_PERIL, 0, d)
                        fresh = _Sim(model).score(peril, lv, h, items + 1)
                        used = _Sim(model)
                        used.score(peril, lv, h, items)
                        if used.score(peril, lv, h, items + 1) != fresh:
                            differ.append((keep, d, lv, h, items))
    assert differ == []


def test_an_archetype_value_does_not_depend_on_the_options_valued_before() -> None:
    """Two rule sets that differ only in the starting health (with a fixed reset health, so
    the compact model is the same) must not share a memoised archetype value."""
    hero = PlannerHero(1)
    low = PerilsOptions(start_health=2, reset_health=3)
    high = PerilsOptions(start_health=6, reset_health=3)
    theme = load_theme(low.theme, low.archetype_schema)
    arch = theme.archetypes[0]
    _ARCHETYPE_VALUES.clear()
    fresh = hero._archetype_value(high, theme, arch.id, arch.cards)
    _ARCHETYPE_VALUES.clear()
    hero._archetype_value(low, theme, arch.id, arch.cards)
    assert hero._archetype_value(high, theme, arch.id, arch.cards) == fresh
