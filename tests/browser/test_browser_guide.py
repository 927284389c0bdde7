"""The How to play pages in Chromium: followed from the lobby, the table and the replay, with the
real SVG cards drawn in the text, under a strict Content-Security-Policy."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import open_table

pytestmark = pytest.mark.browser

STRICT_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'"
)


def _strict(page: Any) -> None:
    """Serve every /rules page with a strict policy (no inline script or style)."""

    def handle(route: Any) -> None:
        response = route.fetch()
        headers = {**response.headers, "content-security-policy": STRICT_CSP}
        route.fulfill(response=response, headers=headers)

    page.route("**/rules/**", handle)


def _cards_drawn(page: Any) -> int:
    page.wait_for_function("document.body.dataset.cardsDrawn === '1'")
    spans = page.locator(".card-pic").count()
    drawn = page.locator(".card-pic svg.card-svg").count()
    assert spans == drawn and drawn > 0
    return drawn


def test_lobby_link_opens_the_perils_guide_with_real_cards(
    live_server: Any, new_page: Any, output_dir: Any
) -> None:
    page = new_page()
    _strict(page)
    violations: list[str] = []
    page.on("console", lambda msg: violations.append(msg.text) if "Content Security" in msg.text
            else None)
    page.goto(live_server.url + "/")
    page.locator(".guide-links a", has_text="Perils & Pathways").click()
    page.wait_for_url("**/rules/perils")
    assert page.locator("h1").inner_text() == "Perils & Pathways: how to play"
    assert page.locator("#facing-a-peril h2").inner_text() == "Facing a peril"
    assert _cards_drawn(page) >= 10
    page.locator("#example-a-round-in-the-maze").scroll_into_view_if_needed()
    page.screenshot(path=str(output_dir / "guide-perils.png"), full_page=False)
    # The worked example's peril is a real drawn card with its name for screen readers.
    assert page.locator('.card-pic[data-card="7D"] svg[aria-label="7 of diamonds"]').count() >= 1
    page.locator(".guide-toc a", has_text="The showdown").click()
    page.wait_for_url("**/rules/perils#the-showdown-and-the-end")
    assert not violations, violations


def test_table_link_opens_its_games_guide(
    live_server: Any, new_page: Any, output_dir: Any
) -> None:
    created = live_server.api("POST", "/api/games", {
        "game": "adventure", "players": 2,
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        "takeover_after_s": None, "turn_clock_s": None,
    })
    page = open_table(new_page(), live_server.url + created["watch_link"])
    link = page.locator("#rules-link")
    page.wait_for_function("document.getElementById('rules-link').href.endsWith('/rules/adventure')")
    with page.context.expect_page() as opened:
        link.click()
    guide = opened.value
    _strict(guide)
    guide.wait_for_load_state()
    guide.reload()  # again, now under the strict policy
    assert guide.url.endswith("/rules/adventure")
    assert guide.locator("h1").inner_text() == "Adventure Cards: how to play"
    assert _cards_drawn(guide) >= 8
    assert guide.locator('.card-pic[data-card="S2"] svg[aria-label^="Paper Comet"]').count() >= 1
    guide.locator("#example-a-good-turn").scroll_into_view_if_needed()
    guide.screenshot(path=str(output_dir / "guide-adventure.png"), full_page=False)
    # The table stayed open in its own tab.
    assert page.url.startswith(live_server.url + "/play/")


def test_replay_links_to_its_games_guide(live_server: Any, new_page: Any) -> None:
    created = live_server.api("POST", "/api/games", {
        "game": "perils", "players": 2, "options": {"teller_policy": "approve_all"},
        "seats": [{"kind": "bot", "bot": "rulebased"}, {"kind": "bot", "bot": "teller"}],
        "takeover_after_s": None, "turn_clock_s": None,
    })
    game_id = created["game_id"]
    page = new_page()
    page.goto(live_server.url + f"/play/{game_id}")
    page.wait_for_function("document.body.dataset.status === 'over'")
    page.goto(live_server.url + f"/replay/{game_id}")
    page.wait_for_function("document.getElementById('rules-link').href.endsWith('/rules/perils')")
    page.goto(live_server.url + (page.locator("#rules-link").get_attribute("href") or ""))
    assert page.locator("h1").inner_text() == "Perils & Pathways: how to play"
