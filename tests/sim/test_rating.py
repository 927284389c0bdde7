"""Elo-scale Bradley-Terry ratings with bootstrap intervals (sim/rating.py)."""

from __future__ import annotations

import math

import pytest

from pocketgalaxy.core.rng import Rng
from pocketgalaxy.sim.rating import fit_elo, pairwise, rate


def _games(gap: float, n: int, seed: int) -> list[list[tuple[str, str, float]]]:
    """n games of a against b where a is `gap` Elo stronger (no draws)."""
    p = 1.0 / (1.0 + 10 ** (-gap / 400.0))
    rng = Rng(seed)
    return [[("a", "b", 1.0 if rng.below(10**6) < p * 10**6 else 0.0)] for _ in range(n)]


def test_pairwise_places_give_wins_draws_and_skip_a_bot_against_itself() -> None:
    assert pairwise(["x", "y", "x"], [3.0, 1.0, 1.0]) == [("x", "y", 1.0), ("y", "x", 0.5)]
    assert pairwise(["a", "b"], [0.0, 2.0]) == [("a", "b", 0.0)]


def test_the_fit_recovers_a_known_gap() -> None:
    fitted = fit_elo(["a", "b"], [r for g in _games(200.0, 4000, 1) for r in g], prior=0.0)
    assert fitted["a"] - fitted["b"] == pytest.approx(200.0, abs=30.0)
    assert (fitted["a"] + fitted["b"]) / 2 == pytest.approx(1500.0)


def test_equal_records_give_equal_ratings_and_a_perfect_record_stays_finite() -> None:
    even = fit_elo(["a", "b"], [("a", "b", 1.0), ("a", "b", 0.0)])
    assert even["a"] == pytest.approx(even["b"])
    perfect = fit_elo(["a", "b"], [("a", "b", 1.0)] * 20)
    assert math.isfinite(perfect["a"]) and perfect["a"] > perfect["b"]


def test_three_players_are_ordered_by_strength() -> None:
    rng = Rng(5)
    strength = {"x": 300.0, "y": 100.0, "z": 0.0}
    results = []
    for _ in range(3000):
        a, b = rng.sample(["x", "y", "z"], 2)
        p = 1.0 / (1.0 + 10 ** ((strength[b] - strength[a]) / 400.0))
        results.append((a, b, 1.0 if rng.below(1000) < p * 1000 else 0.0))
    fitted = fit_elo(["x", "y", "z"], results, prior=0.0)
    assert fitted["x"] > fitted["y"] > fitted["z"]
    assert fitted["x"] - fitted["z"] == pytest.approx(300.0, abs=45.0)


def test_bootstrap_intervals_cover_the_estimate_shrink_with_data_and_are_seeded() -> None:
    small = {r.name: r for r in rate(["a", "b"], _games(100.0, 100, 2), bootstrap=100, seed=3)}
    large = {r.name: r for r in rate(["a", "b"], _games(100.0, 1600, 2), bootstrap=100, seed=3)}
    for r in (small["a"], large["a"]):
        assert r.low <= r.elo <= r.high and r.sd > 0
    assert large["a"].sd < small["a"].sd
    again = {r.name: r for r in rate(["a", "b"], _games(100.0, 100, 2), bootstrap=100, seed=3)}
    assert again["a"] == small["a"]
    assert small["a"].pairings == 100
