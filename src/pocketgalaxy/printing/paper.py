"""Paper sizes and the cutting grid: where each card goes on a sheet, and its cut marks.

Cards are 63 x 88.2 mm (the web's 100 x 140 drawing at 0.63 mm a unit, the size of a common
playing card), nine to a sheet on A4 and on US Letter, the grid centred on the page so that a
back page, mirrored left to right, lies exactly behind its front page when printed on both
sides and flipped on the long edge.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pocketgalaxy.printing.output import PrintError

PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
"""Paper name -> (width, height) in points: A4 (210 x 297 mm) and US Letter (8.5 x 11 in)."""

CARD_W = 63 * mm
CARD_H = 88.2 * mm
MARK_GAP = 1.5 * mm  # the crop marks start this far from the grid ...
MARK_LEN = 4 * mm  # ... and are this long
CUT_GREY = 0.72


def paper_size(name: str) -> tuple[float, float]:
    """(width, height) in points of a paper by name; PrintError for an unknown one."""
    size = PAPERS.get(name.strip().lower())
    if size is None:
        raise PrintError(f"unknown paper {name!r}; allowed: {', '.join(PAPERS)}",
                         allowed=tuple(PAPERS))
    return size


@dataclass(frozen=True)
class Grid:
    """A centred grid of card places on one page; places count row by row from the top left."""

    cols: int
    rows: int
    left: float
    bottom: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def place(self, index: int, *, mirrored: bool = False) -> tuple[float, float]:
        """Bottom-left corner of place `index`; `mirrored` for the back of a two-sided sheet."""
        row, col = divmod(index, self.cols)
        if mirrored:
            col = self.cols - 1 - col
        return self.left + col * CARD_W, self.bottom + (self.rows - 1 - row) * CARD_H


def card_grid(page: tuple[float, float]) -> Grid:
    """As many whole cards as fit with room for the crop marks, centred on the page."""
    width, height = page
    room = 2 * (MARK_GAP + MARK_LEN)
    cols = int((width - room) // CARD_W)
    rows = int((height - room) // CARD_H)
    return Grid(cols, rows, (width - cols * CARD_W) / 2, (height - rows * CARD_H) / 2)


def draw_cut_marks(canvas: Canvas, grid: Grid) -> None:
    """Light cut lines along every card edge and black crop marks in the margins."""
    left, bottom = grid.left, grid.bottom
    right, top = left + grid.cols * CARD_W, bottom + grid.rows * CARD_H
    xs = [left + i * CARD_W for i in range(grid.cols + 1)]
    ys = [bottom + j * CARD_H for j in range(grid.rows + 1)]
    canvas.saveState()
    canvas.setLineWidth(0.3)
    canvas.setStrokeGray(CUT_GREY)
    for x in xs:
        canvas.line(x, bottom, x, top)
    for y in ys:
        canvas.line(left, y, right, y)
    canvas.setStrokeGray(0)
    canvas.setLineWidth(0.5)
    for x in xs:
        canvas.line(x, top + MARK_GAP, x, top + MARK_GAP + MARK_LEN)
        canvas.line(x, bottom - MARK_GAP, x, bottom - MARK_GAP - MARK_LEN)
    for y in ys:
        canvas.line(left - MARK_GAP, y, left - MARK_GAP - MARK_LEN, y)
        canvas.line(right + MARK_GAP, y, right + MARK_GAP + MARK_LEN, y)
    canvas.restoreState()
