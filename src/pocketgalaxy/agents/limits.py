"""The declared range of every numeric computer-player setting, checked in one place.

`agents.registry.make_agent` calls `check_settings` before it builds a player, so the terminal,
the simulator, the RL wrappers and the web server all refuse the same specs with the same
message. The maximums keep one decision of the heaviest player to a few seconds of one core
(measured on the build machine: `ismcts:iterations=2000` about 0.5 s, `planner:samples=400`
about 0.1 s); docs/agents.md and docs/agents-perils.md list them.

`HEAVY` names the players whose thinking is search (seconds per move at their maximums): a
server runs those in worker processes, the rest in worker threads (web/thinking.py).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pocketgalaxy.core.errors import PocketGalaxyError


@dataclass(frozen=True)
class Limit:
    """The allowed range of one numeric setting (both ends included)."""

    low: float
    high: float
    integer: bool = False

    def describe(self) -> str:
        kind = "a whole number" if self.integer else "a number"
        return f"{kind} from {_num(self.low)} to {_num(self.high)}"


_UNIT = Limit(0.0, 1.0)

LIMITS: dict[str, dict[str, dict[str, Limit]]] = {
    "adventure": {
        "random": {},
        "memory": {"fade": _UNIT, "slack": _UNIT},
        "forgetful": {"fade": _UNIT, "slack": _UNIT},
        "ismcts": {
            "iterations": Limit(1, 10_000, integer=True),
            "seconds": Limit(0.001, 5.0),
            "c": Limit(0.0, 10.0),
            "depth": Limit(0, 64, integer=True),
            "widen": Limit(0.0, 64.0),
        },
    },
    "perils": {
        "random": {},
        "rulebased": {"keep_items": Limit(0, 20, integer=True)},
        "planner": {
            "samples": Limit(1, 1_000, integer=True),
            "max_items": Limit(0, 10, integer=True),
            "keep_items": Limit(0, 20, integer=True),
            "confidence": Limit(0.0, 10.0),
        },
        "teller": {"low": _UNIT, "high": _UNIT},
    },
}
"""game -> player name -> setting -> its range. Text settings (`level`, `style`, `playout`)
are checked by the players themselves against their own lists."""

HEAVY: dict[str, frozenset[str]] = {
    "adventure": frozenset({"ismcts"}),
    "perils": frozenset({"planner"}),
}


def is_heavy(game: str, name: str) -> bool:
    """True for a searching player (seconds per move at its maximum settings)."""
    return name in HEAVY.get(game, frozenset())


def limits_for(game: str, name: str) -> dict[str, Limit]:
    """The declared ranges of `name`'s numeric settings (empty when it has none)."""
    return LIMITS.get(game, {}).get(name, {})


def check_settings(game: str, name: str, settings: Mapping[str, Any]) -> None:
    """Refuse (code `agent/bad_spec`) a numeric setting outside its declared range.

    Settings the table does not know are left to the player, which refuses unknown names.
    """
    table = limits_for(game, name)
    for key in sorted(settings):
        limit = table.get(key)
        if limit is None:
            continue
        value = settings[key]
        ok = isinstance(value, int) or (not limit.integer and isinstance(value, float))
        if isinstance(value, bool) or not ok or math.isnan(float(value)):
            raise _refusal(name, key, value, limit)
        if not limit.low <= float(value) <= limit.high:
            raise _refusal(name, key, value, limit)


def _refusal(name: str, key: str, value: Any, limit: Limit) -> PocketGalaxyError:
    return PocketGalaxyError(
        # Worded like the players' own refusals ("bad settings for ..."), with the range.
        f"bad settings for {name!r}: {key}={value!r} is not allowed: {key} must be "
        f"{limit.describe()}",
        code="agent/bad_spec",
        allowed=[f"{key}={_num(limit.low)}..{_num(limit.high)}"],
    )


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
