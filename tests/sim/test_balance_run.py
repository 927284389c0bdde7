"""Balance studies on real games: common deals, a planted difference found, precision stops,
Ctrl-C keeps what was played, and the same bytes with any workers, in any process."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pocketgalaxy.cli.app import app
from pocketgalaxy.sim.balance.measures import measure, precise_enough
from pocketgalaxy.sim.balance.report import CSV_FIELDS, write_report
from pocketgalaxy.sim.balance.run import run_study
from pocketgalaxy.sim.balance.study import study_from_flags

ADVENTURE = ["memory", "forgetful", "random"]


def test_variants_play_the_same_deals_and_a_planted_difference_is_found() -> None:
    study = study_from_flags(
        "perils", ["base:", "twin:", "easy:skill_adds_to_roll=true"],
        players=["rulebased", "teller"], games=40, seed=12)
    run = run_study(study)
    base, twin, easy = (run.games[n] for n in ("base", "twin", "easy"))
    assert [r.seed for r in base] == [r.seed for r in twin] == [r.seed for r in easy]
    # Same rules on the same deals: the very same games.
    assert [(r.winners, r.length, r.extras) for r in base] == \
        [(r.winners, r.length, r.extras) for r in twin]
    rows = {row["variant"]: row for row in measure(run)["comparisons"]}
    assert rows["twin"]["win_rate"]["diff"] == 0.0
    assert rows["twin"]["win_rate"]["significant"] is False
    # Adding the skill to the roll is a much easier game (PP-A2): the study must see it.
    assert rows["easy"]["win_rate"]["diff"] > 0
    assert rows["easy"]["win_rate"]["significant"] is True


def test_precision_stops_after_the_first_batch_that_is_precise_enough() -> None:
    study = study_from_flags("adventure", ["base:", "asked:next_after_failed_request=asked_player"],
                             players=ADVENTURE, games=400, seed=3, precision=0.35)
    run = run_study(study, precise_enough=precise_enough, first_batch=40)
    assert run.stopped == "precision"
    assert [len(v) for v in run.games.values()] == [40, 40]
    # A batch is cut at game numbers: these are exactly games 0..39 of an uncut study.
    plain = study_from_flags("adventure", ["base:", "asked:next_after_failed_request=asked_player"],
                             players=ADVENTURE, games=40, seed=3)
    again = run_study(plain)
    assert [(r.seed, r.winners) for r in run.games["asked"]] == \
        [(r.seed, r.winners) for r in again.games["asked"]]


def test_ctrl_c_keeps_the_games_already_played(tmp_path: Path) -> None:
    study = study_from_flags("adventure", ["base:"], players=ADVENTURE, games=200, seed=8)

    def interrupt(done: int, total: int) -> None:
        if done >= 25:
            raise KeyboardInterrupt

    run = run_study(study, progress=interrupt)
    assert run.stopped == "interrupted"
    kept = len(run.games["base"])
    assert 25 <= kept < 200
    summary = measure(run)
    assert summary["stopped"] == "interrupted"
    assert summary["variants"]["base"]["games"] == kept
    write_report(run, summary, tmp_path / "partial")
    assert "interrupted" in (tmp_path / "partial" / "report.html").read_text(encoding="utf-8")


def test_report_folder_holds_games_measures_plots_and_html(tmp_path: Path) -> None:
    study = study_from_flags("perils", ["base:", "three:pathways_per_round=3"],
                             players=["rulebased", "teller"], games=12, seed=2,
                             length_band=[20, 30])
    run = run_study(study)
    report = write_report(run, measure(run), tmp_path / "study")
    folder = report.parent
    with (folder / "games.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == CSV_FIELDS
    assert [r["variant"] for r in rows] == ["base"] * 12 + ["three"] * 12
    assert len((folder / "games.jsonl").read_text(encoding="utf-8").splitlines()) == 24
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert set(summary["variants"]) == {"base", "three"}
    assert summary["variants"]["three"]["in_band"]["band"] == [20, 30]
    assert "seconds" not in (folder / "summary.json").read_text(encoding="utf-8")
    for plot in ("win_rate", "comparisons", "length", "survival", "health"):
        assert (folder / "plots" / f"{plot}.png").stat().st_size > 1000
        assert (folder / "plots" / f"{plot}.svg").read_text(encoding="utf-8").lstrip().startswith(
            "<?xml")
    page = report.read_text(encoding="utf-8")
    assert page.count("<svg") == 5 and "three vs base" in page
    # One file, readable offline: nothing is fetched from elsewhere.
    for fetch in ("<script", "<link", 'src="http', "src='http", 'href="http'):
        assert fetch not in page


def _balance(out: Path, workers: int, hash_seed: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run(
        [sys.executable, "-m", "pocketgalaxy", "balance", "adventure", "-n", "24", "--seed", "5",
         "-v", "base:", "-v", "asked:next_after_failed_request=asked_player", "--players",
         ",".join(ADVENTURE), "--workers", str(workers), "--out", str(out), "--json"],
        capture_output=True, text=True, env=env, timeout=600, check=False)


def test_same_study_same_bytes_with_any_workers_in_any_process(tmp_path: Path) -> None:
    one = _balance(tmp_path / "one", 1, "1")
    two = _balance(tmp_path / "two", 2, "2")
    assert one.returncode == 0, one.stderr
    assert two.returncode == 0, two.stderr
    assert one.stdout == two.stdout
    for name in ("games.csv", "games.jsonl", "summary.json", "study.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-v", "base"], "expected NAME:key=value"),
        (["-v", "base:pathways_per_round=7"], "pathways_per_round"),
        (["--band", "soon"], "expected LOW-HIGH"),
        (["--workers", "0"], "use 1..64"),
    ],
)
def test_bad_flags_say_what_is_allowed_and_write_nothing(
    tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "none"
    done = CliRunner().invoke(app, ["balance", "perils", "-n", "2", "--seed", "1", "--out",
                                    str(out), *args])
    assert done.exit_code == 2
    assert message in done.output
    assert not out.exists()
