"""Kill -9 the server in the middle of a game, start it again on the same port and database:
the pages notice, show the reconnecting banner, reconnect by themselves and the game goes on
from the last acknowledged move with nothing lost (then computer players take both seats over
and finish it, and the pages follow to the end)."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import (
    act_and_wait,
    choose_move,
    click_move,
    index_of,
    last_of,
    next_mover,
    open_table,
)

pytestmark = pytest.mark.browser


def test_pages_reconnect_after_kill_9_and_the_game_goes_on(live_server: Any,
                                                            new_page: Any) -> None:
    created = live_server.api("POST", "/api/games", {
        "game": "adventure", "players": 2, "options": {"first_player": "seat0"},
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Grace"}],
        "takeover_after_s": None, "turn_clock_s": None,
    })
    game_id = created["game_id"]
    links = {s["seat"]: s["link"] for s in created["seats"]}
    pages = [open_table(new_page(), live_server.url + links[seat]) for seat in (0, 1)]

    # A few moves before the crash.
    for _ in range(5):
        mover = next_mover(pages)
        assert mover is not None
        action = choose_move(mover)
        act_and_wait(mover, lambda m=mover, a=action: click_move(m, a))
    for page in pages:
        page.wait_for_function("([i]) => Number(document.body.dataset.index) >= i",
                               arg=[max(index_of(p) for p in pages)])
    before = [last_of(p) for p in pages]
    index = before[0]["index"]
    assert index >= 5 and before[1]["index"] == index

    live_server.kill()
    for page in pages:
        page.wait_for_function("document.body.dataset.connection === 'reconnecting'")
        assert page.locator("#banner").is_visible()
        assert "reconnecting" in page.locator("#banner").inner_text().lower()

    live_server.start()
    for page in pages:
        page.wait_for_function("document.body.dataset.connection === 'open'")
        page.wait_for_function("([i]) => Number(document.body.dataset.index) === i", arg=[index])
        assert not page.locator("#banner").is_visible()
    after = [last_of(p) for p in pages]
    for old, new in zip(before, after, strict=True):
        assert new["index"] == index
        assert new["view"]["hand"] == old["view"]["hand"]
        assert new["view"]["known"] == old["view"]["known"]
        assert new["view"]["to_act"] == old["view"]["to_act"]
    assert live_server.api("GET", f"/api/games/{game_id}")["index"] == index

    # ...and the game goes on: the people make more moves on the same pages...
    for _ in range(6):
        mover = next_mover(pages)
        if mover is None:
            break
        action = choose_move(mover)
        act_and_wait(mover, lambda m=mover, a=action: click_move(m, a))
    assert max(index_of(p) for p in pages) > index
    # ...then the creator hands both seats to computer players, who finish it; the pages follow.
    for seat in (0, 1):
        live_server.api("POST", f"/api/games/{game_id}/seats/{seat}/takeover",
                        {"bot": "memory"}, token=created["creator_token"])
    for page in pages:
        page.wait_for_function("document.body.dataset.status === 'over'")
        assert page.locator("#outcome").is_visible()
    assert live_server.api("GET", f"/api/games/{game_id}")["status"] == "over"
