"""A Perils & Pathways playsheet to print: any theme file, in the layout of the seed's sheets.

Playsheet 1: A. archetypes and their four cards, B. the skills of the suits, C. prize ideas.
Playsheet 2: A. the Big Bads, B. peril ideas by suit and difficulty (low 2-4, mid 5-7, high
8-10). Playsheet 3: A. useful items by face card and joker, B. healing gifts. Then the rules on
one page. The text is the theme's own (names, blurbs, the names of its things); ReportLab's
platypus lays it out, so a theme with more to say flows onto more pages.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    PageBreak,
    PageTemplate,
    Paragraph,
    Table,
    TableStyle,
)

from pocketgalaxy.core.cards import card
from pocketgalaxy.games.perils.content import ITEM_CODES, SKILL_SUITS, Theme, load_theme
from pocketgalaxy.games.perils.things import Thing
from pocketgalaxy.printing.output import check_target, write_atomically
from pocketgalaxy.printing.paper import paper_size
from pocketgalaxy.printing.summary import summary_page
from pocketgalaxy.printing.text import card_markup, rich, styles, suit

MARGIN = 16 * mm
BANDS: tuple[tuple[str, int, int], ...] = (("low", 2, 4), ("mid", 5, 7), ("high", 8, 10))
"""The difficulty bands of the peril table: name, lowest and highest value."""
_GRID = colors.HexColor("#b8b8b8")
_HEAD = colors.HexColor("#ecebe6")

Styles = dict[str, ParagraphStyle]


def print_perils(theme: str, out: str | Path, *, paper: str = "a4") -> Path:
    """Write the playsheet of `theme` (a bundled id or a .toml path) to `out`; return the path.
    Raises ContentError for a broken or unknown theme and PrintError for a refused paper or
    path, in both cases before anything is written."""
    page = paper_size(paper)
    target = check_target(out)
    the_theme = load_theme(theme)
    write_atomically(target, perils_pdf(the_theme, page))
    return target


def perils_pdf(theme: Theme, page: tuple[float, float]) -> bytes:
    """The whole playsheet PDF as bytes, for a page size in points."""
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer, pagesize=page, invariant=1, leftMargin=MARGIN, rightMargin=MARGIN,
        topMargin=MARGIN, bottomMargin=MARGIN, title=f"Perils & Pathways: {theme.title}",
        author="Pocket Galaxy", subject="A playsheet and the rules on one page",
    )
    frame = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, id="body")
    doc.addPageTemplates([PageTemplate("sheet", [frame], onPage=_footer(theme))])
    st = styles()
    story: list[Flowable] = []
    story += _sheet_one(theme, st, doc.width)
    story.append(PageBreak())
    story += _sheet_two(theme, st, doc.width)
    story.append(PageBreak())
    story += _sheet_three(theme, st, doc.width)
    story.append(PageBreak())
    story.append(summary_page("perils", st, doc.width - 12, doc.height - 12))
    doc.build(story)
    return buffer.getvalue()


def _footer(theme: Theme) -> Callable[[Canvas, BaseDocTemplate], None]:
    def draw(canvas: Canvas, doc: BaseDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 7.5)
        canvas.setFillGray(0.35)
        canvas.drawString(MARGIN, MARGIN / 2, f"Perils & Pathways · {theme.title}")
        canvas.drawRightString(doc.pagesize[0] - MARGIN, MARGIN / 2, f"page {doc.page}")
        canvas.restoreState()

    return draw


def _header(number: int, theme: Theme, st: Styles) -> list[Flowable]:
    return [
        Paragraph(f"Playsheet {number}", st["sheet"]),
        Paragraph(rich(theme.title), st["title"]),
    ]


def _table(rows: list[list[object]], widths: list[float]) -> Table:
    table = Table(rows, colWidths=widths, repeatRows=1)
    table.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.5, _GRID),
        ("BACKGROUND", (0, 0), (-1, 0), _HEAD),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
    ]))
    return table


def _sheet_one(theme: Theme, st: Styles, width: float) -> list[Flowable]:
    P = _para(st)
    out = _header(1, theme, st)
    out.append(P(rich(theme.intro), "body"))
    out.append(P("A. Archetypes", "heading"))
    out.append(P("The Hero takes one archetype's four cards out of the deck: each skill card's "
                 "value is the starting level in its skill, and the " + suit("H") + " card "
                 "holds the wounds (health starts at 3).", "note"))
    rows: list[list[object]] = [[P("Archetype", "cellhead"), P("Cards", "cellhead"),
                                 P("Starting skills", "cellhead")]]
    for a in theme.archetypes:
        cards = sorted(a.cards, key=lambda c: "DCSH".index(c[-1]) if c[-1] in "DCSH" else 4)
        levels = [f"{escape(theme.skill_name(c[-1]))} {card(c).rank}" for c in cards
                  if card(c).is_number and c[-1] in SKILL_SUITS]
        rows.append([
            P(f"<b>{escape(a.name)}</b><br/>{escape(a.blurb)}", "cell"),
            P("&nbsp; ".join(card_markup(c) for c in cards), "cell"),
            P(", ".join(levels), "cell"),
        ])
    out.append(_table(rows, [width * 0.5, width * 0.22, width * 0.28]))
    out.append(P("B. Skills", "heading"))
    rows = [[P("Suit", "cellhead"), P("Skill", "cellhead"), P("What it covers", "cellhead")]]
    for s in SKILL_SUITS:
        skill = theme.skills[s]
        rows.append([P(suit(s), "cell"), P(f"<b>{escape(skill.name)}</b>", "cell"),
                     P(escape(skill.blurb), "cell")])
    heart = theme.skills["H"]
    rows.append([P(suit("H"), "cell"), P("<b>Health</b>", "cell"),
                 P(f"Wounds are tucked behind this card. With the rule option heart_is_skill "
                   f"it is also a fourth skill, <b>{escape(heart.name)}</b>, for channelling. "
                   f"{escape(heart.blurb)}", "cell")])
    out.append(_table(rows, [width * 0.1, width * 0.2, width * 0.7]))
    out.append(P("C. The Prize", "heading"))
    out.append(P("The A" + suit("H") + " lies at the bottom of the stack. Agree together what "
                 "the Hero is searching for, or pick an idea:", "note"))
    out += [Paragraph(rich(p), st["bullet"], bulletText="\u2022")
            for p in theme.prizes]
    return out


def _sheet_two(theme: Theme, st: Styles, width: float) -> list[Flowable]:
    P = _para(st)
    out = _header(2, theme, st)
    out.append(P("A. The Big Bads", "heading"))
    out.append(P("The three aces guard the Prize. Each is a peril of its suit with a difficulty "
                 "of 11, faced in the showdown at the end.", "note"))
    rows: list[list[object]] = [[P("Card", "cellhead"), P("Big Bad", "cellhead"),
                                 P("Tests", "cellhead")]]
    for code in ("AD", "AC", "AS"):
        bad = theme.big_bads[code]
        rows.append([P(card_markup(code), "cell"),
                     P(f"<b>{escape(bad.name)}</b><br/>{escape(bad.blurb)}", "cell"),
                     P(f"{escape(theme.skill_name(code[-1]))}, difficulty 11", "cell")])
    out.append(_table(rows, [width * 0.1, width * 0.65, width * 0.25]))
    out.append(P("B. Perils by suit and difficulty", "heading"))
    out.append(P("A " + " ".join(suit(s) for s in SKILL_SUITS) + " card from 2 to 10 is a "
                 "peril: its suit is the skill it tests, its value how hard it is. Ideas for "
                 "each, with the values they suit:", "note"))
    header: list[object] = [P("Skill", "cellhead")]
    header += [P(f"{name.capitalize()} ({low}-{high})", "cellhead") for name, low, high in BANDS]
    rows = [header]
    for s in SKILL_SUITS:
        row: list[object] = [P(f"{suit(s)} <b>{escape(theme.skill_name(s))}</b>", "cell")]
        for _name, low, high in BANDS:
            fitting = [t for t in _things(theme, "peril") if s in t.suits
                       and t.difficulty[0] <= high and t.difficulty[1] >= low]
            row.append(P("<br/>".join(_idea(t) for t in fitting) or "-", "cell"))
        rows.append(row)
    out.append(_table(rows, [width * 0.16] + [width * 0.28] * 3))
    return out


def _sheet_three(theme: Theme, st: Styles, width: float) -> list[Flowable]:
    P = _para(st)
    out = _header(3, theme, st)
    out.append(P("A. Useful items", "heading"))
    out.append(P("Jacks, queens, kings and jokers are items. The Hero keeps each one for a "
                 "single later use: +1 to a roll when the plan really uses it.", "note"))
    rows: list[list[object]] = [[P("Card", "cellhead"), P("Item", "cellhead")]]
    for code in ITEM_CODES:
        item = theme.items[code]
        rows.append([P(card_markup(code), "cell"),
                     P(f"<b>{escape(item.name)}</b>: {escape(item.blurb)}", "cell")])
    out.append(_table(rows, [width * 0.14, width * 0.86]))
    gifts = [Paragraph(rich(_display(t.name)) + _range(t), st["bullet"],
                       bulletText="\u2022") for t in _things(theme, "gift")]
    out.append(KeepTogether([
        P("B. Healing gifts", "heading"),
        P("A " + suit("H") + " card from 2 to 10 is a healing gift: no danger and no roll, "
          "and +1 health if the Hero has less than 3.", "note"),
        *gifts,
    ]))
    return out


def _para(st: Styles) -> Callable[[str, str], Paragraph]:
    def make(markup: str, style: str) -> Paragraph:
        return Paragraph(markup, st[style])

    return make


def _things(theme: Theme, kind: str) -> list[Thing]:
    """A kind's things in a stable order: by lowest difficulty, then id."""
    return sorted((t for t in theme.things.values() if t.kind == kind),
                  key=lambda t: (t.difficulty, t.id))


def _display(name: str) -> str:
    return name[:1].upper() + name[1:]


def _range(thing: Thing) -> str:
    low, high = thing.difficulty
    return "" if (low, high) == (2, 10) else f" ({low}-{high})"


def _idea(thing: Thing) -> str:
    return rich(_display(thing.name)) + f" ({thing.difficulty[0]}-{thing.difficulty[1]})"
