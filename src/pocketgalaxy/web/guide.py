"""The "How to play" pages: `/rules` (both games) and `/rules/{game}`, rendered on the server.

The text is the package's guide Markdown (`pocketgalaxy.guides`), the same source the terminal
prints. It is rendered with markdown-it-py with raw HTML switched off, so everything in the
source is escaped and only Markdown's own tags come out. Card pictures in the text (`[8♦]`,
`[▒▒▒]`, `[P5]`) become `<span class="card-pic" data-card=...>` holding the same text; the
page's own script (static/js/guide.js, drawn with cards.js) puts the SVG card in their place.
The pages need no inline script or style, so they work under `script-src 'self'`.

Each page is built once per process (the text cannot change while it runs) in a worker thread:
the routes are plain `def`, so FastAPI runs them off the event loop.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from html import escape
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.games.adventure.content import card_info
from pocketgalaxy.guides import GUIDE_GAMES, Guide, card_pictures, load_guide

router = APIRouter()

MAX_NAME_ECHO = 40
"""An unknown game name is repeated in the refusal only up to this many characters."""

TITLES = {"perils": "Perils & Pathways", "adventure": "Adventure Cards"}


def _split_cards(state: StateCore) -> None:
    """Core rule: cut each text token round its card pictures into `card_picture` tokens."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children: list[Token] = []
        for tok in block.children:
            pictures = card_pictures(tok.content) if tok.type == "text" else []
            if not pictures:
                children.append(tok)
                continue
            pos = 0
            for pic in pictures:
                if pic.start > pos:
                    children.append(_text(tok.content[pos : pic.start]))
                card = Token("card_picture", "", 0)
                card.content = tok.content[pic.start : pic.end]
                card.meta = {"code": pic.code, "kind": pic.kind}
                children.append(card)
                pos = pic.end
            if pos < len(tok.content):
                children.append(_text(tok.content[pos:]))
        block.children = children


def _text(content: str) -> Token:
    tok = Token("text", "", 0)
    tok.content = content
    return tok


def _render_card(
    _self: Any, tokens: Sequence[Token], idx: int, _options: OptionsDict, _env: Any
) -> str:
    tok = tokens[idx]
    code, kind = tok.meta["code"], tok.meta["kind"]
    name = ""
    if kind == "adventure":
        try:
            name = card_info(code).name
        except (KeyError, PocketGalaxyError):
            name = ""
    named = f' data-name="{escape(name)}"' if name else ""
    return (
        f'<span class="card-pic" data-card="{escape(code)}" data-kind="{escape(kind)}"{named}>'
        f"{escape(tok.content)}</span>"
    )


def markdown_renderer() -> MarkdownIt:
    """CommonMark with raw HTML off (escaped instead) and card pictures as `card_picture`."""
    md = MarkdownIt("commonmark", {"html": False})
    md.core.ruler.push("card_pictures", _split_cards)
    md.add_render_rule("card_picture", _render_card)
    return md


def guide_html(guide: Guide, md: MarkdownIt | None = None) -> str:
    """The body of a guide page: the title, the intro, a list of sections, each section."""
    md = md or markdown_renderer()
    toc = "".join(
        f'<li><a href="#{escape(s.id)}">{escape(s.title)}</a></li>' for s in guide.sections
    )
    sections = "".join(
        f'<section id="{escape(s.id)}" aria-labelledby="h-{escape(s.id)}">'
        f'<h2 id="h-{escape(s.id)}">{escape(s.title)}</h2>{md.render(s.text)}</section>'
        for s in guide.sections
    )
    return (
        f'<header class="guide-head"><h1>{escape(guide.title)}</h1>{md.render(guide.intro)}'
        f"</header>"
        f'<nav class="guide-toc panel" aria-label="Sections of this guide"><ol>{toc}</ol></nav>'
        f'<div class="guide-text">{sections}</div>'
        f'<p class="guide-foot muted small">In the terminal: <code>pocketgalaxy rules '
        f"{escape(guide.game)}</code> prints this guide, and <code>pocketgalaxy rules "
        f"{escape(guide.game)} --options</code> lists every rule option.</p>"
    )


def _nav(current: str | None) -> str:
    links = []
    for game in GUIDE_GAMES:
        mark = ' aria-current="page"' if game == current else ""
        links.append(f'<a href="/rules/{game}"{mark}>{escape(TITLES[game])}</a>')
    return (
        '<nav class="guide-nav" aria-label="Pocket Galaxy">'
        '<a href="/">&#10022; Pocket Galaxy lobby</a>'
        f'<span class="muted">How to play:</span> {" · ".join(links)}</nav>'
    )


def page(title: str, body: str, *, game: str | None = None) -> str:
    """A whole HTML page round `body` (already HTML), with the shared styles and card script."""
    data_game = f' data-game="{escape(game)}"' if game else ""
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<link rel="icon" href="data:,">\n'
        f"<title>{escape(title)}</title>\n"
        '<link rel="stylesheet" href="/static/css/base.css">\n'
        '<link rel="stylesheet" href="/static/css/guide.css">\n'
        '<script type="module" src="/static/js/guide.js"></script>\n'
        "</head>\n"
        f'<body class="guide"{data_game}>\n'
        '<a class="skip-link" href="#main">Skip to the guide</a>\n'
        f"{_nav(game)}\n"
        f'<main id="main" class="guide-main">{body}</main>\n'
        "</body>\n</html>\n"
    )


@functools.cache
def guide_page(game: str) -> str:
    """The page of one game's guide (only ever called with a name from GUIDE_GAMES)."""
    guide = load_guide(game)
    return page(f"{TITLES[game]}: how to play · Pocket Galaxy", guide_html(guide), game=game)


@functools.cache
def index_page() -> str:
    """`/rules`: each game's title and intro, with a link to its guide."""
    md = markdown_renderer()
    items = []
    for game in GUIDE_GAMES:
        guide = load_guide(game)
        items.append(
            f'<li class="panel"><h2><a href="/rules/{game}">{escape(TITLES[game])}</a></h2>'
            f"{md.render(guide.intro)}</li>"
        )
    body = (
        '<header class="guide-head"><h1>How to play</h1></header>'
        f'<ul class="guide-list">{"".join(items)}</ul>'
    )
    return page("How to play · Pocket Galaxy", body)


def _unknown(name: str) -> str:
    shown = name if len(name) <= MAX_NAME_ECHO else name[:MAX_NAME_ECHO] + "…"
    links = "".join(
        f'<li><a href="/rules/{game}">{escape(TITLES[game])}</a> (<code>{game}</code>)</li>'
        for game in GUIDE_GAMES
    )
    body = (
        '<header class="guide-head"><h1>No such guide</h1></header>'
        f'<div class="error-box" role="alert"><p>There is no guide for '
        f"<code>{escape(shown)}</code>. The guides are:</p><ul>{links}</ul></div>"
    )
    return page("No such guide · Pocket Galaxy", body)


@router.get("/rules", include_in_schema=False)
def rules_index() -> HTMLResponse:
    return HTMLResponse(index_page())


@router.get("/rules/{game}", include_in_schema=False)
def rules_page(game: str) -> HTMLResponse:
    if game not in GUIDE_GAMES:
        return HTMLResponse(_unknown(game), status_code=404)
    return HTMLResponse(guide_page(game))
