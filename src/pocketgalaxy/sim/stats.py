"""Statistics for simulation reports, computed by SciPy, statsmodels and numpy.

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
    """The Wilson score interval for `successes` out of `n` (statsmodels' `proportion_confint`).

    >>> w = wilson(5, 10)
    >>> round(w.low, 4), round(w.high, 4)
    (0.2366, 0.7634)
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"wilson needs 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return Proportion(successes, 0, 0.0, 0.0, 1.0)
    from statsmodels.stats.proportion import proportion_confint  # slow import: only when used

    low, high = proportion_confint(successes, n, alpha=_alpha(z), method="wilson")
    # At 0 or n successes the bounds are exactly 0 or 1; rounding would land just inside.
    low = 0.0 if successes == 0 else max(0.0, float(low))
    high = 1.0 if successes == n else min(1.0, float(high))
    return Proportion(successes, n, successes / n, low, high)


def _alpha(z: float) -> float:
    """The two-sided error rate whose critical value is `z` (0.05 for Z95)."""
    from scipy.stats import norm

    return float(2.0 * norm.sf(z))


@dataclass(frozen=True)
class Difference:
    """An estimated difference of two proportions, p1 - p2, with its confidence interval."""

    diff: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        return {"diff": self.diff, "ci_low": self.low, "ci_high": self.high}


def newcombe_diff(x1: float, n1: int, x2: float, n2: int, z: float = Z95) -> Difference:
    """Newcombe's hybrid score interval for p1 - p2 (independent samples), as statsmodels'
    `confint_proportions_2indep(method="newcomb")` computes it.

    Newcombe (1998), method 10: 56/70 against 48/80 gives 0.2000 with the interval 0.0524 to
    0.3339.
    """
    if n1 == 0 or n2 == 0:
        d = (x1 / n1 if n1 else 0.0) - (x2 / n2 if n2 else 0.0)
        return Difference(d, -1.0, 1.0)
    from statsmodels.stats.proportion import confint_proportions_2indep

    low, high = confint_proportions_2indep(
        x1, n1, x2, n2, method="newcomb", compare="diff", alpha=_alpha(z)
    )
    return Difference(x1 / n1 - x2 / n2, max(-1.0, float(low)), min(1.0, float(high)))


def versus_constant(prop: Proportion, constant: float) -> Difference:
    """The difference between an estimated proportion and a known constant (such as 1/n).

    The constant has no sampling error, so the interval is the Wilson interval shifted.
    """
    return Difference(prop.p - constant, prop.low - constant, prop.high - constant)


def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile with linear interpolation between order statistics (Hyndman-Fan type 7,
    numpy's default).

    >>> quantile([1, 2, 3, 4], 0.5)
    2.5
    """
    if not values:
        raise ValueError("quantile of an empty sequence")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile q must be within 0..1, got {q}")
    import numpy as np

    return float(np.quantile(np.asarray(values, dtype=float), q))


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
