"""The measures of a balance study, each with a 95% interval and a one-line meaning.

Every statistic comes from a library: Wilson intervals and z tests from statsmodels'
`proportion` module, t intervals of means from `DescrStatsW`, McNemar's exact test for paired
wins, Wilcoxon's signed-rank test (SciPy) for paired lengths, Holm's correction for the family of
comparisons (`multipletests`), power and "games needed" from `statsmodels.stats.power`, Kaplan-
Meier survival curves from `SurvfuncRight`, and bootstrap intervals from SciPy (seeded).

The output is plain JSON-ready data with floats rounded to 6 places, the same bytes for the same
games whatever process played them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from pocketgalaxy.sim.balance.run import StudyRun, game_number
from pocketgalaxy.sim.runner import GameResult
from pocketgalaxy.sim.stats import wilson
from pocketgalaxy.sim.trace import SUITS

ALPHA = 0.05
POWER = 0.8
BOOTSTRAP_GAMES = 100_000
"""The bootstrap of Ludii's balance resamples at most this many games (the first ones)."""

MEANINGS: dict[str, str] = {
    "win_rate": "How often the Hero wins (Perils) or the first seat's player wins (Adventure).",
    "win_rate_by_archetype": "The Hero's win rate with each archetype the games used.",
    "win_share_by_seat": "The share of wins of each seat (a shared win counts 1/k to each).",
    "win_share_by_player": "The share of wins of each computer player, wherever it sat.",
    "first_player_edge": "How much more often the first to move wins than a fair 1/players.",
    "balance": "Ludii's balance: 1 minus the gap between the best and worst seat's win share "
               "(1 is perfectly even).",
    "role_balance": "1 minus twice the Hero's distance from a 50% win rate (1: an even contest "
                    "between Hero and peril).",
    "completion": "The share of games that ended by the rules rather than by the turn cap.",
    "length": "Game length (Perils: rounds; Adventure: turns), mean with its interval.",
    "in_band": "The share of games whose length falls inside the designer's ideal band.",
    "comparisons": "Each variant against the baseline on the same deals: the paired difference "
                   "and a test, Holm-corrected over the whole family.",
    "games_needed": "Games per variant to detect the stated difference in win rate with 80% "
                    "power at 5% error, paired (as this study plays) and unpaired.",
    "survival": "Kaplan-Meier: the share of Heroes whose health has not yet fallen to zero, by "
                "round (games that never fell are censored at their end).",
    "loss_causes": "Why lost games were lost, as shares of all games.",
    "health_by_round": "The Hero's mean health at the start of each round, among those alive.",
    "deciding_suit": "In lost games, the suit (skill) of the last peril failed.",
    "missions_by_seat": "Missions claimed per game by each seat.",
    "lead_changes": "How often the sole lead in missions passed to another player.",
    "decisiveness": "When the eventual sole winner took the lead for good, as a share of the "
                    "game (lower: decided earlier).",
    "tuning": "Variants ranked by their distance from the designer's target (0 is on target); "
              "'on target' means the 95% interval holds the target.",
    "ladder": "Skill versus luck: the same deals played by a ladder of players, from random to "
              "one who sees every face-down card; the spread (oracle minus random) is how far "
              "play moves the result, and a rung's skill share the part of that gap it closes.",
    "drama": "How many missions the eventual winner was ever behind the leader; comeback share "
             "is the share of games won from behind.",
}


def r6(x: float | None) -> float | None:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return None
    return round(float(x), 6)


def _prop(successes: float, n: int) -> dict[str, Any]:
    w = wilson(successes, n)
    return {"rate": r6(w.p), "ci_low": r6(w.low), "ci_high": r6(w.high), "n": n}


def _mean(values: Sequence[float] | np.ndarray) -> dict[str, Any]:
    from statsmodels.stats.weightstats import DescrStatsW

    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        return {"mean": None, "ci_low": None, "ci_high": None, "n": 0}
    if arr.size == 1 or float(arr.std()) == 0.0:
        m = float(arr.mean())
        return {"mean": r6(m), "ci_low": r6(m), "ci_high": r6(m), "n": int(arr.size)}
    d = DescrStatsW(arr)
    low, high = d.tconfint_mean(alpha=ALPHA)
    return {"mean": r6(d.mean), "ci_low": r6(low), "ci_high": r6(high), "n": int(arr.size)}


