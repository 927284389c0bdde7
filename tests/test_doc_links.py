"""Every link in README.md, docs/ and the guides stays inside the repository.

A relative link must name a file or folder that exists in the repository; absolute filesystem
paths, `file:` and web addresses, and links that climb out of the repository are refused. Paths
outside the repository (like the rules brief's folder) are refused even as plain text, since a
reader of the repository cannot follow them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted(
    [
        ROOT / "README.md",
        *(ROOT / "docs").rglob("*.md"),
        *(ROOT / "src" / "pocketgalaxy" / "guides").glob("*.md"),
    ]
)
_INLINE = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
_AUTOLINK = re.compile(r"<((?:[a-zA-Z][a-zA-Z0-9+.-]*):[^>\s]+)>")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_OUTSIDE_TEXT = re.compile(r"/work/|\.\./shared\b|\bshared/seeds\b")


def _without_code_blocks(text: str) -> str:
    """The text with fenced code blocks blanked (line numbers kept)."""
    out, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            out.append("")
        else:
            out.append("" if fenced else line)
    return "\n".join(out)


def links(text: str) -> list[str]:
    """Every link target in Markdown text, outside fenced code."""
    body = _without_code_blocks(text)
    found = [m.group(1) for m in _INLINE.finditer(body)]
    found += [m.group(1) for m in _DEFINITION.finditer(body)]
    found += [m.group(1) for m in _AUTOLINK.finditer(body)]
    return found


def problem(doc: Path, target: str) -> str | None:
    """Why `target` (a link in `doc`) does not stay in the repository, or None when it does."""
    if target.startswith("#"):
        return None
    if _SCHEME.match(target):
        return "points outside the repository (an address, not a file in it)"
    path = target.split("#", 1)[0].split("?", 1)[0]
    if path.startswith("/") or path.startswith("~"):
        return "is an absolute path; use a path relative to this file"
    resolved = (doc.parent / path).resolve()
    if not resolved.is_relative_to(ROOT):
        return "climbs out of the repository"
    if not resolved.exists():
        return "names a file that is not in the repository"
    return None


def test_the_scan_covers_the_docs() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in DOCS}
    assert {"README.md", "docs/cli.md", "docs/rules/perils.md", "docs/rules/adventure.md"} <= names


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_stay_in_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    bad = [f"{target}: {why}" for target in links(text) if (why := problem(doc, target))]
    assert not bad, f"{doc.relative_to(ROOT)}: " + "; ".join(bad)
    lines = [
        f"line {n}: {line.strip()}"
        for n, line in enumerate(text.splitlines(), 1)
        if _OUTSIDE_TEXT.search(line)
    ]
    assert not lines, f"{doc.relative_to(ROOT)} names a path outside the repository: {lines}"


def test_the_checker_refuses_what_it_should(tmp_path: Path) -> None:
    doc = ROOT / "docs" / "cli.md"
    assert problem(doc, "rules/perils.md") is None
    assert problem(doc, "rules/perils.md#options") is None
    assert problem(doc, "#seeds") is None
    assert problem(doc, "../README.md") is None
    assert problem(doc, "../src/pocketgalaxy/guides/perils.md") is None
    assert "not in the repository" in (problem(doc, "nowhere.md") or "")
    assert "climbs out" in (problem(doc, "../../shared/rules.md") or "")
    assert "absolute" in (problem(doc, "/work/shared/seeds/adventure-cards.txt") or "")
    assert "outside" in (problem(doc, "https://example.org/") or "")
    assert "outside" in (problem(doc, "file:///etc/passwd") or "")
    text = (
        "[a](one.md) ![pic](img/two.png \"title\") and [b](<four.md>)\n[ref]: three.md\n"
        "<https://example.org>\n```\n[not](a-link.md)\n```\n"
    )
    assert links(text) == ["one.md", "img/two.png", "four.md", "three.md", "https://example.org"]
    assert _OUTSIDE_TEXT.search("see `/work/shared/seeds/x.txt`")
    assert _OUTSIDE_TEXT.search("in ../shared/rules.md")
