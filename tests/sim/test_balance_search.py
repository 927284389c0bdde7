"""Tuning with Optuna: a planted optimum is found, seeded trials are the same in any process,
ranges are checked before a game is played, and the report ranks the trials."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pocketgalaxy.cli.app import app
from pocketgalaxy.sim.balance.search import Axis, best_distinct, optuna_search, parse_axes
from pocketgalaxy.sim.balance.study import StudyError


def test_optuna_finds_a_planted_optimum_on_a_small_range() -> None:
    axes = [Axis("x", 1, 8), Axis("y", choices=("low", "mid", "high"))]
    calls: list[dict[str, object]] = []

    def evaluate(s: dict[str, object]) -> float:
        calls.append(s)
        return abs(int(s["x"]) - 6) + (0 if s["y"] == "mid" else 1)  # type: ignore[call-overload]

    trials = optuna_search(axes, evaluate, 40, seed=3)
    assert len(trials) == 40
    best = best_distinct(trials, 3)[0]
    assert best.settings == {"x": 6, "y": "mid"} and best.distance == 0
    # A setting asked for again is scored from its first trial, not evaluated again.
    assert len(calls) == sum(1 for t in trials if t.repeat_of is None) < 40


def test_the_same_seed_gives_the_same_trials() -> None:
    axes = [Axis("x", 1, 20)]

    def run(seed: int) -> list[object]:
        return [t.settings["x"] for t in
                optuna_search(axes, lambda s: abs(int(s["x"]) - 13), 15, seed)]  # type: ignore[call-overload]

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_ranges_are_checked_against_the_options() -> None:
    assert parse_axes("perils", ["start_health=2..4"])[0].values() == [2, 3, 4]
    for flag, message in [("pathways_per_round=2..4", "pathways_per_round=4 is not allowed"),
                          ("start_health=5..2", "LOW <= HIGH"),
                          ("start_health=a..b", "whole numbers"),
                          ("nothing=1..2", "unknown option nothing")]:
        with pytest.raises(StudyError, match=message):
            parse_axes("perils", [flag])


def test_search_flags_are_refused_clearly(tmp_path: Path) -> None:
    for args, message in [(["--search", "optuna"], "needs --tune"),
                          (["--search", "annealing", "--tune", "start_health=2..3",
                            "--target", "win_rate=0.5"], "use grid or optuna"),
                          (["--search", "optuna", "--trials", "0", "--tune",
                            "start_health=2..3", "--target", "win_rate=0.5"], "1..500"),
                          (["--search", "optuna", "-v", "a:", "-v", "b:start_health=4",
                            "--tune", "max_health=3..6", "--target", "win_rate=0.5"],
                           "at most one --variant")]:
        done = CliRunner().invoke(app, ["balance", "perils", "-n", "2", "--seed", "1",
                                        "--out", str(tmp_path / "x"), *args])
        assert done.exit_code != 0
        assert message in done.output, done.output
    assert not (tmp_path / "x").exists()


def test_seeded_optuna_studies_are_the_same_bytes_in_two_processes(tmp_path: Path) -> None:
    outputs = []
    for hashseed in ("1", "2"):
        out = tmp_path / f"s{hashseed}"
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        subprocess.run([sys.executable, "-m", "pocketgalaxy", "balance", "perils", "-n", "6",
                        "--seed", "8", "--tune", "start_health=1..6", "--search", "optuna",
                        "--trials", "6", "--target", "win_rate=0.5", "--json", "--out",
                        str(out)], env=env, check=True, capture_output=True, timeout=300)
        outputs.append(((out / "summary.json").read_bytes(), (out / "games.csv").read_bytes()))
    assert outputs[0] == outputs[1]
    summary = json.loads(outputs[0][0])
    search = summary["tuning"]["search"]
    assert search["trials"] == 6 and len(search["history"]) == 6
    ranking = summary["tuning"]["ranking"]
    distances = [r["distance"] for r in ranking]
    assert distances == sorted(distances)
    assert {r["variant"] for r in ranking} <= {"defaults"} | {f"trial-{i}" for i in range(1, 7)}
