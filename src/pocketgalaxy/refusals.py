"""Refusals in the player's words, for every shell: the one entry point to the per-game
explainers (games/perils/explain.py, games/adventure/explain.py).

A shell that catches an `IllegalActionError` asks `explain_refusal(game, error, view, names)`
for the sentence to show; the error keeps its code and rule for machines and for the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pocketgalaxy.core.errors import IllegalActionError, PocketGalaxyError


def explain_refusal(game: str, error: PocketGalaxyError, view: Any,
                    names: Sequence[str] | None = None) -> str | None:
    """The sentence for a refused action of `game` seen by the seat of `view` (None when the
    error is not a refusal by the rules: its own message is then the one to show)."""
    if not isinstance(error, IllegalActionError):
        return None
    if game == "perils":
        from pocketgalaxy.games.perils.explain import explain as perils

        return perils(error.reason, error.rule, error.action, view, names)
    if game == "adventure":
        from pocketgalaxy.games.adventure.explain import explain as adventure

        return adventure(error.reason, error.rule, error.action, view, names)
    return None
