"""Tuning: the grid of option values, the target, the ranking, and a real tuned study."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pocketgalaxy.cli.app import app
from pocketgalaxy.sim.balance.study import MAX_VARIANTS, StudyError
from pocketgalaxy.sim.balance.tune import Target, distance, grid_variants, parse_target, rank


def test_grid_makes_one_variant_per_combination_in_order() -> None:
    grid = grid_variants("perils", ["start_health=2|3", "pathways_per_round=2|3"])
    assert grid == [
        ("tune-1", {"start_health": 2, "pathways_per_round": 2}),
        ("tune-2", {"start_health": 2, "pathways_per_round": 3}),
        ("tune-3", {"start_health": 3, "pathways_per_round": 2}),
        ("tune-4", {"start_health": 3, "pathways_per_round": 3}),
    ]


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["start_health"], "expected KEY=V1|V2|V3"),
        (["nothing=1|2"], "unknown option nothing"),
        (["start_health=1|2|3|4|5", "max_health=3|4|5|6|7"], f"at most {MAX_VARIANTS - 1}"),
    ],
)
def test_bad_grids_are_refused(flags: list[str], message: str) -> None:
    with pytest.raises(StudyError, match=message):
        grid_variants("perils", flags)


def test_targets_parse_and_bad_ones_say_what_is_allowed() -> None:
    assert parse_target(["win_rate=0.5", "length=20-26"]) == Target(0.5, (20, 26))
    for bad in (["win_rate=2"], ["length=9-3"], ["speed=1"], []):
        with pytest.raises(StudyError, match="win_rate=0.5|needs a --target"):
            parse_target(bad)


def _m(rate: float, low: float, high: float, length: float) -> dict[str, object]:
    return {"win_rate": {"rate": rate, "ci_low": low, "ci_high": high},
            "length": {"mean": length, "ci_low": length - 1, "ci_high": length + 1}}


def test_ranking_by_distance_marks_what_is_on_target() -> None:
    summary = {
        "study": {"variants": [{"name": n, "options": {"k": i}}
                               for i, n in enumerate(["a", "b", "c"])]},
        "variants": {"a": _m(0.70, 0.65, 0.75, 24), "b": _m(0.52, 0.47, 0.57, 30),
                     "c": _m(0.45, 0.40, 0.50, 24)},
    }
    target = Target(0.5, (20, 26))
    # b: 0.02 + (30 - 26) / 7; c: 0.05 + 0; a: 0.20 + 0.
    assert distance(summary["variants"]["b"], target) == pytest.approx(0.02 + 4 / 7)
    ranking = rank(summary, target)
    assert [r["variant"] for r in ranking] == ["c", "a", "b"]
    assert [r["on_target"] for r in ranking] == [True, False, True]
    assert ranking[0]["options"] == {"k": 2}


def test_a_tuned_study_finds_the_setting_that_meets_the_target(tmp_path: Path) -> None:
    out = tmp_path / "tuned"
    done = CliRunner().invoke(app, [
        "balance", "perils", "-n", "24", "--seed", "6", "--out", str(out), "--json",
        "--tune", "skill_adds_to_roll=false|true", "--target", "win_rate=1.0"])
    assert done.exit_code == 0, done.output
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    ranking = summary["tuning"]["ranking"]
    assert [r["variant"] for r in ranking][0] == "tune-2"  # skill added to the roll: easier
    assert ranking[0]["options"] == {"skill_adds_to_roll": True}
    rates = {v: summary["variants"][v]["win_rate"]["rate"] for v in ("defaults", "tune-2")}
    assert rates["tune-2"] > rates["defaults"]
    assert "Tuning toward win rate 100.0%" in (out / "report.html").read_text(encoding="utf-8")


def test_target_without_tune_is_refused(tmp_path: Path) -> None:
    done = CliRunner().invoke(app, ["balance", "perils", "-n", "2", "--target", "win_rate=0.5",
                                    "--out", str(tmp_path / "x")])
    assert done.exit_code == 2
    assert "--target needs --tune" in done.output