def primary_outcome(game: str, result: GameResult) -> float:
    """The study's headline outcome of one game: the Hero won (Perils); the first player won
    (Adventure, a shared win counting 1/k)."""
    if game == "perils":
        return 1.0 if result.winners else 0.0
    first = result.first_player
    if first is None or first not in result.winners:
        return 0.0
    return 1.0 / len(result.winners)


def _seat_shares(result: GameResult, players: int) -> list[float]:
    share = 1.0 / len(result.winners) if result.winners else 0.0
    return [share if seat in result.winners else 0.0 for seat in range(players)]


def _variant_measures(run: StudyRun, results: list[GameResult]) -> dict[str, Any]:
    study = run.study
    n = len(results)
    out: dict[str, Any] = {"games": n}
    primary = [primary_outcome(study.game, r) for r in results]
    out["win_rate"] = _prop(math.fsum(primary), n)
    lengths = np.asarray([r.length for r in results], dtype=float)
    out["length"] = _mean(lengths)
    out["length"]["median"] = r6(float(np.median(lengths))) if n else None
    capped = sum(1 for r in results if r.ended_by_cap)
    out["completion"] = _prop(n - capped, n)
    if study.length_band is not None:
        lo, hi = study.length_band
        inside = int(((lengths >= lo) & (lengths <= hi)).sum())
        out["in_band"] = {**_prop(inside, n), "band": [lo, hi]}
    if study.game == "perils":
        out.update(_perils_measures(results, out["win_rate"]["rate"] or 0.0))
    else:
        out.update(_adventure_measures(study.players, study.seed, results))
    return out


def _perils_measures(results: list[GameResult], rate: float) -> dict[str, Any]:
    n = len(results)
    out: dict[str, Any] = {}
    w = wilson(sum(1 for r in results if r.winners), n)
    # 1 - |2p - 1| is monotone on each side of 1/2: map the Wilson interval through it.
    ends = sorted(1 - abs(2 * x - 1) for x in (w.low, w.high))
    top = 1.0 if w.low <= 0.5 <= w.high else ends[1]
    out["role_balance"] = {"value": r6(1 - abs(2 * rate - 1)), "ci_low": r6(ends[0]),
                           "ci_high": r6(top)}
    by_arch: dict[str, list[float]] = {}
    for r in results:
        by_arch.setdefault(str(r.extras.get("archetype")), []).append(1.0 if r.winners else 0.0)
    out["win_rate_by_archetype"] = {k: _prop(sum(v), len(v)) for k, v in sorted(by_arch.items())}
    reasons: dict[str, int] = {}
    for r in results:
        if not r.winners:
            reasons[r.reason] = reasons.get(r.reason, 0) + 1
    out["loss_causes"] = {k: _prop(v, n) for k, v in sorted(reasons.items())}
    losses = [r for r in results if not r.winners]
    out["deciding_suit"] = {
        suit: _prop(sum(1 for r in losses if r.extras.get("deciding_suit") == suit), len(losses))
        for suit in SUITS
    }
    out["survival"] = survival_curve(results)
    rounds = max((len(r.extras.get("health_path", [])) - 1 for r in results), default=0)
    health: list[dict[str, Any]] = []
    for k in range(rounds):
        alive = [r.extras["health_path"][k] for r in results
                 if len(r.extras.get("health_path", [])) - 1 > k]
        health.append({"round": k + 1, **_mean(alive)})
    out["health_by_round"] = health
    return out


def survival_curve(results: list[GameResult]) -> list[dict[str, Any]]:
    """Kaplan-Meier survival of the Hero by round: health first falling to zero in round r is
    an event at r; a game that never saw it is censored at its last round."""
    from statsmodels.duration.survfunc import SurvfuncRight

    if not results:
        return []
    zero = [r.extras.get("first_zero_health") for r in results]
    times = np.asarray([max(1, z if z is not None else r.length)
                        for z, r in zip(zero, results, strict=True)], dtype=float)
    lost = np.asarray([0 if z is None else 1 for z in zero], dtype=float)
    if lost.sum() == 0:
        return [{"round": int(times.max()), "surviving": 1.0, "ci_low": 1.0, "ci_high": 1.0}]
    sf = SurvfuncRight(times, lost)
    out = []
    for t, p, se in zip(sf.surv_times, sf.surv_prob, sf.surv_prob_se, strict=True):
        half = 1.959963984540054 * float(se)
        out.append({"round": int(t), "surviving": r6(p), "ci_low": r6(max(0.0, p - half)),
                    "ci_high": r6(min(1.0, p + half))})
    return out


