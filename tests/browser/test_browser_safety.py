"""Everything people type reaches other people as text: names, pathway descriptions and plans
carrying markup (`<img src=x onerror=...>`, `<script>`) are shown literally and nothing runs."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import act_and_wait, hero_move, legal_of, next_mover, open_table

pytestmark = pytest.mark.browser

IMG = "<img src=x onerror=window.__pwned=1>"
SCRIPT = "<script>window.__pwned=1</script>"


def _no_markup_ran(page: Any) -> None:
    assert page.evaluate("window.__pwned") is None
    assert page.locator("#table img, #seat-bar img, #log img").count() == 0
    assert page.locator("body script:not([type=module])").count() == 0


def test_script_bearing_texts_are_shown_as_text(live_server: Any, new_page: Any) -> None:
    created = live_server.api("POST", "/api/games", {
        "game": "perils", "players": 2, "options": {"teller_policy": "human"},
        "seats": [{"kind": "human", "name": IMG}, {"kind": "human"}],
        "takeover_after_s": None, "turn_clock_s": None,
    })
    game_id = created["game_id"]
    hero = open_table(new_page(), live_server.url + created["seats"][0]["link"])

    # The Teller joins from the lobby with a script-bearing name.
    lobby = new_page()
    lobby.goto(live_server.url + "/")
    lobby.wait_for_selector("body[data-ready='1']")
    entry = lobby.locator(f"li.game-item[data-game-id='{game_id}']")
    entry.locator("form.join-form[data-seat='1'] input").fill(SCRIPT)
    entry.locator("form.join-form[data-seat='1'] button").click()
    lobby.wait_for_url(f"**/play/{game_id}?seat=1")
    teller = lobby
    teller.wait_for_function("document.body.dataset.index !== undefined")
    watcher = open_table(new_page(), live_server.url + created["watch_link"])

    # Play until the Hero has written a plan, with markup in every description and plan.
    plans = 0
    for _ in range(80):
        if plans:
            break
        mover = next_mover([hero, teller])
        assert mover is not None, "the game ended before any plan"
        kind = legal_of(mover)[0]["type"]
        if mover is teller and kind == "DescribePathways":
            areas = teller.locator("#pathways textarea")
            for i in range(areas.count()):
                areas.nth(i).fill(f"{SCRIPT} {IMG} way {i}")
            act_and_wait(teller, lambda: teller.click("#send-descriptions"))
        elif mover is teller:
            act_and_wait(teller, lambda: teller.click("#judge-plan"))
        else:
            plans += kind == "MakePlan"
            hero_move(hero, f"{IMG} then {SCRIPT}")
    assert plans, "the Hero never had to make a plan"
    for page in (hero, teller, watcher):
        page.wait_for_function("([i]) => Number(document.body.dataset.index) >= i",
                               arg=[int(hero.evaluate("Number(document.body.dataset.index)"))])

    for page in (hero, teller, watcher):
        _no_markup_ran(page)
        # Names appear literally in the seat bar.
        bar = page.locator("#seat-bar").inner_text()
        assert IMG in bar and SCRIPT in bar
        # Plans appear literally in the log.
        assert f"{IMG} then {SCRIPT}" in page.locator("#log").inner_text()
    # Descriptions appear literally on the Hero's pathways or in the log.
    assert f"{SCRIPT} {IMG} way 0" in hero.locator("#log").inner_text()


def test_script_bearing_names_in_adventure(live_server: Any, new_page: Any) -> None:
    created = live_server.api("POST", "/api/games", {
        "game": "adventure", "players": 3, "options": {},
        "seats": [{"kind": "human", "name": SCRIPT}, {"kind": "bot", "bot": "memory", "name": IMG},
                  {"kind": "bot", "bot": "random", "name": "Plain"}],
        "takeover_after_s": None, "turn_clock_s": None,
    })
    page = open_table(new_page(), live_server.url + created["seats"][0]["link"])
    _no_markup_ran(page)
    players = page.locator("#players").inner_text()
    assert IMG in players
    assert SCRIPT in page.locator("#seat-bar").inner_text()
