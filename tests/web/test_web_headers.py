"""Security headers on every response (web/headers.py), and pages the policy does not break."""

from __future__ import annotations

import logging
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pocketgalaxy.web.headers import DOCS_POLICY, PAGE_POLICY
from pocketgalaxy.web.server import STATIC

EXPECTED = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}


def _secured(res, policy: str = PAGE_POLICY) -> None:
    for name, value in EXPECTED.items():
        assert res.headers.get(name) == value, (res.request.url, name)
    assert res.headers.get("content-security-policy") == policy


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/", 200),
        ("GET", "/play/abc", 200),
        ("GET", "/replay/abc", 200),
        ("GET", "/static/js/util.js", 200),
        ("GET", "/static/css/base.css", 200),
        ("GET", "/api/themes", 200),
        ("GET", "/openapi.json", 200),
        ("GET", "/nope", 404),
        ("GET", "/static/nope.js", 404),
        ("GET", "/api/games/nope", 404),
        ("POST", "/api/games", 400),
    ],
)
def test_every_response_carries_the_headers(client, method, path, status):
    res = client.request(method, path, content=b"{}" if method == "POST" else None)
    assert res.status_code == status
    _secured(res)


def test_the_policy_forbids_inline_script_framing_and_plugins():
    parts = dict(p.split(" ", 1) for p in PAGE_POLICY.split("; "))
    assert parts["script-src"] == "'self'" and parts["style-src"] == "'self'"
    assert parts["frame-ancestors"] == "'none'" and parts["object-src"] == "'none'"
    assert parts["base-uri"] == "'none'"
    assert "unsafe" not in PAGE_POLICY


def test_refusals_from_middleware_carry_the_headers(tmp_path):
    from starlette.testclient import TestClient

    from pocketgalaxy.web.server import create_app
    from pocketgalaxy.web.settings import Settings

    settings = Settings(data_dir=tmp_path, client_requests_per_s=0.001, client_requests_burst=1)
    with TestClient(create_app(settings)) as client:
        big = client.post("/api/games", content=b"x" * (settings.max_message_bytes + 1))
        assert big.status_code == 413
        _secured(big)
        limited = client.get("/api/themes")
        assert limited.status_code == 429 and limited.headers["Retry-After"]
        _secured(limited)


def test_an_unexpected_failure_is_a_json_500_with_the_headers(client, hub, monkeypatch, caplog):
    def broken(**_kw):
        raise RuntimeError("a bug")

    monkeypatch.setattr(hub, "lobby", broken)
    with caplog.at_level(logging.ERROR):
        res = client.get("/api/games")
    assert res.status_code == 500
    assert res.json()["error"]["code"] == "server/error"
    _secured(res)
    assert any(r.exc_info and isinstance(r.exc_info[1], RuntimeError) for r in caplog.records)


def test_the_api_docs_pages_get_their_own_policy(client):
    res = client.get("/docs")
    assert res.status_code == 200
    _secured(res, DOCS_POLICY)


class _InlineFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self._in_inline_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {k for k, _ in attrs}
        if tag == "script" and "src" not in names:
            self._in_inline_script = True
            self.problems.append("inline <script>")
        if tag == "style":
            self.problems.append("inline <style>")
        for name in names:
            if name.startswith("on") or name == "style":
                self.problems.append(f"{tag} attribute {name}")

    def handle_data(self, data: str) -> None:
        if "javascript:" in data.lower():
            self.problems.append("javascript: URL")


@pytest.mark.parametrize("page", sorted(p.name for p in Path(STATIC).glob("*.html")))
def test_pages_hold_no_inline_script_handler_or_style(page):
    finder = _InlineFinder()
    finder.feed((Path(STATIC) / page).read_text(encoding="utf-8"))
    assert finder.problems == []


def test_scripts_never_set_a_style_attribute():
    """The CSP refuses style attributes; scripts style through classes or the CSSOM."""
    for js in sorted(Path(STATIC, "js").glob("*.js")):
        text = js.read_text(encoding="utf-8")
        assert 'setAttribute("style"' not in text and "setAttribute('style'" not in text, js
        assert "innerHTML" not in text.replace("without innerHTML", ""), js
