"""Ratings from game results: a Bradley-Terry (Elo-scale) fit with bootstrap uncertainty.

Every game is broken into pairwise results between the players in it (`pairwise`): a player
placed above another scored 1 against it, level places scored 1/2 each. `fit_elo` finds the
Bradley-Terry strengths that make those results most likely (the minorize-maximize iteration
of Hunter, 2004), on the Elo scale: a 400-point gap means 10 to 1 odds, and the ratings are
centred on 1500. A small prior (`prior` virtual drawn games between every pair) keeps a
perfect record finite.

`rate` adds the uncertainty: it refits on games drawn with replacement (`bootstrap` times,
seeded, whole games at a time because the pairs of one game are not independent) and reports
each rating's standard deviation and 95% percentile interval.

>>> games = [[("a", "b", 1.0)], [("a", "b", 1.0)], [("a", "b", 0.0)]]
>>> r = {x.name: x for x in rate(["a", "b"], games, bootstrap=50, seed=1)}
>>> r["a"].elo > 1500 > r["b"].elo
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pocketgalaxy.core.rng import Rng
from pocketgalaxy.sim.stats import quantile

PairResult = tuple[str, str, float]
"""(a, b, score of a against b): 1 a placed above b, 0.5 level, 0 below."""

ELO_CENTRE = 1500.0
_ELO_SCALE = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Rating:
    """One player's fitted rating, its bootstrap spread and 95% interval, and its pairings."""

    name: str
    elo: float
    sd: float
    low: float
    high: float
    pairings: int

    def to_json(self) -> dict[str, float | str | int]:
        return {
            "name": self.name,
            "elo": round(self.elo, 1),
            "sd": round(self.sd, 1),
            "ci_low": round(self.low, 1),
            "ci_high": round(self.high, 1),
            "pairings": self.pairings,
        }


def pairwise(names: Sequence[str], places: Sequence[float]) -> list[PairResult]:
    """The pairwise results of one game: `places[i]` is seat i's standing (higher is better).

    Seats with the same name are the same player and are not compared with each other.

    >>> pairwise(["x", "y", "z"], [2, 1, 1])
    [('x', 'y', 1.0), ('x', 'z', 1.0), ('y', 'z', 0.5)]
    """
    out: list[PairResult] = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            if names[i] == names[j]:
                continue
            if places[i] > places[j]:
                score = 1.0
            elif places[i] < places[j]:
                score = 0.0
            else:
                score = 0.5
            out.append((names[i], names[j], score))
    return out


def fit_elo(
    names: Sequence[str],
    results: Sequence[PairResult],
    *,
    prior: float = 1.0,
    iterations: int = 200,
    tolerance: float = 1e-9,
) -> dict[str, float]:
    """Bradley-Terry maximum likelihood on the Elo scale (mean 1500), by Hunter's MM steps."""
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    if k == 0:
        return {}
    wins = [0.0] * k
    games = [[0.0] * k for _ in range(k)]
    for a, b, s in results:
        i, j = index[a], index[b]
        wins[i] += s
        wins[j] += 1.0 - s
        games[i][j] += 1.0
        games[j][i] += 1.0
    for i in range(k):  # `prior` drawn games with every other player
        for j in range(k):
            if i != j:
                wins[i] += prior / 2.0
                games[i][j] += prior
    strength = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            denom = sum(games[i][j] / (strength[i] + strength[j]) for j in range(k) if j != i)
            new.append(wins[i] / denom if denom > 0 else strength[i])
        geo = math.exp(sum(math.log(s) for s in new) / k)
        new = [s / geo for s in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < tolerance:
            break
    return {n: ELO_CENTRE + _ELO_SCALE * math.log(strength[index[n]]) for n in names}


def rate(
    names: Sequence[str],
    games: Sequence[Sequence[PairResult]],
    *,
    bootstrap: int = 200,
    seed: int = 0,
    prior: float = 1.0,
) -> list[Rating]:
    """Ratings for `names` from the pairwise results of each game, with bootstrap spreads."""
    flat = [r for g in games for r in g]
    point = fit_elo(names, flat, prior=prior)
    count = {n: 0 for n in names}
    for a, b, _ in flat:
        count[a] += 1
        count[b] += 1
    draws: dict[str, list[float]] = {n: [] for n in names}
    rng = Rng(seed)
    if games:
        for _ in range(bootstrap):
            sample = [r for _ in range(len(games)) for r in games[rng.below(len(games))]]
            fitted = fit_elo(names, sample, prior=prior)
            for n in names:
                draws[n].append(fitted[n])
    out = []
    for n in names:
        xs = draws[n]
        if len(xs) > 1:
            mean = sum(xs) / len(xs)
            sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
            low, high = quantile(xs, 0.025), quantile(xs, 0.975)
        else:
            sd, low, high = 0.0, point[n], point[n]
        out.append(Rating(n, point[n], sd, low, high, count[n]))
    return out
