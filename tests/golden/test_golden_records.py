"""Golden records: replaying each stored game gives its stored opening, trace, outcome and state.

A failure means the rules or the events changed behaviour. If that was intended, rebuild with
`python tests/golden/regen.py` and review the diff of tests/golden/data/.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from regen import CASES, golden_of

DATA = Path(__file__).resolve().parent / "data"
FILES = sorted(DATA.glob("*.json"))


def test_every_case_has_a_golden_file_and_both_games_are_covered() -> None:
    assert {p.stem for p in FILES} == set(CASES)
    assert {json.loads(p.read_text(encoding="utf-8"))["record"]["game"] for p in FILES} == {
        "perils",
        "adventure",
    }


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_replay_matches_golden(path: Path) -> None:
    stored = json.loads(path.read_text(encoding="utf-8"))
    again = golden_of(stored["record"])
    assert again["opening"] == stored["opening"]
    assert len(again["trace"]) == len(stored["trace"])
    for i, (got, want) in enumerate(zip(again["trace"], stored["trace"], strict=True)):
        assert got == want, f"step {i} differs; rebuild with tests/golden/regen.py if intended"
    assert again["outcome"] == stored["outcome"]
    assert again["final"] == stored["final"]
