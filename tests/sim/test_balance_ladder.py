"""The skill ladder: ordered as expected on pinned deals, paired with the study's own games, the
same with any workers, its skill share as defined, and in the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pocketgalaxy.cli.app import app
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.options import options_from_json, options_to_json
from pocketgalaxy.registry import get_game
from pocketgalaxy.sim.balance.ladder import (
    LadderResult,
    ladder_jobs,
    ladder_measures,
    run_ladder,
)
from pocketgalaxy.sim.runner import run_many


def _options(game: str, given: dict[str, object]) -> dict[str, object]:
    return options_to_json(options_from_json(get_game(game).options_type, given))


def _rates(summary: dict[str, object]) -> dict[str, dict[str, float]]:
    return {r["rung"]: r["win_rate"] for r in summary["rungs"]}  # type: ignore[attr-defined]


def test_perils_ladder_is_ordered_random_below_rule_based_below_the_oracle() -> None:
    opts = _options("perils", {"teller_policy": "approve_all"})
    jobs = ladder_jobs("perils", opts, 5, 80, rungs=["random", "rule-based", "oracle"])
    summary = ladder_measures("perils", run_ladder(jobs, workers=2), 5)
    w = _rates(summary)
    assert summary["games"] == 80
    # Random is far below rule-based: their 95% intervals do not even meet.
    assert w["random"]["ci_high"] < w["rule-based"]["ci_low"]
    assert w["rule-based"]["rate"] <= w["oracle"]["rate"]
    spread = summary["spread"]
    assert spread["ci_low"] > 0.5  # seeing the cards moves the Hero's result by a lot
    share = summary["skill_share"]["rule-based"]
    assert 0.0 < share["ci_low"] <= share["value"] <= share["ci_high"] <= 1.2


def test_adventure_ladder_is_ordered_against_a_field_of_normal_players() -> None:
    opts = _options("adventure", {})
    jobs = ladder_jobs("adventure", opts, 9, 40, rungs=["random", "rule-based", "oracle"])
    assert [j.seat for j in jobs[:12:3]] == [0, 1, 2, 3]  # the ladder's seat moves each game
    summary = ladder_measures("adventure", run_ladder(jobs), 9)
    w = _rates(summary)
    assert summary["fair_share"] == 0.25
    assert w["random"]["ci_high"] < w["rule-based"]["ci_low"]
    assert w["rule-based"]["rate"] <= w["oracle"]["rate"]
    assert w["oracle"]["ci_low"] > 0.25  # knowing every hand beats a fair share


def test_the_rule_based_rung_plays_the_very_games_of_a_study_baseline() -> None:
    opts = _options("perils", {"teller_policy": "approve_all"})
    results = run_ladder(ladder_jobs("perils", opts, 21, 15, rungs=["rule-based"]))
    games = run_many("perils", ["rulebased", "teller"], 15, 21, opts)
    assert [(r.seed, r.share, r.length) for r in results] == \
        [(g.seed, 1.0 if g.winners else 0.0, g.length) for g in games]


def test_the_ladder_gives_the_same_games_with_one_or_two_workers() -> None:
    opts = _options("adventure", {})
    jobs = ladder_jobs("adventure", opts, 3, 8, rungs=["random", "rule-based", "oracle"])
    assert run_ladder(jobs, workers=1) == run_ladder(jobs, workers=2)


def test_skill_share_is_the_part_of_the_random_to_oracle_gap_closed() -> None:
    results = []
    for n in range(200):
        results += [LadderResult("random", n, n, 0, 0.0, 5, False),
                    LadderResult("rule-based", n, n, 0, float(n % 4 == 0), 5, False),
                    LadderResult("oracle", n, n, 0, float(n % 2 == 0), 5, False)]
    summary = ladder_measures("perils", results, 1)
    share = summary["skill_share"]["rule-based"]
    assert share["value"] == 0.5  # 25% won against 0% and 50%: half the gap
    assert share["ci_low"] < 0.5 < share["ci_high"]
    assert summary["spread"]["diff"] == 0.5


def test_bad_ladder_requests_are_refused() -> None:
    with pytest.raises(PocketGalaxyError, match="unknown ladder rung"):
        ladder_jobs("perils", {}, 1, 10, rungs=["genius"])
    with pytest.raises(PocketGalaxyError, match="1..100,000"):
        ladder_jobs("perils", {}, 1, 0)


def test_the_report_holds_the_ladder_table_and_plot(tmp_path: Path) -> None:
    out = tmp_path / "study"
    done = CliRunner().invoke(app, ["balance", "adventure", "-n", "4", "--seed", "2",
                                    "--ladder", "--ladder-games", "4", "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert "Skill ladder" in done.output
    summary = json.loads((out / "summary.json").read_text())
    assert [r["rung"] for r in summary["ladder"]["rungs"]] == \
        ["random", "rule-based", "search", "oracle"]
    page = (out / "report.html").read_text()
    assert "Skill versus luck: the ladder" in page and "ismcts:iterations=100" in page
    assert (out / "plots" / "ladder.png").stat().st_size > 1000
    rows = (out / "ladder.csv").read_text().splitlines()
    assert rows[0] == "rung,player,game,seed,seat,win,length,capped"
    assert len(rows) == 1 + 4 * 4
    assert rows[1].startswith("random,random,0,") and rows[4].startswith("oracle,oracle,0,")
