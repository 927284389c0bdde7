"""The lessons in Chromium: the lobby's Learn buttons start a guided first game; the first move
is made with the table's own button as the coach asks, the rest with "Do it for me", to the end,
with every lesson shown; "Leave the lesson" and "Play a real game" leave it."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import act_and_wait

pytestmark = pytest.mark.browser

TITLES = {"perils": "Learn Perils & Pathways", "adventure": "Learn Adventure Cards"}
SHOT_AFTER = {"perils": "plan", "adventure": "wrong"}
"""The goal after which the screenshot is taken (the coach panel with a few lines)."""


def _learn(page: Any, url: str, game: str) -> None:
    page.goto(url + "/")
    page.get_by_role("button", name=TITLES[game]).click()
    page.wait_for_url(f"**/play/*?seat=0&lesson={game}")
    page.wait_for_function("document.body.dataset.index !== undefined")
    page.wait_for_function("document.body.dataset.lesson !== undefined")


def _coach_ready(page: Any) -> bool:
    """Wait until the coach has spoken for the position on the table; True when over."""
    page.wait_for_function(
        "(document.body.dataset.status === 'over' || document.body.dataset.myTurn === '1')"
        " && document.getElementById('coach').dataset.index === document.body.dataset.index")
    return bool(page.evaluate("document.getElementById('coach').dataset.over === '1'"))


def _goal_done(page: Any, goal: str) -> bool:
    return page.locator(f'#coach-goals li.done[data-goal="{goal}"]').count() == 1


@pytest.mark.parametrize("game", ["perils", "adventure"])
def test_a_lesson_plays_to_the_end_in_the_browser(
    live_server: Any, new_page: Any, output_dir: Any, game: str
) -> None:
    page = new_page()
    _learn(page, live_server.url, game)
    _coach_ready(page)
    coach = page.locator("#coach")
    assert coach.get_by_role("heading", name="Coach").is_visible()
    advice = page.locator("#coach-advice").inner_text()
    if game == "perils":
        assert advice.startswith("Round 1: three pathways lie face down")
        # The learner follows the coach with the table's own button.
        act_and_wait(page, lambda: page.get_by_role("button", name="Take pathway 2").click())
    else:
        assert advice.endswith("Ask Bo for Planet 4.")
        act_and_wait(page, lambda: page.locator("#coach-do").click())
    _coach_ready(page)
    assert "Well done: that is the move this step teaches." in page.locator(
        "#coach-lines").inner_text()
    shot = False
    for _ in range(200):
        if _coach_ready(page):
            break
        if not shot and _goal_done(page, SHOT_AFTER[game]):
            page.screenshot(path=str(output_dir / f"tutorial-{game}.png"), full_page=True)
            shot = True
        act_and_wait(page, lambda: page.locator("#coach-do").click())
    assert shot
    assert coach.get_attribute("data-over") == "1"
    assert coach.get_attribute("data-goals-done") == "7"
    assert page.locator("#coach-goals li.done").count() == 7
    assert page.locator("#coach-advice").inner_text().startswith(
        "The lesson is over: this game showed 7 of 7 lessons.")
    assert page.locator("#coach-do").is_disabled()


def test_leave_the_lesson_and_play_a_real_game(live_server: Any, new_page: Any) -> None:
    page = new_page()
    _learn(page, live_server.url, "adventure")
    _coach_ready(page)
    page.get_by_role("button", name="Play a real game").click()
    page.wait_for_url("**/play/*?seat=0")
    page.wait_for_function("document.body.dataset.index !== undefined")
    assert "lesson=" not in page.url
    assert page.locator("#coach").is_hidden()
    assert page.evaluate("document.body.dataset.game") == "adventure"

    _learn(page, live_server.url, "perils")
    _coach_ready(page)
    page.get_by_role("link", name="Leave the lesson").click()
    page.wait_for_url(live_server.url + "/")
    assert page.get_by_role("button", name=TITLES["perils"]).is_visible()


def test_the_coach_panel_is_keyboard_usable(live_server: Any, new_page: Any) -> None:
    page = new_page()
    _learn(page, live_server.url, "adventure")
    _coach_ready(page)
    page.locator("#coach-do").focus()
    before = int(page.evaluate("Number(document.body.dataset.index)"))
    page.keyboard.press("Enter")
    page.wait_for_function("([i]) => Number(document.body.dataset.index) > i", arg=[before])
    assert page.locator("#coach-lines").get_attribute("aria-live") == "polite"
