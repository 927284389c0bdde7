"""A refused move shows the server's sentence in the player's words (js/util.js `showError`), with
the code and rule kept on the message box, on both tables."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import last_of, open_table

pytestmark = pytest.mark.browser

INTERNAL = ("RequestCard(", "ChooseArchetype(", "seat 0", "target=", "card_in_own_hand",
            "illegal action", "action/")


def _refused(page: Any, action: str) -> Any:
    index = last_of(page)["index"]
    page.evaluate(f"window.__pocketgalaxy.socket.act({action}, window.__pocketgalaxy.last.index)")
    box = page.locator("#action-error")
    box.wait_for(state="visible")
    assert page.evaluate("document.body.dataset.connection") == "open"
    assert last_of(page)["index"] == index  # nothing changed
    return box


def test_adventure_refusal_reads_as_a_sentence(live_server: Any, new_page: Any,
                                               output_dir: Any) -> None:
    created = live_server.api("POST", "/api/games", {
        "game": "adventure", "players": 2, "options": {"first_player": "seat0"},
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "memory"}],
        "takeover_after_s": None, "turn_clock_s": None,
    })
    page = open_table(new_page(), live_server.url + created["seats"][0]["link"])
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    held = last_of(page)["view"]["hand"][0]
    box = _refused(page, f"{{type: 'RequestCard', target: 1, card: '{held}'}}")
    text = " ".join(box.inner_text().split())
    assert text.startswith("Not allowed: You already hold ")
    assert text.endswith(f"{held[1:]}): ask for a card you don't have. (AC-A2)")
    assert not [w for w in INTERNAL if w in text], text
    assert box.get_attribute("data-code") == "action/card_in_own_hand"
    assert box.get_attribute("data-rule") == "AC-A2"
    box.scroll_into_view_if_needed()
    page.screenshot(path=str(output_dir / "words-refusal-adventure.png"))


def test_perils_refusal_reads_as_a_sentence(live_server: Any, new_page: Any,
                                            output_dir: Any) -> None:
    created = live_server.api("POST", "/api/games", {
        "game": "perils", "players": 2,
        "seats": [{"kind": "human", "name": "Vera"}, {"kind": "bot"}],
        "takeover_after_s": None, "turn_clock_s": None,
    })
    page = open_table(new_page({"width": 390, "height": 844}),
                      live_server.url + created["seats"][0]["link"])
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    assert last_of(page)["view"]["phase"] == "archetype"
    box = _refused(page, "{type: 'ChooseArchetype', archetype: 'wizard'}")
    text = " ".join(box.inner_text().split())
    assert text.startswith("Not allowed: 'wizard' is not an archetype of this playsheet: choose ")
    assert text.endswith("(PP-R2)") and "Pilot" in text
    assert not [w for w in INTERNAL if w in text], text
    assert box.get_attribute("data-code") == "action/no_such_archetype"
    box.scroll_into_view_if_needed()
    page.screenshot(path=str(output_dir / "words-refusal-perils-phone.png"))
