"""The lobby's opponent choice in Chromium: computer players by level with a description and a
measured strength (from GET /api/players), a game created with `forgetful:level=easy`, and a
Perils game with a computer Teller style that judges through its seat; at 1280x800 and 390x844.
Screenshots: test-output/lobby-opponents-1280.png and test-output/lobby-opponents-390.png."""

from __future__ import annotations

from typing import Any

import pytest

from pocketgalaxy.agents import catalogue

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _lobby(page: Any, base: str, game: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.check(f"input[name=game][value={game}]")
    page.wait_for_function(
        "([g]) => document.querySelector('#seat-rows .seat-bot optgroup') !== null"
        " && document.querySelector('input[name=game]:checked').value === g", [game])


def _created_game(page: Any) -> str:
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")
    game_id: str = page.locator("#created").get_attribute("data-game-id")
    return game_id


def _about(row: Any) -> str:
    text: str = row.locator(".seat-bot-about").inner_text()
    return text


def test_adventure_opponents_by_level_then_a_game_with_easy(live_server: Any, new_page: Any,
                                                            output_dir: Any) -> None:
    page = new_page(DESKTOP)
    _lobby(page, live_server.url, "adventure")
    page.select_option("#players", "3")
    rows = page.locator("#seat-rows .seat-row")
    row = rows.nth(1)
    row.locator(".seat-kind").select_option("bot")
    select = row.locator(".seat-bot")
    # Every level of the catalogue, weakest first, in player words; the default marked.
    texts = select.locator("option").all_inner_texts()
    assert texts == [
        f"{e.level}{' (default)' if e.default else ''}: {e.description}"
        for e in catalogue.entries("adventure")]
    assert select.locator("optgroup").get_attribute("label") == "Computer players, weakest first"
    assert select.input_value() == "memory"
    select.select_option("forgetful:level=easy")
    easy = catalogue.find("adventure", "forgetful:level=easy")
    assert easy is not None and easy.spec == "forgetful:level=easy"
    about = _about(row)
    assert about.startswith(f"{easy.label()}. Strength: {easy.strength.describe()}.")
    assert about.endswith("Name for the API and the terminal: forgetful:level=easy")
    # The line is the select's description for screen readers.
    described = select.get_attribute("aria-describedby")
    assert page.locator(f"#{described}").inner_text() == about
    rows.nth(2).locator(".seat-bot").select_option("ismcts:iterations=300")
    assert "Expert search" in rows.nth(2).locator(".seat-bot option:checked").inner_text()
    page.locator("#seats").scroll_into_view_if_needed()
    page.screenshot(path=str(output_dir / "lobby-opponents-1280.png"))

    game_id = _created_game(page)
    seats = live_server.api("GET", f"/api/games/{game_id}")["seats"]
    assert [(s["kind"], s["bot"], s["name"]) for s in seats] == [
        ("human", None, "Player 1"), ("bot", "forgetful:level=easy", "Easy (computer)"),
        ("bot", "ismcts:iterations=300", "Expert search (computer)")]
    assert "Seat 2: Easy (computer)" in page.locator("#seat-links").inner_text()


def test_perils_teller_styles_on_a_phone(live_server: Any, new_page: Any,
                                         output_dir: Any) -> None:
    page = new_page(PHONE)
    _lobby(page, live_server.url, "perils")
    rows = page.locator("#seat-rows .seat-row")
    teller = rows.nth(1)
    select = teller.locator(".seat-bot")
    assert select.is_visible()  # the Teller is a computer by default
    assert select.locator("optgroup").get_attribute("label") == "Computer Teller styles"
    assert [o.split(":")[0] for o in select.locator("option").all_inner_texts()] == [
        "Fair (default)", "Generous", "Harsh", "Adaptive"]
    select.select_option("teller:style=harsh")
    about = _about(teller)
    assert about.startswith("Harsh: grants a second die only when your plan has a source")
    assert "Strength: the Steady computer Hero wins" in about
    assert about.endswith("teller:style=harsh · this Teller judges your plans itself")
    rows.nth(0).locator(".seat-name").fill("Ada")
    # The Hero seat offers the computer Heroes too, the planner by default.
    rows.nth(0).locator(".seat-kind").select_option("bot")
    assert rows.nth(0).locator(".seat-bot").input_value() == "planner"
    rows.nth(0).locator(".seat-kind").select_option("human")
    assert not rows.nth(0).locator(".seat-bot").is_visible()
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the lobby is {width[0]} px wide in a {width[1]} px window"
    teller.scroll_into_view_if_needed()
    page.screenshot(path=str(output_dir / "lobby-opponents-390.png"))

    game_id = _created_game(page)
    summary = live_server.api("GET", f"/api/games/{game_id}")
    assert [(s["kind"], s["bot"]) for s in summary["seats"]] == [
        ("human", None), ("bot", "teller:style=harsh")]
    # The style judges plans only through the Teller seat: the lobby asked for that.
    assert summary["options"]["teller_policy"] == "human"
    assert summary["seats"][1]["name"] == "Harsh (computer)"
