"""A phone-sized screen (375 px wide): both tables render without horizontal scrolling, and a
whole turn can be taken with the keyboard alone (Tab to move, Enter or Space to press), with a
visible focus ring on every control reached."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import last_of, next_mover, open_table

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 740}
MAX_TABS = 120


def no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page is {width[0]} px wide in a {width[1]} px window"


def tab_to(page: Any, selector: str) -> None:
    """Press Tab until the focused element matches `selector`; its focus must be visible."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if page.evaluate("([s]) => document.activeElement?.matches(s) || false", [selector]):
            outline = page.evaluate(
                "getComputedStyle(document.activeElement).outlineStyle"
            )
            assert outline != "none", f"no visible focus on {selector}"
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_adventure_on_a_phone_with_the_keyboard(live_server: Any, new_page: Any,
                                                output_dir: Any) -> None:
    created = live_server.api("POST", "/api/games", {
        "game": "adventure", "players": 2, "options": {"first_player": "seat0"},
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "memory"}],
        "takeover_after_s": None, "turn_clock_s": None,
    })
    page = open_table(new_page(PHONE), live_server.url + created["seats"][0]["link"])
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    no_horizontal_scroll(page)
    page.screenshot(path=str(output_dir / "adventure-phone.png"), full_page=True)

    # A refused move shows a clear message near the controls and the connection stays up.
    index = last_of(page)["index"]
    page.evaluate("window.__pocketgalaxy.socket.act({type: 'Peek', slot: 0}, "
                  "window.__pocketgalaxy.last.index)")
    error = page.locator("#action-error")
    error.wait_for(state="visible")
    assert "Peek" in error.inner_text() or "peek" in error.inner_text()
    assert page.evaluate("document.body.dataset.connection") == "open"
    assert last_of(page)["index"] == index

    # One whole turn by keyboard: ask the other player for a card (Enter on the player, Enter on
    # the card the focus jumps to); after a refusal, peek at a table card with Space.
    turn = last_of(page)["view"]["turn"]
    peeked = False
    for _ in range(30):
        view = last_of(page)["view"]
        if view["turn"] != turn or last_of(page)["status"] == "over":
            break
        if view["to_act"] != 0:
            page.wait_for_function(
                "([t]) => window.__pocketgalaxy.last.view.turn !== t", arg=[turn]
            )
            break
        before = last_of(page)["index"]
        if view["phase"] == "peek":
            tab_to(page, "button.slot[data-mode=peek]")
            slot = page.evaluate("document.activeElement.dataset.slot")
            page.keyboard.press("Space")
            # Memory game: the peeked face shows for a moment, then the card turns back.
            shown = f".slot[data-slot='{slot}']"
            page.wait_for_selector(f"{shown}.revealed")
            page.wait_for_selector(f"{shown}.revealed", state="detached", timeout=30_000)
            assert "face-down" in (page.locator(shown).get_attribute("aria-label") or "")
            peeked = True
        else:
            tab_to(page, "button.player-btn")
            page.keyboard.press("Enter")
            assert page.evaluate("document.activeElement.matches('#picker button.pick')")
            page.keyboard.press("Enter")
        page.wait_for_function(
            "([i]) => window.__pocketgalaxy.last.index > i", arg=[before]
        )
        no_horizontal_scroll(page)
    assert last_of(page)["view"]["turn"] != turn or last_of(page)["status"] == "over"
    assert peeked, "the turn ended without the refused request's peek"
    kinds = {e["type"] for e in page.evaluate("window.__pocketgalaxy.events")}
    assert {"RequestGranted", "RequestRefused"} & kinds


def test_perils_on_a_phone_with_the_keyboard(live_server: Any, new_page: Any,
                                             output_dir: Any) -> None:
    created = live_server.api("POST", "/api/games", {
        "game": "perils", "players": 2, "options": {"archetype": _first_archetype(live_server)},
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Tomas"}],
        "takeover_after_s": None, "turn_clock_s": None,
    })
    hero = open_table(new_page(PHONE), live_server.url + created["seats"][0]["link"])
    teller = open_table(new_page(PHONE), live_server.url + created["seats"][1]["link"])
    assert next_mover([hero, teller]) is teller

    # The Teller: Tab to "Use all suggestions", Enter (focus moves on to Send), Enter.
    no_horizontal_scroll(teller)
    tab_to(teller, "#use-suggestions")
    teller.keyboard.press("Enter")
    assert teller.evaluate("document.activeElement.id") == "send-descriptions"
    teller.keyboard.press("Enter")
    teller.screenshot(path=str(output_dir / "perils-teller-phone.png"), full_page=True)

    # The Hero reads the descriptions and takes a pathway with Space.
    assert next_mover([hero, teller]) is hero
    no_horizontal_scroll(hero)
    descriptions = [p["description"] for p in last_of(hero)["view"]["pathways"]]
    assert all(descriptions)
    for text in descriptions:
        assert text in hero.locator("#pathways").inner_text()
    before = last_of(hero)["index"]
    tab_to(hero, "#pathways button[data-action]")
    hero.keyboard.press("Space")
    hero.wait_for_function("([i]) => window.__pocketgalaxy.last.index > i", arg=[before])
    kinds = {e["type"] for e in hero.evaluate("window.__pocketgalaxy.events")}
    assert "PathwayChosen" in kinds
    no_horizontal_scroll(hero)
    hero.screenshot(path=str(output_dir / "perils-hero-phone.png"), full_page=True)


def _first_archetype(live_server: Any) -> str:
    themes = live_server.api("GET", "/api/themes")["themes"]
    cosmic = next(t for t in themes if t["id"] == "cosmic")
    archetype: str = cosmic["archetypes"][0]["id"]
    return archetype
