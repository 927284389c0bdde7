"""The How to play pages: `/rules`, `/rules/{game}`; escaping; no inline script or style; the
links to them from the lobby and the table pages."""

from __future__ import annotations

import inspect
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pocketgalaxy.guides import GUIDE_GAMES, card_pictures, load_guide, parse_guide
from pocketgalaxy.web import guide as web_guide

STATIC = Path(web_guide.__file__).parent / "static"


class _Tags(HTMLParser):
    """Every start tag with its attributes, and the text of each <script> element."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.script_text: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.script_text.append(data)


def _tags(html: str) -> _Tags:
    parser = _Tags()
    parser.feed(html)
    return parser


def assert_strict_csp_friendly(html: str) -> None:
    """No inline script, no style attribute, no inline event handler, no <style> element."""
    parsed = _tags(html)
    assert not parsed.script_text, "inline script"
    for tag, attrs in parsed.tags:
        assert tag != "style", "a <style> element"
        assert "style" not in attrs, f"style attribute on <{tag}>"
        assert not [a for a in attrs if a.startswith("on")], f"event handler on <{tag}>"
        if tag == "script":
            assert (attrs.get("src") or "").startswith("/static/"), "script from elsewhere"


@pytest.mark.parametrize("game", GUIDE_GAMES)
def test_guide_page_is_html_with_every_section(client: TestClient, game: str) -> None:
    res = client.get(f"/rules/{game}")
    assert res.status_code == 200
    assert res.headers["content-type"].startswith("text/html")
    html = res.text
    guide = load_guide(game)
    assert f"<h1>{guide.title.replace('&', '&amp;')}</h1>" in html
    for section in guide.sections:
        title = section.title.replace("&", "&amp;")
        assert f'<h2 id="h-{section.id}">{title}</h2>' in html
        assert f'href="#{section.id}"' in html  # the list of sections links to it
    # Every card picture of the source became a span the page's script draws as a card.
    spans = re.findall(r'<span class="card-pic" data-card="([^"]+)"', html)
    assert spans == [p.code for p in card_pictures(guide.intro + "".join(
        s.text for s in guide.sections))]
    assert '<script type="module" src="/static/js/guide.js"></script>' in html
    assert 'href="/static/css/guide.css"' in html and 'href="/"' in html
    assert_strict_csp_friendly(html)


def test_adventure_cards_carry_their_illustration_name(client: TestClient) -> None:
    html = client.get("/rules/adventure").text
    assert '<span class="card-pic" data-card="S2" data-kind="adventure" data-name="Paper Comet">' \
        '[S2]</span>' in html


def test_index_links_both_guides(client: TestClient) -> None:
    res = client.get("/rules")
    assert res.status_code == 200 and res.headers["content-type"].startswith("text/html")
    for game in GUIDE_GAMES:
        assert f'href="/rules/{game}"' in res.text
    assert_strict_csp_friendly(res.text)


def test_unknown_guide_is_404_and_escapes_the_name(client: TestClient) -> None:
    res = client.get("/rules/%3Cb%20onclick=%22x%22%3Echess%26")
    assert res.status_code == 404
    assert "<b onclick" not in res.text
    assert "<code>&lt;b onclick=&quot;x&quot;&gt;chess&amp;</code>" in res.text
    assert 'href="/rules/perils"' in res.text and 'href="/rules/adventure"' in res.text
    assert_strict_csp_friendly(res.text)
    long = client.get("/rules/" + "x" * 500)
    assert long.status_code == 404
    assert "x" * (web_guide.MAX_NAME_ECHO + 1) not in long.text


def test_the_page_script_and_style_are_served(client: TestClient) -> None:
    js = client.get("/static/js/guide.js")
    assert js.status_code == 200 and "from \"./cards.js\"" in js.text
    assert client.get("/static/css/guide.css").status_code == 200


def test_markdown_is_escaped_and_raw_html_never_passes() -> None:
    source = (
        '# T <b>"x"</b>\nintro <img src=x onerror=alert(1)>\n'
        '## A & <i>B</i>\n<script>alert(1)</script>\n\n'
        "[click](javascript:alert(1)) and <a href=\"/\" style=\"color:red\">x</a> [8♦]\n"
    )
    html = web_guide.guide_html(parse_guide("perils", source))
    assert "<script>" not in html and "<img" not in html and "<i>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert 'href="javascript:' not in html
    assert "<h1>T &lt;b&gt;&quot;x&quot;&lt;/b&gt;</h1>" in html
    assert '<h2 id="h-a-i-b-i">A &amp; &lt;i&gt;B&lt;/i&gt;</h2>' in html
    assert '<span class="card-pic" data-card="8D" data-kind="playing">[8♦]</span>' in html
    assert_strict_csp_friendly(html)


def test_card_pictures_in_code_stay_text() -> None:
    html = web_guide.guide_html(parse_guide("perils", "# T\n## S\n`[8♦]` and [8♦]\n"))
    assert "<code>[8♦]</code>" in html
    assert html.count('class="card-pic"') == 1


def test_pages_are_built_off_the_event_loop() -> None:
    # Plain functions: FastAPI runs them in its thread pool, never on the event loop.
    assert not inspect.iscoroutinefunction(web_guide.rules_page)
    assert not inspect.iscoroutinefunction(web_guide.rules_index)


def test_lobby_and_table_pages_link_to_the_guides() -> None:
    lobby = (STATIC / "index.html").read_text(encoding="utf-8")
    for game in GUIDE_GAMES:
        assert f'href="/rules/{game}"' in lobby
    for name, script in (("play.html", "play.js"), ("replay.html", "replay.js")):
        page = (STATIC / name).read_text(encoding="utf-8")
        link = next(a for t, a in _tags(page).tags if a.get("id") == "rules-link")
        assert link["href"] == "/rules"  # before the game is known: both guides
        code = (STATIC / "js" / script).read_text(encoding="utf-8")
        # ...and once the page knows its game, the link goes to that game's guide.
        assert re.search(r'\$\("rules-link"\)\.href = `/rules/\$\{[\w.]+\}`', code)
    for name in ("index.html", "play.html", "replay.html"):
        assert_strict_csp_friendly((STATIC / name).read_text(encoding="utf-8"))


def test_served_table_pages_carry_the_link(client: TestClient) -> None:
    for path in ("/", "/play/abc", "/replay/abc"):
        res = client.get(path)
        assert res.status_code == 200
        assert 'href="/rules' in res.text