def _adventure_measures(specs: Sequence[str], seed: int, results: list[GameResult]
                        ) -> dict[str, Any]:
    n = len(results)
    players = len(specs)
    out: dict[str, Any] = {}
    shares = np.asarray([_seat_shares(r, players) for r in results], dtype=float).reshape(
        n, players)
    out["win_share_by_seat"] = [
        {"seat": s + 1, **_prop(float(shares[:, s].sum()), n)} for s in range(players)
    ]
    by_player: dict[str, list[float]] = {}
    for r, row in zip(results, shares, strict=True):
        for seat, spec in enumerate(r.specs):
            by_player.setdefault(spec, []).append(float(row[seat]))
    out["win_share_by_player"] = {
        spec: _prop(math.fsum(v), len(v)) for spec, v in sorted(by_player.items())
    }
    first = [primary_outcome("adventure", r) for r in results]
    fair = 1.0 / players
    edge = _prop(math.fsum(first), n)
    p_value = _ztest(math.fsum(first), n, fair)
    out["first_player_edge"] = {
        "edge": r6((edge["rate"] or 0.0) - fair),
        "ci_low": r6((edge["ci_low"] or 0.0) - fair),
        "ci_high": r6((edge["ci_high"] or 0.0) - fair),
        "fair": r6(fair), "p_value": r6(p_value),
    }
    out["balance"] = _ludii_balance(shares, seed)
    out["missions_by_seat"] = [
        {"seat": s + 1, **_mean([r.extras["missions"][s] for r in results])}
        for s in range(players)
    ]
    out["lead_changes"] = _mean([r.extras["lead_changes"] for r in results])
    decided = [r.extras["decided_at"] for r in results if r.extras.get("decided_at") is not None]
    out["decisiveness"] = _mean(decided)
    sole = [r for r in results if len(r.winners) == 1]
    out["drama"] = {
        **_mean([r.extras["drama"] for r in sole]),
        "comeback": _prop(sum(1 for r in sole if r.extras["drama"] > 0), len(sole)),
    }
    return out


def _ztest(successes: float, n: int, value: float) -> float | None:
    from statsmodels.stats.proportion import proportions_ztest

    if n == 0 or successes in (0, n):
        return None
    _, p = proportions_ztest(successes, n, value=value)
    return float(p)


def _ludii_balance(shares: np.ndarray, seed: int) -> dict[str, Any]:
    """1 - (max - min) of the seats' win shares, with a seeded bootstrap interval.

    The "basic" (reverse percentile) bootstrap: a max-minus-min statistic is biased away from
    even seats in every resample, and reflecting the resamples about the estimate corrects that
    (a plain percentile interval often misses the estimate itself). Clipped to 0..1."""
    from scipy.stats import bootstrap

    if shares.shape[0] < 2:
        return {"value": None, "ci_low": None, "ci_high": None}

    def stat(sample: np.ndarray, axis: int = -1) -> np.ndarray:
        means = sample.mean(axis=axis)
        return np.asarray(1.0 - (means.max(axis=0) - means.min(axis=0)))

    value = float(1.0 - (shares.mean(axis=0).max() - shares.mean(axis=0).min()))
    part = shares[:BOOTSTRAP_GAMES].T  # (seats, games): resample games, keep seats together
    res = bootstrap((part,), stat, n_resamples=999, method="basic", axis=-1,
                    random_state=np.random.default_rng(seed), vectorized=True)
    low = max(0.0, float(res.confidence_interval.low))
    high = min(1.0, float(res.confidence_interval.high))
    return {"value": r6(value), "ci_low": r6(low), "ci_high": r6(high)}


