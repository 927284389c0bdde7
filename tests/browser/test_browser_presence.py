"""The seat bar follows `presence` messages: a watcher's page shows a person come and go."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import open_table

pytestmark = pytest.mark.browser


def test_the_seat_bar_shows_a_person_arrive_and_leave(live_server: Any, new_page: Any) -> None:
    created = live_server.api("POST", "/api/games", {
        "game": "adventure", "players": 2,
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Grace"}],
        "takeover_after_s": None, "turn_clock_s": None,
    })
    watcher = open_table(new_page(), live_server.url + created["watch_link"])
    chip = watcher.locator("#seat-bar .seat-chip[data-seat='0']")
    assert "offline" in (chip.get_attribute("class") or "")
    index = watcher.evaluate("document.body.dataset.index")

    ada = open_table(new_page(), live_server.url + created["seats"][0]["link"])
    watcher.wait_for_selector("#seat-bar .seat-chip[data-seat='0'].online")
    assert "(connected)" in chip.inner_text()
    assert watcher.evaluate("document.body.dataset.index") == index  # no new position
    ada.close()
    watcher.wait_for_selector("#seat-bar .seat-chip[data-seat='0'].offline")
    assert "(not connected)" in chip.inner_text()
