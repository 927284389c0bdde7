"""The reference images of the print tests: which page of which PDF, rendered how, compared how.

A test renders one page with pypdfium2 at `SCALE` (a small image: 72 dpi x SCALE) and compares
it with the PNG stored in tests/printing/data/ by `differs`:
- the mean absolute difference over all pixels and channels is at most `MEAN_TOLERANCE` (of 255),
- and at most `PIXEL_SHARE` of the pixels differ by more than `PIXEL_TOLERANCE` in any channel.
That forgives anti-aliasing and hinting differences between PDFium builds, not a moved card, a
missing table row or a changed colour. After an intended change of the printed pages, rebuild the
images and look at them before committing:

    .venv/bin/python tests/printing/printrefs.py
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
import pypdfium2
from PIL import Image

DATA = Path(__file__).resolve().parent / "data"
ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "test-output"
SCALE = 0.5
MEAN_TOLERANCE = 2.0
PIXEL_TOLERANCE = 64
PIXEL_SHARE = 0.005

CASES = {
    # reference file -> (which PDF, page number from 1)
    "perils-cosmic-a4-p1.png": ("perils", 1),
    "adventure-a4-p2.png": ("adventure", 2),
}


def build(which: str, paper: str = "a4") -> bytes:
    """The PDF a case is taken from, built in memory."""
    from pocketgalaxy.games.perils.content import load_theme
    from pocketgalaxy.printing.adventure import adventure_pdf
    from pocketgalaxy.printing.paper import paper_size
    from pocketgalaxy.printing.perils import perils_pdf

    if which == "perils":
        return perils_pdf(load_theme("cosmic"), paper_size(paper))
    return adventure_pdf(paper_size(paper))


def render(pdf: bytes, page: int, scale: float = SCALE) -> Image.Image:
    """Page `page` (from 1) of a PDF as an RGB image."""
    document = pypdfium2.PdfDocument(io.BytesIO(pdf))
    try:
        image: Image.Image = document[page - 1].render(scale=scale).to_pil().convert("RGB")
        return image
    finally:
        document.close()


def differs(got: Image.Image, want: Image.Image) -> str | None:
    """None when the images agree within the tolerances, else what is different."""
    if got.size != want.size:
        return f"size {got.size} != reference {want.size}"
    a = np.asarray(got, dtype=np.int16)
    b = np.asarray(want.convert("RGB"), dtype=np.int16)
    diff = np.abs(a - b)
    mean = float(diff.mean())
    share = float((diff.max(axis=2) > PIXEL_TOLERANCE).mean())
    if mean > MEAN_TOLERANCE or share > PIXEL_SHARE:
        return (f"mean difference {mean:.2f} (at most {MEAN_TOLERANCE}), pixels off by more "
                f"than {PIXEL_TOLERANCE}: {share:.2%} (at most {PIXEL_SHARE:.1%})")
    return None


def main() -> int:
    DATA.mkdir(exist_ok=True)
    built: dict[str, bytes] = {}
    for name, (which, page) in CASES.items():
        pdf = built.setdefault(which, build(which))
        render(pdf, page).save(DATA / name, optimize=True)
        print(f"wrote {DATA / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
