"""Statistics with known values: published examples and hand-worked cases."""

from __future__ import annotations

import math

import pytest

from pocketgalaxy.sim.stats import newcombe_diff, quantile, summary, versus_constant, wilson


def test_wilson_hand_worked_five_of_ten() -> None:
    # p = 0.5, z^2/n = 0.38415: centre 0.5, half-width 1.96*sqrt(0.025 + 0.0096037)/1.38415.
    w = wilson(5, 10)
    assert w.p == 0.5
    assert w.low == pytest.approx(0.2366, abs=1e-4)
    assert w.high == pytest.approx(0.7634, abs=1e-4)


@pytest.mark.parametrize(
    ("x", "n", "low", "high"),
    [
        (81, 263, 0.2553, 0.3662),  # Newcombe (1998), table I
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_published_values(x: int, n: int, low: float, high: float) -> None:
    w = wilson(x, n)
    assert w.low == pytest.approx(low, abs=1e-4)
    assert w.high == pytest.approx(high, abs=1e-4)


def test_wilson_accepts_shared_wins_and_edges() -> None:
    half = wilson(2.5, 10)
    assert half.p == 0.25 and 0 < half.low < 0.25 < half.high < 1
    assert wilson(10, 10).high == 1.0
    empty = wilson(0, 0)
    assert (empty.p, empty.low, empty.high) == (0.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="0 <= successes <= n"):
        wilson(11, 10)


def test_newcombe_difference_published_example() -> None:
    d = newcombe_diff(56, 70, 48, 80)  # Newcombe (1998), method 10
    assert d.diff == pytest.approx(0.2)
    assert d.low == pytest.approx(0.0524, abs=1e-4)
    assert d.high == pytest.approx(0.3339, abs=1e-4)


def test_versus_constant_shifts_the_interval() -> None:
    w = wilson(30, 100)
    d = versus_constant(w, 0.25)
    assert d.diff == pytest.approx(0.05)
    assert (d.low, d.high) == pytest.approx((w.low - 0.25, w.high - 0.25))


def test_quantile_and_summary_hand_worked() -> None:
    values = [2, 4, 4, 4, 5, 5, 7, 9]
    assert quantile(values, 0.5) == 4.5
    assert quantile(values, 0.9) == pytest.approx(7.6)  # position 6.3: 7 + 0.3 * (9 - 7)
    assert quantile([1, 2, 3, 4], 0.0) == 1 and quantile([1, 2, 3, 4], 1.0) == 4
    s = summary(values)
    assert s.n == 8 and s.mean == 5.0
    assert s.sd == pytest.approx(math.sqrt(32 / 7))
    assert (s.median, s.min, s.max) == (4.5, 2.0, 9.0)
    assert summary([]).n == 0
    assert summary([3]).sd == 0.0
    with pytest.raises(ValueError):
        quantile([], 0.5)
