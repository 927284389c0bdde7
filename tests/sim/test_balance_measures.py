"""The study's statistics: the paired test holds its error rate and finds planted differences
(on synthetic games drawn from known rates, many times), and the course measures add up."""

from __future__ import annotations

import numpy as np
import pytest

from pocketgalaxy.games.adventure import events as adv
from pocketgalaxy.sim.balance.measures import compare, games_needed, paired_wins, survival_curve
from pocketgalaxy.sim.balance.run import StudyRun
from pocketgalaxy.sim.balance.study import Study, study_from_flags
from pocketgalaxy.sim.runner import GameResult
from pocketgalaxy.sim.trace import AdventureTracer


def _game(number: int, variant: int, won: bool, length: int, **extras: object) -> GameResult:
    return GameResult(index=number * 2 + variant, seed=number, specs=("rulebased", "teller"),
                      winners=(0, 1) if won else (), reason="prize_won" if won else "lost",
                      length=length, decisions=10, first_player=None, seconds=0.0,
                      decision_seconds=(0.0, 0.0), extras=dict(extras))


def _study() -> Study:
    return study_from_flags("perils", ["a:", "b:start_health=4"], players=["rulebased", "teller"],
                            games=10, seed=1)


def _run(study: Study, y0: np.ndarray, y1: np.ndarray, rng: np.random.Generator) -> StudyRun:
    run = StudyRun(study, {"a": [], "b": []})
    lengths = rng.integers(20, 30, size=len(y0))
    for i, (w0, w1) in enumerate(zip(y0, y1, strict=True)):
        run.games["a"].append(_game(i, 0, bool(w0), int(lengths[i])))
        run.games["b"].append(_game(i, 1, bool(w1), int(lengths[i])))
    return run


def test_no_difference_is_found_at_most_at_the_stated_error_rate() -> None:
    rng = np.random.default_rng(2026)
    repeats, found, covered = 400, 0, 0
    for _ in range(repeats):
        y0 = (rng.random(200) < 0.4).astype(float)
        y1 = (rng.random(200) < 0.4).astype(float)  # the same rate: any difference is chance
        row = paired_wins(y0, y1)
        found += row["p_value"] < 0.05
        covered += row["ci_low"] <= 0.0 <= row["ci_high"]
    # 5% of 400 is 20; 35 or more would happen by chance less than once in a thousand.
    assert found <= 34, f"{found} of {repeats} null comparisons called significant"
    assert covered >= 400 - 34, f"the 95% interval held the true 0 only {covered} times"


def test_a_planted_difference_is_found_nearly_always() -> None:
    rng = np.random.default_rng(7)
    repeats, found = 200, 0
    for _ in range(repeats):
        y0 = (rng.random(400) < 0.40).astype(float)
        y1 = (rng.random(400) < 0.55).astype(float)  # 15 points better
        found += paired_wins(y0, y1)["p_value"] < 0.05
    assert found >= 190, f"only {found} of {repeats} planted differences found"


def test_compare_corrects_the_family_with_holm() -> None:
    rng = np.random.default_rng(11)
    y0 = rng.random(400) < 0.40
    y1 = rng.random(400) < 0.55
    row = compare(_run(_study(), y0, y1, rng))[0]
    win, length = row["win_rate"], row["length"]
    # Holm over two tests: the smaller p doubled, the larger at least that (capped at 1).
    small, large = sorted([win["p_value"], length["p_value"]])
    adjusted = sorted([win["p_holm"], length["p_holm"]])
    assert adjusted[0] == pytest.approx(min(1.0, 2 * small), abs=1e-6)
    assert adjusted[1] == pytest.approx(min(1.0, max(2 * small, large)), abs=1e-6)
    assert win["significant"] is (win["p_holm"] < 0.05)
    assert row["pairs"] == 400 and row["against"] == "a"


def test_identical_games_give_no_difference() -> None:
    rng = np.random.default_rng(1)
    y = rng.random(300) < 0.5
    row = compare(_run(_study(), y, y.copy(), rng))[0]
    assert row["win_rate"]["diff"] == 0.0
    assert row["win_rate"]["p_value"] == 1.0
    assert row["win_rate"]["significant"] is False


def test_games_needed_pairing_helps_when_games_agree() -> None:
    rng = np.random.default_rng(3)
    y0 = (rng.random(2000) < 0.5).astype(float)
    flip = rng.random(2000) < 0.1  # the variant changes one game in ten
    y1 = np.where(flip, 1 - y0, y0)
    need = games_needed(y0, y1, 0.02)
    assert need["paired"] < need["unpaired"]
    # Unpaired at p = 0.5, d = 0.02: about 9,800 per group (the textbook figure).
    assert 9_500 <= need["unpaired"] <= 10_100


def test_survival_counts_first_zero_health_and_censors_the_rest() -> None:
    games = [_game(0, 0, False, 20, first_zero_health=5),
             _game(1, 0, True, 20, first_zero_health=None),
             _game(2, 0, False, 20, first_zero_health=10),
             _game(3, 0, True, 20, first_zero_health=None)]
    curve = survival_curve(games)
    assert [p["round"] for p in curve] == [5, 10]
    assert curve[0]["surviving"] == pytest.approx(0.75)
    assert curve[1]["surviving"] == pytest.approx(0.5)  # 0.75 * (1 - 1/3)


def _claims(tracer: AdventureTracer, seats: list[int]) -> None:
    for seat in seats:
        tracer.see([adv.MissionClaimed(seat=seat, mission=0, cards=())])


def test_adventure_trace_lead_changes_decisiveness_and_drama() -> None:
    tracer = AdventureTracer(3)
    tracer.see([])  # a decision with no claim
    # Seat 0 leads, seat 1 overtakes (one change), seat 0 ties then leads for good.
    _claims(tracer, [0, 1, 1, 0, 2, 0, 0])
    out = tracer.finish((0,))
    assert out["missions"] == [4, 2, 1]
    assert out["lead_changes"] == 2  # 0 -> 1 -> 0
    assert out["drama"] == 1  # seat 0 was one mission behind seat 1
    # Seat 0 took the sole lead for good at its claim in decision 7 of 8.
    assert out["decided_at"] == pytest.approx(7 / 8)
