"""Small, dependency-free statistics for simulation reports.

- `wilson(successes, n)`: the Wilson score interval for a proportion (works with fractional
  successes, which shared wins produce).
- `newcombe_diff(x1, n1, x2, n2)`: a confidence interval for p1 - p2 (Newcombe's method 10,
  built from the two Wilson intervals).
- `summary(values)`: count, mean, sample standard deviation, median, p90, min and max.

Every interval is two-sided at 95% unless `z` is given.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The 97.5% point of the standard normal distribution (a two-sided 95% interval)."""


@dataclass(frozen=True)
class Proportion:
    """An estimated proportion with its confidence interval."""

    successes: float
    n: int
    p: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        return {
            "successes": self.successes,
            "n": self.n,
            "rate": self.p,
            "ci_low": self.low,
            "ci_high": self.high,
        }


def wilson(successes: float, n: int, z: float = Z95) -> Proportion:
    """The Wilson score interval for `successes` out of `n`.

    >>> w = wilson(5, 10)
    >>> round(w.low, 4), round(w.high, 4)
    (0.2366, 0.7634)
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"wilson needs 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return Proportion(successes, 0, 0.0, 0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1.0 - p) / n + z2 / (4.0 * n * n), 0.0)) / denom
    # At 0 or n successes the bounds are exactly 0 or 1; rounding would land just inside.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Proportion(successes, n, p, low, high)


@dataclass(frozen=True)
class Difference:
    """An estimated difference of two proportions, p1 - p2, with its confidence interval."""

    diff: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        return {"diff": self.diff, "ci_low": self.low, "ci_high": self.high}


def newcombe_diff(x1: float, n1: int, x2: float, n2: int, z: float = Z95) -> Difference:
    """Newcombe's hybrid score interval for p1 - p2 (independent samples).

    Newcombe (1998), method 10: combine the two Wilson intervals. His worked example,
    56/70 against 48/80, gives 0.2000 with the interval 0.0524 to 0.3339.
    """
    a = wilson(x1, n1, z)
    b = wilson(x2, n2, z)
    d = a.p - b.p
    low = d - math.sqrt((a.p - a.low) ** 2 + (b.high - b.p) ** 2)
    high = d + math.sqrt((a.high - a.p) ** 2 + (b.p - b.low) ** 2)
    return Difference(d, max(-1.0, low), min(1.0, high))


def versus_constant(prop: Proportion, constant: float) -> Difference:
    """The difference between an estimated proportion and a known constant (such as 1/n).

    The constant has no sampling error, so the interval is the Wilson interval shifted.
    """
    return Difference(prop.p - constant, prop.low - constant, prop.high - constant)


def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile with linear interpolation between order statistics (Hyndman-Fan type 7,
    the default of numpy and R).

    >>> quantile([1, 2, 3, 4], 0.5)
    2.5
    """
    if not values:
        raise ValueError("quantile of an empty sequence")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile q must be within 0..1, got {q}")
    xs = sorted(values)
    pos = (len(xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


@dataclass(frozen=True)
class Summary:
    """Descriptive statistics of a sample."""

    n: int
    mean: float
    sd: float
    median: float
    p90: float
    min: float
    max: float

    def to_json(self) -> dict[str, float]:
        return {
            "n": self.n,
            "mean": self.mean,
            "sd": self.sd,
            "median": self.median,
            "p90": self.p90,
            "min": self.min,
            "max": self.max,
        }


def summary(values: Sequence[float]) -> Summary:
    """Mean, sample standard deviation (n - 1), median, 90th percentile, min and max.

    An empty sample gives zeros (n = 0) rather than an error, so empty reports still print.
    """
    n = len(values)
    if n == 0:
        return Summary(0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return Summary(
        n=n,
        mean=mean,
        sd=math.sqrt(var),
        median=quantile(values, 0.5),
        p90=quantile(values, 0.9),
        min=float(min(values)),
        max=float(max(values)),
    )
