"""The Adventure Cards art file is served to the page (cards.js fetches it) exactly as the
printer reads it, as JSON, under the page's security headers."""

from __future__ import annotations

from starlette.testclient import TestClient

from pocketgalaxy.printing.adventure_art import ART_FILE, load_art, parse_art


def test_the_card_art_is_served_as_the_printer_reads_it(client: TestClient) -> None:
    res = client.get("/static/art/adventure-cards.json")
    assert res.status_code == 200
    assert res.headers["content-type"].startswith("application/json")
    assert "connect-src 'self'" in res.headers["content-security-policy"]
    assert parse_art(res.json(), ART_FILE) == load_art()
