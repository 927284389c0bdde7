"""Static checks on the pages (no browser needed): no markup built from strings, no remote
resources, and every file a page or module refers to exists."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "src" / "pocketgalaxy" / "web" / "static"
PAGES = ("index.html", "play.html", "replay.html")


def _scripts() -> list[Path]:
    return sorted((STATIC / "js").glob("*.js"))


def test_no_html_strings_are_parsed_in_the_modules() -> None:
    # People's text must reach the DOM as text: no innerHTML and friends anywhere.
    forbidden = re.compile(
        r"\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write|\beval\("
    )
    offenders = [
        f"{path.name}:{n}: {line.strip()}"
        for path in _scripts()
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if forbidden.search(line) and not line.lstrip().startswith("//")
    ]
    assert offenders == []


def test_nothing_is_loaded_from_another_host() -> None:
    remote = re.compile(r"""(?:src|href)=["'](?:https?:)?//|import\s[^;]*?["']https?://""")
    for path in [STATIC / p for p in PAGES] + _scripts():
        assert not remote.search(path.read_text()), f"{path.name} loads something remote"


def test_every_referenced_file_exists() -> None:
    for page in PAGES:
        html = (STATIC / page).read_text()
        for ref in re.findall(r"""(?:src|href)="/static/([^"]+)\"""", html):
            assert (STATIC / ref).is_file(), f"{page} refers to missing {ref}"
    for path in _scripts():
        for ref in re.findall(r"""from\s+["']\./([^"']+)["']""", path.read_text()):
            assert (STATIC / "js" / ref).is_file(), f"{path.name} imports missing {ref}"
    # play.js loads the game's module by the snapshot's game name.
    for game in ("perils", "adventure"):
        assert (STATIC / "js" / f"{game}.js").is_file()
