"""Reports: shared wins split 1/k, per-kind and first-player figures, and their tables."""

from __future__ import annotations

import pytest
from rich.console import Console

from pocketgalaxy.sim.report import (
    TIMING_KEYS,
    adventure_report,
    adventure_tables,
    perils_report,
    perils_tables,
    without_timing,
)
from pocketgalaxy.sim.runner import GameResult


def _result(
    i: int,
    specs: tuple[str, ...],
    winners: tuple[int, ...],
    first: int = 0,
    length: int = 10,
    **extras: object,
) -> GameResult:
    return GameResult(
        index=i,
        seed=i,
        specs=specs,
        winners=winners,
        reason="r",
        length=length,
        decisions=5,
        first_player=first,
        seconds=0.01,
        decision_seconds=tuple(0.001 for _ in specs),
        seat_decisions=tuple(1 for _ in specs),
        extras=dict(extras),
    )


def test_adventure_report_splits_shared_wins() -> None:
    specs = ("memory", "random", "memory")
    results = [
        _result(0, specs, (0,), first=0, length=10),
        _result(1, specs, (0, 1), first=1, length=20),  # shared: 1/2 each
        _result(2, specs, (2,), first=0, length=30),
        _result(3, specs, (), first=2, length=40),
    ]
    report = adventure_report(results, seed=1, options={}, specs=specs, rotate=False)
    seat = [d["successes"] for d in report["by_seat"]]
    assert seat == [1.5, 0.5, 1.0]
    assert report["by_kind"]["memory"]["successes"] == 2.5
    assert report["by_kind"]["memory"]["seats_played"] == 8
    assert report["by_kind"]["random"]["successes"] == 0.5
    assert report["shared_wins"] == 1 and report["games_without_winner"] == 1
    assert report["first_player"]["win"]["successes"] == 1.5  # game 0 (1) + game 1 (1/2)
    assert report["first_player"]["advantage"]["diff"] == pytest.approx(1.5 / 4 - 1 / 3)
    assert report["turns"]["mean"] == 25 and report["turns"]["median"] == 25
    text = _text(adventure_tables(report))
    assert "a shared win counts as 1/k" in text and "First player won" in text


def test_perils_report_by_archetype() -> None:
    specs = ("rulebased", "teller")
    results = [
        _result(0, specs, (0,), archetype="pilot", length=24),
        _result(1, specs, (), archetype="pilot", length=26),
        _result(2, specs, (0,), archetype="scout", length=25),
    ]
    report = perils_report(results, seed=4, options={"x": 1})
    assert report["hero_win"]["successes"] == 2 and report["hero_win"]["n"] == 3
    assert report["by_archetype"]["pilot"]["rate"] == 0.5
    assert report["by_archetype"]["scout"]["n"] == 1
    assert report["rounds"]["mean"] == 25
    text = _text(perils_tables(report))
    assert "pilot" in text and "scout" in text and "95% CI" in text


def _keys(data: object) -> set[str]:
    """Every key at any depth of a JSON-like value."""
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in _keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in _keys(v)}
    return set()


def test_without_timing_drops_only_the_timing_fields_at_any_depth() -> None:
    specs = ("memory", "random")
    results = [_result(0, specs, (0,)), _result(1, specs, (1,))]
    report = adventure_report(results, seed=1, options={}, specs=specs, rotate=True)
    assert {"games_per_second", "ms_per_decision", "seconds_in_games"} <= _keys(report)
    bare = without_timing(report)
    assert not _keys(bare) & set(TIMING_KEYS)
    assert _keys(report) - _keys(bare) == {"games_per_second", "ms_per_decision",
                                           "seconds_in_games"}
    assert bare["timing"] == {"decisions": 10, "mean_decisions": 5.0}  # counts stay
    assert bare["by_kind"]["memory"]["successes"] == report["by_kind"]["memory"]["successes"]
    assert "ms_per_decision" in report["by_kind"]["memory"]  # the report itself is untouched
    nested = {"bots": [{"bot": "a", "seconds_per_decision": 0.1, "decisions": 3}]}
    assert without_timing(nested) == {"bots": [{"bot": "a", "decisions": 3}]}


def test_tables_without_timing_leave_out_the_speed() -> None:
    specs = ("memory", "random")
    adventure = adventure_report(
        [_result(0, specs, (0,))], seed=1, options={}, specs=specs, rotate=True
    )
    assert "games/s" in _text(adventure_tables(adventure))
    assert "ms/decision" in _text(adventure_tables(adventure))
    bare = _text(adventure_tables(without_timing(adventure)))
    assert "games/s" not in bare and "ms/decision" not in bare and "memory" in bare
    perils = perils_report([_result(0, ("rulebased", "teller"), (0,), archetype="pilot")],
                           seed=2, options={})
    assert "games/s" in _text(perils_tables(perils))
    text = _text(perils_tables(without_timing(perils)))
    assert "games/s" not in text and "decisions per game" in text


def _text(renderable: object) -> str:
    out = Console(width=120, record=True, file=open("/dev/null", "w"), color_system=None)  # noqa: SIM115
    try:
        out.print(renderable)
    finally:
        out.file.close()
    return out.export_text()
