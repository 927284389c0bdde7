"""Names of the games and computer players, for every shell (terminal, web, simulator, RL)."""

from __future__ import annotations

from typing import Any

from pocketgalaxy.core.game import GameRules


def games() -> dict[str, GameRules[Any, Any]]:
    """Registered games by short stable name."""
    from pocketgalaxy.games.adventure.rules import AdventureRules
    from pocketgalaxy.games.perils.rules import PerilsRules

    return {"perils": PerilsRules(), "adventure": AdventureRules()}


def get_game(name: str) -> GameRules[Any, Any]:
    from pocketgalaxy.core.errors import PocketGalaxyError

    table = games()
    if name not in table:
        raise PocketGalaxyError(
            f"unknown game {name!r}", code="game/unknown", allowed=sorted(table)
        )
    return table[name]
