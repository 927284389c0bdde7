"""Saving, listing and resuming games; corrupt saves are reported and left alone."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from pocketgalaxy.cli.app import app
from pocketgalaxy.cli.saves import SaveStore
from pocketgalaxy.core.record import GameRecord


def _cut(typed: list[str], at: int, name: str) -> list[str]:
    """The typed lines with `save NAME` and `quit` inserted before line `at`."""
    return [*typed[:at], f"save {name}", "quit"]


def test_save_and_resume_adventure_continues_identically(
    script_game: Any, adventure_person: Any, tmp_path: Any
) -> None:
    args = [
        "play",
        "adventure",
        "--players",
        "3",
        "--seat",
        "0",
        "--bots",
        "memory,forgetful",
        "--seed",
        "33",
    ]
    full = tmp_path / "full.json"
    typed, first = script_game([*args, "--record", str(full)], adventure_person)
    assert first.exit_code == 0, first.output
    at = len(typed) // 2
    part = CliRunner().invoke(app, args, input="\n".join(_cut(typed, at, "mid")) + "\n")
    assert part.exit_code == 0, part.output
    assert "Saved as mid" in part.output

    listing = CliRunner().invoke(app, ["resume"])
    assert listing.exit_code == 0 and "mid" in listing.output and "adventure" in listing.output

    resumed_file = tmp_path / "resumed.json"
    rest = typed[at:]
    resumed = CliRunner().invoke(
        app, ["resume", "mid", "--record", str(resumed_file)], input="\n".join(rest) + "\n"
    )
    assert resumed.exit_code == 0, resumed.output
    assert "Resuming mid" in resumed.output
    a = GameRecord.loads(full.read_text())
    b = GameRecord.loads(resumed_file.read_text())
    assert a.actions == b.actions  # the computer players chose exactly as before


def test_a_game_cut_off_without_saving_is_autosaved_and_resumes_identically(
    script_game: Any, adventure_person: Any, tmp_path: Any
) -> None:
    args = ["play", "adventure", "--players", "2", "--seat", "0", "--bots", "memory",
            "--seed", "41"]
    full = tmp_path / "full.json"
    typed, first = script_game([*args, "--record", str(full)], adventure_person)
    assert first.exit_code == 0, first.output
    at = len(typed) // 2
    # The input just stops (a closed terminal): no save command, no quit.
    cut = CliRunner().invoke(app, args, input="\n".join(typed[:at]) + "\n")
    assert cut.exit_code == 1 and "Input ended" in cut.output
    saved = SaveStore().load("adventure-41")
    assert saved.record.actions  # every move made before the cut
    resumed_file = tmp_path / "resumed.json"
    resumed = CliRunner().invoke(
        app, ["resume", "adventure-41", "--record", str(resumed_file)],
        input="\n".join(typed[at:]) + "\n",
    )
    assert resumed.exit_code == 0, resumed.output
    assert GameRecord.loads(full.read_text()).actions == \
        GameRecord.loads(resumed_file.read_text()).actions


def test_save_and_resume_perils_continues_identically(
    script_game: Any, perils_person: Any, tmp_path: Any
) -> None:
    args = ["play", "perils", "--seed", "12", "--archetype", "scout"]
    full = tmp_path / "full.json"
    typed, first = script_game([*args, "--record", str(full)], perils_person)
    assert first.exit_code == 0, first.output
    at = len(typed) // 3
    part = CliRunner().invoke(
        app, [*args, "--save-as", "p1"], input="\n".join([*typed[:at], "quit", "y"]) + "\n"
    )
    assert part.exit_code == 0, part.output
    resumed_file = tmp_path / "resumed.json"
    resumed = CliRunner().invoke(
        app, ["resume", "p1", "--record", str(resumed_file)], input="\n".join(typed[at:]) + "\n"
    )
    assert resumed.exit_code == 0, resumed.output
    assert (
        GameRecord.loads(full.read_text()).actions
        == GameRecord.loads(resumed_file.read_text()).actions
    )


def test_corrupt_save_is_a_clear_error_and_left_untouched(save_dir: Any) -> None:
    save_dir.mkdir(parents=True)
    broken = save_dir / "broken.json"
    broken.write_text('{"format": "pocketgalaxy-save", "version": 1, "record": ')
    before = broken.read_bytes()
    result = CliRunner().invoke(app, ["resume", "broken"])
    assert result.exit_code == 2
    assert "is corrupt: not valid JSON" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    listing = CliRunner().invoke(app, ["resume"])
    assert listing.exit_code == 0 and "unreadable" in listing.output
    # Saving a new game under the same name refuses rather than overwrite.
    result = CliRunner().invoke(
        app,
        ["play", "perils", "--seed", "1", "--archetype", "pilot", "--save-as", "broken"],
        input="save\nquit\nn\n",
    )
    assert "will not overwrite" in result.output
    assert broken.read_bytes() == before
    assert sorted(p.name for p in save_dir.iterdir()) == ["broken.json"]


def test_save_with_a_bad_record_is_refused(save_dir: Any) -> None:
    save_dir.mkdir(parents=True)
    bad = {
        "format": "pocketgalaxy-save",
        "version": 1,
        "name": "x",
        "record": {"format": "no"},
        "seats": [],
    }
    (save_dir / "x.json").write_text(json.dumps(bad))
    result = CliRunner().invoke(app, ["resume", "x"])
    assert result.exit_code == 2
    assert "not a Pocket Galaxy record" in result.stderr
    assert SaveStore().names() == ["x"]


def test_unknown_save_name_lists_what_exists() -> None:
    result = CliRunner().invoke(app, ["resume", "nothing-here"])
    assert result.exit_code == 2
    assert "no save named 'nothing-here'" in result.stderr