def compare(run: StudyRun) -> list[dict[str, Any]]:
    """Every variant against the baseline on the game numbers both played."""
    from statsmodels.stats.multitest import multipletests

    study = run.study
    count = len(study.variants)
    numbers = run.common_numbers()
    wanted = set(numbers)

    def by_number(name: str) -> list[GameResult]:
        return [r for r in run.games[name] if game_number(r, count) in wanted]

    base = by_number(study.baseline.name)
    rows: list[dict[str, Any]] = []
    p_values: list[float] = []
    for variant in study.variants[1:]:
        other = by_number(variant.name)
        y0 = np.asarray([primary_outcome(study.game, r) for r in base])
        y1 = np.asarray([primary_outcome(study.game, r) for r in other])
        win = paired_wins(y0, y1)
        len0 = np.asarray([r.length for r in base], dtype=float)
        len1 = np.asarray([r.length for r in other], dtype=float)
        length = _paired(len1 - len0, _wilcoxon(len1 - len0))
        rows.append({"variant": variant.name, "against": study.baseline.name,
                     "pairs": len(numbers), "win_rate": win, "length": length,
                     "games_needed": games_needed(y0, y1, study.detect)})
        p_values += [win["p_value"] if win["p_value"] is not None else 1.0,
                     length["p_value"] if length["p_value"] is not None else 1.0]
    if p_values:
        reject, adjusted, _, _ = multipletests(p_values, alpha=ALPHA, method="holm")
        for i, row in enumerate(rows):
            for j, key in enumerate(("win_rate", "length")):
                row[key]["p_holm"] = r6(adjusted[2 * i + j])
                row[key]["significant"] = bool(reject[2 * i + j])
    return rows


def paired_wins(y0: np.ndarray, y1: np.ndarray) -> dict[str, Any]:
    """The paired difference of win rates y1 - y0 on the same deals: its mean, t interval and
    McNemar's exact p-value (uncorrected; `compare` corrects the family)."""
    return _paired(y1 - y0, _mcnemar(y0, y1))


def _paired(diff: np.ndarray, p_value: float | None) -> dict[str, Any]:
    m = _mean(diff)
    return {"diff": m["mean"], "ci_low": m["ci_low"], "ci_high": m["ci_high"],
            "p_value": r6(p_value)}


def _mcnemar(y0: np.ndarray, y1: np.ndarray) -> float | None:
    """McNemar's exact test on the discordant pairs (binary outcomes; a shared Adventure win
    counts as a win here)."""
    from statsmodels.stats.contingency_tables import mcnemar

    a, b = y0 > 0, y1 > 0
    table = [[int((a & b).sum()), int((a & ~b).sum())], [int((~a & b).sum()), int((~a & ~b).sum())]]
    if table[0][1] + table[1][0] == 0:
        return 1.0
    return float(mcnemar(table, exact=True).pvalue)


def _wilcoxon(diff: np.ndarray) -> float | None:
    from scipy.stats import wilcoxon

    if not np.any(diff != 0):
        return 1.0
    return float(wilcoxon(diff, zero_method="wilcox").pvalue)


def games_needed(y0: np.ndarray, y1: np.ndarray, detect: float) -> dict[str, Any]:
    """Games per variant for 80% power at 5% to see a difference of `detect` in win rate:
    paired, from the spread of the observed paired differences; unpaired, for two independent
    samples at the baseline rate (statsmodels' power solvers)."""
    from statsmodels.stats.power import NormalIndPower, TTestPower
    from statsmodels.stats.proportion import proportion_effectsize

    p = float(y0.mean()) if y0.size else 0.5
    sd = float(np.std(y1 - y0, ddof=1)) if y0.size > 1 else 0.0
    paired = None
    if sd > 0:
        paired = math.ceil(float(TTestPower().solve_power(
            effect_size=detect / sd, alpha=ALPHA, power=POWER, alternative="two-sided")))
    high = min(0.999, p + detect) if p + detect <= 1 else max(0.001, p - detect)
    unpaired = math.ceil(float(NormalIndPower().solve_power(
        effect_size=abs(proportion_effectsize(high, max(0.001, min(0.999, p)))),
        alpha=ALPHA, power=POWER, ratio=1.0)))
    return {"detect": detect, "paired": paired, "unpaired": unpaired}


def measure(run: StudyRun) -> dict[str, Any]:
    """Everything the report shows, in a fixed order."""
    return {
        "study": run.study.to_json(),
        "stopped": run.stopped,
        "meanings": MEANINGS,
        "variants": {v.name: _variant_measures(run, run.games[v.name])
                     for v in run.study.variants},
        "comparisons": compare(run),
    }


def precise_enough(run: StudyRun) -> bool:
    """Every variant's headline interval and every paired difference's interval is at most the
    study's precision wide."""
    target = run.study.precision
    if target is None:
        return False
    for v in run.study.variants:
        rate = _prop(math.fsum(primary_outcome(run.study.game, r) for r in run.games[v.name]),
                     len(run.games[v.name]))
        if (rate["ci_high"] or 1) - (rate["ci_low"] or 0) > target:
            return False
    for row in compare(run):
        w = row["win_rate"]
        if w["ci_low"] is None or w["ci_high"] - w["ci_low"] > target:
            return False
    return True
