"""`pocketgalaxy tell CARD`: the computer Teller's words for one card of a real deck."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pocketgalaxy.cli.app import app
from pocketgalaxy.games.perils.content import load_theme

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "perils"))
from test_perils_narration import leaks  # noqa: E402


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["tell", *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_lists_the_asked_number_of_clean_descriptions() -> None:
    code, out, _ = _run("8D", "--sense", "sound", "--theme", "cosmic", "-n", "5", "--seed", "4",
                        "--json")
    assert code == 0
    rows = json.loads(out)
    assert len(rows) == 5
    theme = load_theme("cosmic")
    for row in rows:
        assert {"card", "sense", "theme", "clarity", "text", "hint"} <= set(row)
        assert (row["card"], row["sense"], row["theme"], row["clarity"]) == (
            "8D", "sound", "cosmic", "fair")
        assert not leaks(row["text"], "8D", theme)
    assert len({r["text"] for r in rows}) == 5


def test_same_seed_same_words_and_another_seed_other_words() -> None:
    first = _run("QS", "--seed", "9", "--json", "-n", "2")[1]
    assert first == _run("QS", "--seed", "9", "--json", "-n", "2")[1]
    assert first != _run("QS", "--seed", "10", "--json", "-n", "2")[1]


def test_reveal_tells_the_thing_and_both_outcomes() -> None:
    code, out, _ = _run("9C", "--theme", "dungeon", "--reveal", "--json", "-n", "1", "--seed",
                        "2")
    assert code == 0
    row = json.loads(out)[0]
    thing = load_theme("dungeon").things[row["thing"]]
    assert thing.fits("9C")
    assert any(line in row["reveal"] for line in thing.reveal)
    assert "9♣: a peril, a test of Stealth, difficulty 9" in row["reveal"]
    assert any(line in row["success"] for line in thing.success)
    assert any(line in row["failure"] for line in thing.failure) and "wound" in row["failure"]


def test_text_output_numbers_each_description() -> None:
    code, out, _ = _run("JK1", "--seed", "1", "-n", "2", "--reveal", "--clarity", "plain")
    assert code == 0
    assert "1. " in out and "2. " in out and "Revealed:" in out and "Joker" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [(("8X",), "allowed: 2-10, J, Q, K, A"),
     (("AH",), "the Prize"),
     (("8D", "--sense", "taste"), "allowed: sight, sound, smell"),
     (("8D", "--clarity", "murky"), "allowed: plain, fair, subtle, cryptic"),
     (("8D", "--theme", "jungle"), "cosmic, dungeon"),
     (("8D", "-n", "0"), "allowed: 1..50")],
)
def test_bad_input_gives_one_clear_line(args: tuple[str, ...], message: str) -> None:
    code, out, err = _run(*args, "--seed", "1")
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) <= 2, err
