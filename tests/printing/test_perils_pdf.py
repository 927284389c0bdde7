"""The Perils & Pathways playsheet PDF: pages, every name of the theme, paper sizes, the same
bytes every time, and page 1 against its stored picture."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from pdftext import page_sizes, pages_text
from PIL import Image
from printrefs import DATA, OUTPUT, differs, render

from pocketgalaxy.core.errors import ContentError
from pocketgalaxy.games.perils.content import BUNDLED, PLAYSHEETS, load_theme
from pocketgalaxy.printing import print_perils
from pocketgalaxy.printing.paper import PAPERS, paper_size
from pocketgalaxy.printing.perils import perils_pdf
from pocketgalaxy.printing.summary import PERILS

PAGES = 4  # Playsheets 1, 2 and 3, then the rules on one page


def _display(name: str) -> str:
    return name[:1].upper() + name[1:]


@pytest.mark.parametrize("theme_id", BUNDLED)
def test_every_part_of_the_theme_is_on_its_sheet(theme_id: str, perils_a4: bytes) -> None:
    theme = load_theme(theme_id)
    pdf = perils_a4 if theme_id == "cosmic" else perils_pdf(theme, paper_size("a4"))
    pages = pages_text(pdf)
    assert len(pages) == PAGES
    one, two, three, rules = pages
    for number, page in enumerate(pages[:3], 1):
        assert f"Playsheet {number} {theme.title}" in page and f"page {number}" in page
    for a in theme.archetypes:
        assert a.name in one and a.blurb in one
    pilot = theme.archetypes[0]
    for code in pilot.cards:
        assert code[:-1] in one
    for skill in theme.skills.values():
        assert skill.name in one
    for prize in theme.prizes:
        assert prize in one
    for bad in theme.big_bads.values():
        assert bad.name in two and bad.blurb in two
    assert two.count("difficulty 11") == 3
    for thing in theme.things.values():
        if thing.kind == "peril":
            low, high = thing.difficulty
            assert f"{_display(thing.name)} ({low}-{high})" in two, thing.id
        if thing.kind == "gift":
            assert _display(thing.name) in three, thing.id
    for item in theme.items.values():
        assert f"{item.name}: {item.blurb}" in three
    assert "Joker 1" in three and "Joker 2" in three
    assert "Perils & Pathways: the rules on one page" in rules
    for heading, _points in PERILS:
        assert heading in rules


def test_a_peril_is_listed_under_every_band_it_fits(perils_a4: bytes) -> None:
    # "a jammed pressure door" fits diamonds 2-5: the low and the mid column, not the high one.
    two = pages_text(perils_a4)[1]
    strength = two[two.index("\u2666 Strength"):two.index("\u2663 Agility")]
    assert strength.count("A jammed pressure door (2-5)") == 2
    assert strength.count("A collapsing reactor housing (8-10)") == 1
    assert strength.count("A collapsing gantry (4-9)") == 3


def test_suit_signs_are_real_text(perils_a4: bytes) -> None:
    one = pages_text(perils_a4)[0]
    assert "2\u2666 4\u2663 6\u2660 3\u2665" in one  # the Cosmic Pilot's four cards


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_every_page_has_the_paper_size(paper: str) -> None:
    pdf = perils_pdf(load_theme("cosmic"), paper_size(paper))
    want = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}[paper]
    assert page_sizes(pdf) == [want] * PAGES


def test_the_same_theme_gives_the_same_bytes_in_another_process(perils_a4: bytes) -> None:
    code = ("import hashlib, sys\n"
            "from printrefs import build\n"
            "sys.stdout.write(hashlib.sha256(build('perils')).hexdigest())\n")
    other = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).parent,
                           capture_output=True, text=True, timeout=120, check=True,
                           env={"PYTHONHASHSEED": "12345", "PATH": ""})
    assert other.stdout == hashlib.sha256(perils_a4).hexdigest()
    assert perils_pdf(load_theme("cosmic"), paper_size("a4")) == perils_a4


def test_page_one_looks_like_its_reference(perils_a4: bytes) -> None:
    got = render(perils_a4, 1)
    problem = differs(got, Image.open(DATA / "perils-cosmic-a4-p1.png"))
    OUTPUT.mkdir(exist_ok=True)
    render(perils_a4, 1, scale=1.5).save(OUTPUT / "print-perils.png")
    assert problem is None, f"{problem}; see test-output/print-perils.png, and rebuild with " \
        "tests/printing/printrefs.py if the change is intended"


def test_a_theme_file_of_ones_own_is_printed(tmp_path: Path) -> None:
    source = (PLAYSHEETS / "cosmic.toml").read_text(encoding="utf-8")
    mine = tmp_path / "mine.toml"
    mine.write_text(source.replace('title = "Cosmic: The Derelict Starliner"',
                                   'title = "Moonbase <Zero> & Friends"'), encoding="utf-8")
    out = print_perils(str(mine), tmp_path / "mine.pdf")
    pages = pages_text(out.read_bytes())
    assert len(pages) == PAGES and "Moonbase <Zero> & Friends" in pages[0]


def test_a_broken_or_unknown_theme_writes_nothing(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text('id = "x"\ntitle = "x"\n[skills\n', encoding="utf-8")
    with pytest.raises(ContentError, match="broken.toml: file: valid TOML"):
        print_perils(str(broken), tmp_path / "out.pdf")
    with pytest.raises(ContentError, match="a bundled theme id"):
        print_perils("nope", tmp_path / "out.pdf")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.toml"]
