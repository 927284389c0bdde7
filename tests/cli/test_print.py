"""`pocketgalaxy print`: both PDFs from the command line, and every refusal is one line on
stderr, exit code 2, with no file written."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pocketgalaxy.cli.app import app


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["print", *args])
    return result.exit_code, result.stdout, result.stderr


def test_print_perils_and_adventure_write_pdfs(tmp_path: Path) -> None:
    sheet, cards = tmp_path / "playsheet.pdf", tmp_path / "cards.pdf"
    code, out, _ = _run("perils", "--theme", "dungeon", "-o", str(sheet))
    assert code == 0 and out.strip() == f"wrote {sheet} (a4)"
    code, out, _ = _run("adventure", "--paper", "letter", "-o", str(cards))
    assert code == 0 and out.strip() == f"wrote {cards} (letter)"
    assert sheet.read_bytes()[:5] == b"%PDF-" and cards.read_bytes()[:5] == b"%PDF-"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.pdf", "playsheet.pdf"]


def test_without_o_the_pdf_is_named_after_the_theme(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = _run("perils")
    assert code == 0 and out.strip() == "wrote playsheet-cosmic.pdf (a4)"
    assert (tmp_path / "playsheet-cosmic.pdf").is_file()


@pytest.mark.parametrize(("args", "message"), [
    (["chess"], "error: unknown game 'chess'; allowed: perils, adventure"),
    (["perils", "--theme", "nope"],
     "error: nope: theme: a bundled theme id (cosmic, dungeon) or a .toml file"),
    (["perils", "--theme", "BROKEN"], "error: broken.toml: file: valid TOML"),
    (["adventure", "--paper", "a5"], "error: unknown paper 'a5'; allowed: a4, letter"),
    (["adventure", "--theme", "cosmic"],
     "error: --theme is for perils only; allowed for adventure: -o and --paper"),
    (["adventure", "-o", "OUT/missing/cards.pdf"], "does not exist; allowed: a file in an "
     "existing folder"),
    (["perils", "-o", "OUT/sheet.txt"], "is not a .pdf file name; allowed: a path ending in .pdf"),
])
def test_bad_input_is_one_clear_line_and_writes_nothing(tmp_path: Path, args: list[str],
                                                        message: str) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("[skills\n", encoding="utf-8")
    args = [str(broken) if a == "BROKEN" else a.replace("OUT", str(tmp_path)) for a in args]
    if "-o" not in args:
        args += ["-o", str(tmp_path / "out.pdf")]
    code, out, err = _run(*args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.toml"]
