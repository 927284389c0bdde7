"""Adventure Cards to print and cut: the rules on one page, then the cards, fronts and backs.

Pages: the rules summary with printing notes; the 24 test-cards (three sheets of fronts, each
followed by its sheet of backs); the 24 mission-cards the same way, each back shaded in its
pack's colour. Cards come in identity order (S1..S6, P1..P6, A1..A6, M1..M6), nine to a sheet.
A back sheet is mirrored left to right, so printed two-sided and flipped on the long edge every
back lands behind its own front.
"""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame

from pocketgalaxy.games.adventure.content import load_cards
from pocketgalaxy.printing.adventure_art import IDENTITIES, back_drawing, face_drawing
from pocketgalaxy.printing.output import check_target, write_atomically
from pocketgalaxy.printing.paper import CARD_H, CARD_W, Grid, card_grid, draw_cut_marks, paper_size
from pocketgalaxy.printing.summary import Section, summary_page
from pocketgalaxy.printing.text import styles

TITLE = "Adventure Cards: print and play"


def _printing(sheets: int) -> tuple[Section, ...]:
    """Printing notes for the summary page; `sheets` card sheets per set."""
    last_test, last = 1 + 2 * sheets, 1 + 4 * sheets
    return (
        ("Printing and cutting", (
            "Print every page at actual size (100%, no fit to page), two-sided, flipping on "
            "the long edge: each sheet of backs then lies behind its sheet of fronts.",
            "Cut along the grey lines; the black marks in the margins show where they run. "
            "Thin card stock, or paper glued to card, makes cards that do not show through.",
            f"Pages 2-{last_test} are the test-cards, pages {last_test + 1}-{last} the "
            "mission-cards.",
        )),
    )


def print_adventure(out: str | Path, *, paper: str = "a4") -> Path:
    """Write the Adventure Cards PDF to `out` and return its path (PrintError, nothing
    written, when the paper or the path is refused)."""
    page = paper_size(paper)
    target = check_target(out)
    write_atomically(target, adventure_pdf(page))
    return target


def adventure_pdf(page: tuple[float, float]) -> bytes:
    """The whole PDF as bytes, for a page size in points."""
    names = {i: load_cards()[i].name for i in IDENTITIES}
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=page, invariant=1, pageCompression=1)
    canvas.setTitle(TITLE)
    canvas.setAuthor("Pocket Galaxy")
    canvas.setSubject("24 test-cards and 24 mission-cards with their backs, and the rules")
    grid = card_grid(page)
    sheets = [IDENTITIES[i:i + grid.per_page] for i in range(0, 24, grid.per_page)]
    _summary(canvas, page, _printing(len(sheets)))
    for kind in ("test", "mission"):
        for number, sheet in enumerate(sheets, 1):
            label = f"{kind.capitalize()}-cards, sheet {number} of {len(sheets)}"
            for i, identity in enumerate(sheet):
                _card(canvas, grid, i, face_drawing(identity, names[identity]), False)
            _sheet_end(canvas, page, grid, f"{label}: fronts")
            for i, identity in enumerate(sheet):
                back = back_drawing(identity[0] if kind == "mission" else None)
                _card(canvas, grid, i, back, True)
            _sheet_end(canvas, page, grid, f"{label}: backs")
    canvas.save()
    return buffer.getvalue()


def _summary(canvas: Canvas, page: tuple[float, float], notes: tuple[Section, ...]) -> None:
    width, height = page
    margin = 18 * mm
    frame = Frame(margin, margin, width - 2 * margin, height - 2 * margin, showBoundary=0)
    inner_w, inner_h = width - 2 * margin - 12, height - 2 * margin - 12
    frame.addFromList([summary_page("adventure", styles(), inner_w, inner_h, notes)], canvas)
    canvas.showPage()


def _card(canvas: Canvas, grid: Grid, index: int, drawing: Drawing, mirrored: bool) -> None:
    x, y = grid.place(index, mirrored=mirrored)
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(CARD_W / drawing.width, CARD_H / drawing.height)
    renderPDF.draw(drawing, canvas, 0, 0)
    canvas.restoreState()


def _sheet_end(canvas: Canvas, page: tuple[float, float], grid: Grid, label: str) -> None:
    draw_cut_marks(canvas, grid)
    canvas.saveState()
    canvas.setFont("Helvetica", 7)
    canvas.setFillGray(0.35)
    canvas.drawCentredString(page[0] / 2, min(grid.bottom / 2, 4 * mm), label)
    canvas.restoreState()
    canvas.showPage()
