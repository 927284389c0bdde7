"""Rematch and "your move" in real Chromium: both seats' pages move to the rematch, each on its own
seat; an absent seat becomes open or a computer's as the creator chose; the tab title and favicon
follow the turn; the notification and sound switches survive a reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browserkit import act_and_wait, choose_move, click_move, legal_of, open_table

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
YOUR_MOVE = "\u25cf Your move \u2014 "


def two_people(live_server: Any, game: str, **extra: Any) -> dict[str, Any]:
    options = {"teller_policy": "approve_all"} if game == "perils" else {}
    made: dict[str, Any] = live_server.api("POST", "/api/games", {
        "game": game, "players": 2, "options": options,
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Grace"}],
        **extra,
    })
    return made


def let_computers_finish(live_server: Any, made: dict[str, Any], game: str) -> None:
    """The creator hands both seats to computer players, who play the game to its end."""
    for seat in (0, 1):
        bot = ("rulebased" if seat == 0 else "teller") if game == "perils" else "memory"
        live_server.api("POST", f"/api/games/{made['game_id']}/seats/{seat}/takeover",
                        {"bot": bot}, token=made["creator_token"])


def wait_over(page: Any) -> None:
    page.wait_for_function("document.body.dataset.status === 'over'")


def wait_moved(page: Any, old_id: str) -> str:
    """Wait until the page shows the first snapshot of another game; returns that game's id."""
    page.wait_for_url(lambda url: f"/play/{old_id}" not in url)
    page.wait_for_function(
        "([old]) => window.__pocketgalaxy && window.__pocketgalaxy.last"
        " && window.__pocketgalaxy.last.game_id !== old", arg=[old_id])
    game_id: str = page.evaluate("window.__pocketgalaxy.last.game_id")
    return game_id


def play_turn(page: Any) -> None:
    """Move (clicking, from the page's own knowledge) until the turn is no longer this page's."""
    for _ in range(30):
        if not legal_of(page):
            return
        action = choose_move(page)
        act_and_wait(page, lambda a=action: click_move(page, a))
    raise AssertionError("the turn never passed")


def shoot(page: Any, output_dir: Path, name: str) -> None:
    page.screenshot(path=str(output_dir / name))


@pytest.mark.parametrize(("game", "viewport", "suffix"),
                         [("adventure", DESKTOP, "1280"), ("perils", PHONE, "390")])
def test_a_rematch_moves_both_seats_pages_to_the_new_game(
        live_server: Any, new_page: Any, output_dir: Path, game: str, viewport: dict[str, int],
        suffix: str) -> None:
    made = two_people(live_server, game)
    old_id = made["game_id"]
    ada = open_table(new_page(viewport), live_server.url + made["seats"][0]["link"])
    grace = open_table(new_page(viewport), live_server.url + made["seats"][1]["link"])
    let_computers_finish(live_server, made, game)
    for page in (ada, grace):
        wait_over(page)
        page.wait_for_selector("#end-actions:not([hidden]) #rematch")
    assert ada.locator("#rematch").inner_text() == "Play again"
    ada.locator("#rematch").scroll_into_view_if_needed()
    shoot(ada, output_dir, f"rematch-{suffix}.png")

    ada.locator("#rematch").click()
    new_ada, new_grace = wait_moved(ada, old_id), wait_moved(grace, old_id)
    assert new_ada == new_grace != old_id
    for page, seat, name in ((ada, 0, "Ada"), (grace, 1, "Grace")):
        last = page.evaluate("window.__pocketgalaxy.last")
        assert last["seat"] == seat and last["index"] == 0 and last["status"] == "running"
        assert page.url == f"{live_server.url}/play/{new_ada}?seat={seat}"  # token not in it
        assert f"you are {name}" in page.locator("#who").inner_text()
        assert page.evaluate("document.body.dataset.rematch") is None  # a fresh page
    shoot(ada, output_dir, f"rematch-new-{suffix}.png")

    # Through the API: the same game, players and options; then, once it is over, a new seed.
    before = live_server.api("GET", f"/api/games/{old_id}")
    after = live_server.api("GET", f"/api/games/{new_ada}")
    assert before["rematch"]["game_id"] == new_ada
    assert (after["game"], after["players"], after["options"]) == (
        before["game"], before["players"], before["options"])
    assert [(s["name"], s["kind"], s["taken_over"]) for s in after["seats"]] == [
        ("Ada", "human", False), ("Grace", "human", False)]
    creator = live_server.api("POST", f"/api/games/{old_id}/rematch",
                              {"seat": 0, "creator_token": made["creator_token"]},
                              token=made["seats"][0]["token"])
    assert creator["game_id"] == new_ada
    let_computers_finish(live_server, {"game_id": new_ada, **creator}, game)
    wait_over(ada)
    old_seed = live_server.api("GET", f"/api/games/{old_id}/record")["seed"]
    new_seed = live_server.api("GET", f"/api/games/{new_ada}/record")["seed"]
    assert isinstance(new_seed, int) and new_seed != old_seed


