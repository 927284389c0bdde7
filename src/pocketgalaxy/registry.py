"""Names of the games and computer players, for every shell (terminal, web, simulator, RL).

This is also where the rules get what the pure core may not import: Perils & Pathways judges
plans with the Snowball English stemmer (the `snowballstemmer` package), given to its rules
here. Every way of getting the rules (`get_game`, `perils_rules`, and so every Session, replay,
simulation and RL environment) shares one `PlanJudge`, so a record replays identically.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pocketgalaxy.core.game import GameRules

if TYPE_CHECKING:
    from pocketgalaxy.games.perils.rubric import PlanJudge
    from pocketgalaxy.games.perils.rules import PerilsRules


@lru_cache(maxsize=1)
def plan_judge() -> PlanJudge:
    """The one plan judge: the rubric with the Snowball English stemmer."""
    from pocketgalaxy.games.perils.rubric import PlanJudge

    return PlanJudge(snowball_stem, name="snowball-english")


def snowball_stem(word: str) -> str:
    """The Snowball English stem of a word: a module-level function, so the plan judge and the
    rules holding it pickle (to worker processes) by reference."""
    return str(_snowball().stemWord(word))


@lru_cache(maxsize=1)
def _snowball() -> Any:
    import snowballstemmer  # type: ignore[import-untyped]

    return snowballstemmer.stemmer("english")


def perils_rules(narrate: bool = True) -> PerilsRules:
    """The Perils & Pathways rules with the shared plan judge. `narrate=False`: the quiet
    rules a simulation uses (no description sentences; the same decisions and results)."""
    return _perils_rules(bool(narrate))


@lru_cache(maxsize=2)
def _perils_rules(narrate: bool) -> PerilsRules:
    # One object per flag however it is asked for (lru_cache keys differ by call shape).
    from pocketgalaxy.games.perils.rules import PerilsRules

    return PerilsRules(judge=plan_judge(), narrate=narrate)


def games() -> dict[str, GameRules[Any, Any]]:
    """Registered games by short stable name."""
    from pocketgalaxy.games.adventure.rules import AdventureRules

    return {"perils": perils_rules(), "adventure": AdventureRules()}


def get_game(name: str) -> GameRules[Any, Any]:
    from pocketgalaxy.core.errors import PocketGalaxyError

    table = games()
    if name not in table:
        raise PocketGalaxyError(
            f"unknown game {name!r}", code="game/unknown", allowed=sorted(table)
        )
    return table[name]
