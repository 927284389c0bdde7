"""Output paths are checked before any work, and a PDF is written whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pocketgalaxy.printing import paper_size
from pocketgalaxy.printing.output import PrintError, check_target, write_atomically


def test_good_targets_pass(tmp_path: Path) -> None:
    assert check_target(tmp_path / "sheet.pdf") == tmp_path / "sheet.pdf"
    assert check_target(tmp_path / "SHEET.PDF").name == "SHEET.PDF"


@pytest.mark.parametrize(("name", "expected"), [
    ("sheet.txt", "is not a .pdf file name; allowed: a path ending in .pdf"),
    ("missing/sheet.pdf", "does not exist; allowed: a file in an existing folder"),
    ("folder.pdf", "is a folder; allowed: a file name ending in .pdf"),
])
def test_bad_targets_are_refused_clearly(tmp_path: Path, name: str, expected: str) -> None:
    (tmp_path / "folder.pdf").mkdir()
    with pytest.raises(PrintError) as err:
        check_target(tmp_path / name)
    assert expected in err.value.message and err.value.code == "print/invalid"


def test_unknown_paper_says_what_is_allowed() -> None:
    with pytest.raises(PrintError) as err:
        paper_size("a5")
    assert err.value.message == "unknown paper 'a5'; allowed: a4, letter"
    assert err.value.allowed == ("a4", "letter")
    assert paper_size(" Letter ") == (612.0, 792.0)


def test_a_write_replaces_the_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "out.pdf"
    target.write_bytes(b"old")
    write_atomically(target, b"%PDF-new")
    assert target.read_bytes() == b"%PDF-new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.pdf"]


def test_a_failed_write_leaves_the_old_file_and_no_part(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.pdf"
    target.write_bytes(b"old")

    def full_disk(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(PrintError, match="No space left on device; nothing was written"):
        write_atomically(target, b"%PDF-new")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.pdf"]