@pytest.mark.parametrize("absent", ["open", "computer"])
def test_an_absent_seat_becomes_open_or_a_computers(live_server: Any, new_page: Any,
                                                   absent: str) -> None:
    made = two_people(live_server, "adventure", rematch_absent=absent)
    old_id = made["game_id"]
    ada = open_table(new_page(DESKTOP), live_server.url + made["seats"][0]["link"])
    let_computers_finish(live_server, made, "adventure")  # Grace never opened her page
    wait_over(ada)
    ada.locator("#rematch").click()
    new_id = wait_moved(ada, old_id)
    grace = ada.evaluate("window.__pocketgalaxy.last.seats[1]")
    if absent == "open":
        assert (grace["name"], grace["open"], grace["taken_over"]) == ("Player 2", True, False)
        lobby = live_server.api("GET", "/api/games?open=true")
        assert [g["open_seats"] for g in lobby if g["game_id"] == new_id] == [[1]]
    else:
        assert (grace["name"], grace["open"], grace["taken_over"]) == ("Grace", False, True)
        assert grace["bot"] == "memory"
        chip = ada.locator("#seat-bar .seat-chip[data-seat='1']")
        assert "computer for now" in chip.inner_text()


def test_the_tab_title_and_favicon_follow_the_turn(live_server: Any, new_page: Any) -> None:
    made = two_people(live_server, "adventure")
    pages = [open_table(new_page(DESKTOP), live_server.url + s["link"]) for s in made["seats"]]
    for _ in range(2):  # two turns: the mark moves from one page to the other and back
        mover = next(p for p in pages if legal_of(p))
        other = next(p for p in pages if p is not mover)
        assert mover.title() == YOUR_MOVE + "Adventure Cards: Pocket Galaxy"
        assert other.title() == "Adventure Cards: Pocket Galaxy"
        assert mover.locator("link[rel~=icon]").get_attribute("data-turn") == "1"
        assert other.locator("link[rel~=icon]").get_attribute("data-turn") == "0"
        assert (mover.locator("link[rel~=icon]").get_attribute("href") or "").startswith(
            "data:image/svg+xml,")
        play_turn(mover)
        other.wait_for_function("document.body.dataset.myTurn === '1'")
        assert not mover.title().startswith(YOUR_MOVE)
    watcher = open_table(new_page(DESKTOP), live_server.url + made["watch_link"])
    assert not watcher.title().startswith(YOUR_MOVE.strip()[0])
    assert watcher.locator("#turn-alerts").is_hidden()


def test_the_notification_and_sound_switches_are_off_by_default_and_persist(
        live_server: Any, new_page: Any) -> None:
    made = two_people(live_server, "adventure")
    page = new_page(DESKTOP)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    open_table(page, live_server.url + made["seats"][1]["link"])
    notify, sound = page.locator("#alert-notify"), page.locator("#alert-sound")
    assert notify.get_attribute("aria-pressed") == "false"
    assert sound.get_attribute("aria-pressed") == "false"
    notify.focus()
    page.keyboard.press("Enter")  # keyboard works
    page.wait_for_selector("#alert-notify[aria-pressed=true]")
    sound.click()
    page.wait_for_selector("#alert-sound[aria-pressed=true]")
    page.reload()
    page.wait_for_function("document.body.dataset.index !== undefined")
    assert page.locator("#alert-notify").get_attribute("aria-pressed") == "true"
    assert page.locator("#alert-sound").get_attribute("aria-pressed") == "true"
    assert "Sound on my turn: on" in page.locator("#alert-sound").inner_text()
    # Grace's turn comes after Ada's move: the sound plays once (not for a turn the page opened
    # on: if the deal lets Grace start, she plays that turn first).
    ada = open_table(new_page(DESKTOP), live_server.url + made["seats"][0]["link"])
    play_turn(page)
    assert page.evaluate("window.__pocketgalaxy.alerts.beeps") == 0
    play_turn(ada)
    page.wait_for_function("document.title.startsWith('\u25cf')")
    assert page.evaluate("window.__pocketgalaxy.alerts.beeps") == 1
    # And off again: remembered as off.
    page.locator("#alert-sound").click()
    page.reload()
    page.wait_for_function("document.body.dataset.index !== undefined")
    assert page.locator("#alert-sound").get_attribute("aria-pressed") == "false"


# Stands in for the browser's Notification (recording what would be shown) and for a hidden tab.
_HIDDEN_TAB_WITH_NOTIFICATIONS = """
Object.defineProperty(document, "visibilityState", { get: () => "hidden" });
window.__notes = [];
window.Notification = class {
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) { window.__notes.push({ title, body: options.body }); }
  close() {}
};
"""


def test_a_notification_comes_only_when_switched_on_and_the_tab_is_hidden(
        live_server: Any, new_page: Any) -> None:
    made = two_people(live_server, "adventure")
    page = new_page(DESKTOP)
    page.context.add_init_script(_HIDDEN_TAB_WITH_NOTIFICATIONS)
    open_table(page, live_server.url + made["seats"][1]["link"])
    ada = open_table(new_page(DESKTOP), live_server.url + made["seats"][0]["link"])
    play_turn(ada)  # switched off: Grace's turn comes silently
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    assert page.evaluate("window.__notes") == []
    play_turn(page)
    page.click("#alert-notify")
    page.wait_for_selector("#alert-notify[aria-pressed=true]")
    play_turn(ada)
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    notes = page.evaluate("window.__notes")
    assert notes == [{"title": "Your move",
                      "body": "It is your turn (Adventure Cards: Pocket Galaxy)."}]
    assert page.evaluate("window.__pocketgalaxy.alerts.notes") == 1


def test_the_lobby_form_sends_the_rematch_choice(live_server: Any, new_page: Any) -> None:
    page = new_page(DESKTOP)
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    choice = page.locator("#rematch-absent")
    assert choice.input_value() == "open"  # the documented default
    assert page.locator("label[for=rematch-absent]").inner_text().startswith("At a rematch")
    choice.select_option("computer")
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")
    game_id = page.locator("#created").get_attribute("data-game-id")
    assert live_server.api("GET", f"/api/games/{game_id}")["rematch_absent"] == "computer"
