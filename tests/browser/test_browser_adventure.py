"""A whole three-player Adventure Cards game: two people in two browsers and one computer player.

The people play a sensible, honest strategy computed only from what their own page knows (its
hand, the faces it remembers on the table, and the public events it has been sent): ask for a card
whose holder everyone saw take it, name a table card whose face it has seen, otherwise ask for a
card of the mission it holds most of; after a refused request, peek at a slot it has not seen.
Every move is made by clicking the page (a player or a slot, then a card in the picker).
"""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import last_of, open_table, play_adventure

pytestmark = pytest.mark.browser

def test_whole_adventure_game_two_people_and_a_computer(live_server: Any, new_page: Any,
                                                        output_dir: Any) -> None:
    created = live_server.api("POST", "/api/games", {
        # Ada starts, so nobody has moved when the pages open.
        "game": "adventure", "players": 3, "options": {"first_player": "seat0"},
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Grace"},
                  {"kind": "bot", "bot": "memory", "name": "Robo"}],
        "takeover_after_s": None, "turn_clock_s": None,
    })
    links = {s["seat"]: s["link"] for s in created["seats"] if s["kind"] == "human"}
    ada = open_table(new_page(), live_server.url + links[0])
    grace = open_table(new_page(), live_server.url + links[1])
    watcher = open_table(new_page(), live_server.url + created["watch_link"])

    # Each person sees only their own hand; the watcher sees none.
    for page in (ada, grace):
        hand = last_of(page)["view"]["hand"]
        assert 0 < len(hand) <= 6  # six dealt; a mission dealt complete is claimed at once
        assert page.locator("#hand .hand-card").count() == len(hand)
    assert watcher.locator("#hand .hand-card").count() == 0

    moves = play_adventure([ada, grace])
    assert moves > 5
    watcher.wait_for_function("document.body.dataset.status === 'over'")
    outcome = last_of(ada)["outcome"]
    assert outcome == last_of(grace)["outcome"] == last_of(watcher)["outcome"]
    scores = last_of(watcher)["view"]["scores"]
    assert sum(scores) == 6 or outcome["ended_by_cap"]
    assert ada.locator("#outcome").is_visible()
    assert all(owner is not None for owner in last_of(watcher)["view"]["claimed_by"])
    ada.screenshot(path=str(output_dir / "adventure-table.png"), full_page=True)
