"""Text for ReportLab paragraphs: people's words escaped, suit signs drawn in the Symbol font,
and the paragraph styles every printed page shares."""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle

from pocketgalaxy.core.cards import card

SUIT_SIGNS = {"D": "\u2666", "C": "\u2663", "H": "\u2665", "S": "\u2660"}
RED = "#c62828"
INK = HexColor("#1b1b1b")
MUTED = HexColor("#555555")
_SIGN = re.compile(r"\{([DCHS])\}")


def suit(letter: str) -> str:
    """Paragraph markup of one suit sign, red for diamonds and hearts."""
    colour = RED if letter in ("D", "H") else "#1b1b1b"
    return f'<font name="Symbol" color="{colour}">{SUIT_SIGNS[letter]}</font>'


def rich(text: str) -> str:
    """Escape `text` for a paragraph and turn `{D}`-style marks into suit signs."""
    return _SIGN.sub(lambda m: suit(m.group(1)), escape(text))


def card_markup(code: str) -> str:
    """Paragraph markup of a card code: `8D` -> 8 and a red diamond; `JK1` -> Joker 1."""
    c = card(code)
    if c.suit is None:
        return escape(c.label)
    return escape(c.label[:-1]) + suit(c.suit.value)


def styles() -> dict[str, ParagraphStyle]:
    """The paragraph styles of the printed pages (Helvetica, dark ink on white)."""
    base = ParagraphStyle("body", fontName="Helvetica", fontSize=9.5, leading=12.5,
                          textColor=INK)
    return {
        "body": base,
        "title": ParagraphStyle("title", parent=base, fontName="Helvetica-Bold", fontSize=17,
                                leading=21, spaceAfter=4),
        "sheet": ParagraphStyle("sheet", parent=base, fontName="Helvetica-Bold", fontSize=11,
                                leading=14, textColor=MUTED, spaceAfter=2),
        "heading": ParagraphStyle("heading", parent=base, fontName="Helvetica-Bold",
                                  fontSize=12, leading=15, spaceBefore=8, spaceAfter=3),
        "bullet": ParagraphStyle("bullet", parent=base, leftIndent=12, bulletIndent=2,
                                 spaceAfter=2),
        "cell": ParagraphStyle("cell", parent=base, fontSize=8.5, leading=10.5),
        "cellhead": ParagraphStyle("cellhead", parent=base, fontName="Helvetica-Bold",
                                   fontSize=8.5, leading=10.5),
        "note": ParagraphStyle("note", parent=base, fontSize=8.5, leading=11, textColor=MUTED),
        "caption": ParagraphStyle("caption", parent=base, fontSize=8, leading=10,
                                  textColor=MUTED),
    }
