"""Reading the printed PDFs back in tests: each page's text and size (pypdf)."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader


def pages_text(pdf: bytes) -> list[str]:
    """The text of every page, with runs of white space made single spaces."""
    reader = PdfReader(io.BytesIO(pdf))
    return [re.sub(r"\s+", " ", page.extract_text() or "") for page in reader.pages]


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    """(width, height) in points of every page."""
    reader = PdfReader(io.BytesIO(pdf))
    return [(round(float(p.mediabox.width), 2), round(float(p.mediabox.height), 2))
            for p in reader.pages]
