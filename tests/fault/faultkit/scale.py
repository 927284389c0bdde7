"""How big the fault suite runs: 1 by default, 10 for the long run.

`POCKETGALAXY_FAULT_SCALE=10` in the environment, or `pytest --fault-scale 10` (conftest.py sets
the variable from the option, so there is one source). Everything that counts games, kills or
messages multiplies by it.
"""

from __future__ import annotations

import os

ENV = "POCKETGALAXY_FAULT_SCALE"
MAX_SCALE = 100


def fault_scale() -> int:
    """The multiplier, 1..100; a bad value is an error naming the variable and the range."""
    raw = os.environ.get(ENV, "").strip() or "1"
    try:
        value = int(raw)
    except ValueError as exc:
        raise ValueError(f"{ENV}={raw!r} is not a whole number (allowed: 1..{MAX_SCALE})") from exc
    if not 1 <= value <= MAX_SCALE:
        raise ValueError(f"{ENV}={value} is outside 1..{MAX_SCALE}")
    return value
