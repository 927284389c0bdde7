"""The Adventure Cards PDF: 13 pages (rules, then fronts and backs of both sets), every card
named on its sheet, mission backs in their pack's shading, backs mirrored behind their fronts,
both paper sizes, the same bytes every time, and a card sheet against its stored picture."""

from __future__ import annotations

import numpy as np
import pytest
from pdftext import page_sizes, pages_text
from PIL import Image
from printrefs import DATA, OUTPUT, differs, render

from pocketgalaxy.games.adventure.content import load_cards
from pocketgalaxy.printing.adventure import adventure_pdf
from pocketgalaxy.printing.adventure_art import IDENTITIES, load_art
from pocketgalaxy.printing.paper import CARD_H, CARD_W, PAPERS, card_grid, paper_size
from pocketgalaxy.printing.summary import ADVENTURE

PAGES = 13  # rules; test-cards fronts/backs x 3 sheets; mission-cards fronts/backs x 3 sheets
SHEETS = [IDENTITIES[0:9], IDENTITIES[9:18], IDENTITIES[18:24]]


def test_pages_hold_the_rules_and_every_card_front_and_back(adventure_a4: bytes) -> None:
    pages = pages_text(adventure_a4)
    assert len(pages) == PAGES
    assert "Adventure Cards: the rules on one page" in pages[0]
    for heading, _points in ADVENTURE:
        assert heading in pages[0]
    assert "Printing and cutting" in pages[0]
    assert "Pages 2-7 are the test-cards, pages 8-13 the mission-cards." in pages[0]
    cards = load_cards()
    for k, kind in enumerate(("Test", "Mission")):
        for s, sheet in enumerate(SHEETS):
            front, back = pages[1 + 6 * k + 2 * s], pages[2 + 6 * k + 2 * s]
            assert f"{kind}-cards, sheet {s + 1} of 3: fronts" in front
            assert f"{kind}-cards, sheet {s + 1} of 3: backs" in back
            for identity in IDENTITIES:
                # each card's name on its own sheet of fronts, and on no other
                assert (cards[identity].name in front) == (identity in sheet), identity
            if kind == "Mission":
                assert back.count("MISSION") == len(sheet)
            else:
                assert "MISSION" not in back and not any(cards[i].name in back for i in sheet)


def _card_colour(image: Image.Image, page: tuple[float, float], index: int, mirrored: bool,
                 scale: float) -> np.ndarray:
    """The mean colour of a band near the top of a card place (above its picture)."""
    grid = card_grid(page)
    x, y = grid.place(index, mirrored=mirrored)
    height = page[1]
    left, right = int((x + 0.2 * CARD_W) * scale), int((x + 0.8 * CARD_W) * scale)
    top = int((height - (y + 0.93 * CARD_H)) * scale)
    bottom = int((height - (y + 0.83 * CARD_H)) * scale)
    box = np.asarray(image, dtype=np.float64)[top:bottom, left:right]
    mean: np.ndarray = box.reshape(-1, 3).mean(axis=0)
    return mean


def _nearest_pack(colour: np.ndarray) -> str:
    art = load_art()
    rgb = {p: np.array([int(v["color"][i:i + 2], 16) for i in (1, 3, 5)], dtype=np.float64)
           for p, v in art.packs.items()}
    return min(rgb, key=lambda p: float(np.abs(rgb[p] - colour).sum()))


def test_mission_backs_are_shaded_by_pack_and_mirrored(adventure_a4: bytes) -> None:
    page = paper_size("a4")
    scale = 0.5
    for s, sheet in enumerate(SHEETS):
        back = render(adventure_a4, 9 + 2 * s, scale)
        for i, identity in enumerate(sheet):
            colour = _card_colour(back, page, i, True, scale)
            assert _nearest_pack(colour) == identity[0], (identity, colour)
    # test-card backs are all the one purple back, in every place
    back = render(adventure_a4, 3, scale)
    for i in range(9):
        r, g, b = _card_colour(back, page, i, True, scale)
        assert b > r > g and b > 80, (i, r, g, b)


def test_a_back_place_lies_behind_its_front_place() -> None:
    for paper in PAPERS:
        page = paper_size(paper)
        grid = card_grid(page)
        assert (grid.cols, grid.rows) == (3, 3)
        for i in range(grid.per_page):
            fx, fy = grid.place(i)
            bx, by = grid.place(i, mirrored=True)
            # turning the sheet over on its long edge maps x to width - x
            assert abs((page[0] - (bx + CARD_W)) - fx) < 1e-6 and by == fy


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_pages_have_the_paper_size_and_the_cards_fit(paper: str, adventure_a4: bytes,
                                                     adventure_letter: bytes) -> None:
    pdf = adventure_a4 if paper == "a4" else adventure_letter
    want = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}[paper]
    assert page_sizes(pdf) == [want] * PAGES
    grid = card_grid(paper_size(paper))
    margin_x = grid.left / 72 * 25.4
    margin_y = grid.bottom / 72 * 25.4
    assert margin_x > 6 and margin_y > 6  # mm: room for the crop marks on both papers


def test_the_same_input_gives_the_same_bytes(adventure_a4: bytes) -> None:
    assert adventure_pdf(paper_size("a4")) == adventure_a4


def test_a_sheet_of_fronts_looks_like_its_reference(adventure_a4: bytes) -> None:
    got = render(adventure_a4, 2)
    problem = differs(got, Image.open(DATA / "adventure-a4-p2.png"))
    OUTPUT.mkdir(exist_ok=True)
    render(adventure_a4, 2, scale=1.5).save(OUTPUT / "print-adventure.png")
    assert problem is None, f"{problem}; see test-output/print-adventure.png, and rebuild with " \
        "tests/printing/printrefs.py if the change is intended"


def test_the_comparison_catches_a_changed_page(adventure_a4: bytes) -> None:
    # The tolerance must not hide a real change: the next sheet is not "the same".
    want = Image.open(DATA / "adventure-a4-p2.png")
    assert differs(render(adventure_a4, 4), want) is not None
    assert differs(render(adventure_a4, 2), want) is None
