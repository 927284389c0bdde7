"""Comparing the planner's choices on paired samples: when to stop sampling, which to pick."""

from __future__ import annotations

import math

_BATCH = 8
_SETTLED_Z = 3.0


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean and standard error of the paired differences a - b."""
    n = len(a)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _settled(values: list[list[float]], done: int, budget: int) -> bool:
    """Stop sampling early (after whole batches) once the leader is clear of every other
    choice by `_SETTLED_Z` standard errors, or every choice has scored the same so far."""
    if done >= budget or done % _BATCH or done < _BATCH:
        return False
    means = [sum(v) / done for v in values]
    lead = max(range(len(values)), key=lambda i: means[i])
    for i in range(len(values)):
        if i != lead:
            mean, se = _paired(values[lead], values[i])
            if mean - _SETTLED_Z * se <= 0 and not (mean == 0 and se == 0):
                return False
    return True


def pick(values: list[list[float]], default: int, confidence: float) -> int:
    """The choice with the best mean, unless it beats the default (the rollout policy's own
    choice) by less than `confidence` standard errors of the paired differences: then the
    default. This keeps sampling noise from overturning sensible habits."""
    n = len(values[0])
    means = [sum(v) / n for v in values]
    best = max(range(len(values)), key=lambda i: (means[i], -i))
    if best == default:
        return best
    mean, se = _paired(values[best], values[default])
    return best if mean > confidence * se else default
