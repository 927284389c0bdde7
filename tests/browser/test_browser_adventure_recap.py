"""The Adventure table tells a person what the others did: "since your last turn", the full game
log with a filter by player, a polite live region, cards that move, and a phone layout where the
card picker, the hand and the missions share one screen; plus AA contrast of a selected player.

The expected sentences are not written here: they come from the game's own record for the seat
(`GET /api/games/{id}/state` with the seat's token) worded by `games/adventure/recap.py`, the
module the terminal uses, so the page and the terminal are held to the same words.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from browserkit import act_and_wait, index_of, last_of, legal_of, open_table, wait_turn

from pocketgalaxy.games.adventure.recap import event_actor, event_text, since_last_turn

pytestmark = pytest.mark.browser

NAMES = ["Bo", "Cyd", "Dee", "Ada"]  # three computer players first, then the person (seat 3)
ADA = 3
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _game(live_server: Any) -> tuple[str, str, str]:
    """A four-seat game where the three computer players move before Ada's first turn."""
    created = live_server.api("POST", "/api/games", {
        "game": "adventure", "players": 4, "options": {"first_player": "seat0"},
        "seats": [*({"kind": "bot", "bot": "memory", "name": n} for n in NAMES[:3]),
                  {"kind": "human", "name": "Ada"}],
        "takeover_after_s": None, "turn_clock_s": None,
    })
    link = created["seats"][ADA]["link"]
    token = urlsplit(link).fragment.split("token=", 1)[1]
    return created["game_id"], link, token


def _record(live_server: Any, game_id: str, token: str) -> list[dict[str, Any]]:
    """Every event seat 3 may see, from the server (not from the page)."""
    state = live_server.api("GET", f"/api/games/{game_id}/state?seat={ADA}", token=token)
    events: list[dict[str, Any]] = state["events"]
    return events


def _lines(page: Any, selector: str) -> list[str]:
    texts: list[str] = page.eval_on_selector_all(
        f"{selector} li:not(.empty)", "items => items.map((li) => li.textContent)")
    return texts


def _wait_lines(page: Any, selector: str, expected: list[str]) -> None:
    """The page's lines become exactly `expected` (card names load a moment after the table)."""
    try:
        page.wait_for_function(
            "([s, want]) => JSON.stringify([...document.querySelectorAll(s + ' li:not(.empty)')]"
            ".map((li) => li.textContent)) === JSON.stringify(want)",
            arg=[selector, expected], timeout=15_000)
    except TimeoutError:
        assert _lines(page, selector) == expected  # shows the difference


def _words(events: list[dict[str, Any]], *, private: bool) -> list[str]:
    return [t for e in events if (t := event_text(e, NAMES, ADA, private=private))]


def _end_my_turn(page: Any) -> None:
    """Ask Bo for cards until one is refused, then skip the peek: Ada's turn passes."""
    for _ in range(30):
        wait_turn(page)
        if last_of(page)["view"]["to_act"] != ADA or last_of(page)["status"] == "over":
            return
        legal = legal_of(page)
        kinds = {a["type"] for a in legal}
        if "SkipPeek" in kinds:
            act_and_wait(page, lambda: page.click("#skip-peek"))
            return
        asks = [a for a in legal if a["type"] == "RequestCard"]
        if not asks:
            other = legal[0]
            act_and_wait(page, lambda a=other: page.evaluate(
                "([a]) => window.__pocketgalaxy.ctx.act(a)", [a]))
            continue
        ask = asks[0]
        page.click(f"button.player-btn[data-target='{ask['target']}']")
        pick = f"#picker button.pick[data-card='{ask['card']}']"
        act_and_wait(page, lambda p=pick: page.click(p))
    raise AssertionError("Ada's turn never ended")


def test_since_your_last_turn_and_the_full_log(live_server: Any, new_page: Any,
                                               output_dir: Any) -> None:
    game_id, link, token = _game(live_server)
    page = open_table(new_page(DESKTOP), live_server.url + link)
    wait_turn(page)

    # Before Ada's first turn: everything so far, including the three computer players' moves.
    events = _record(live_server, game_id, token)
    movers = {event_actor(e) for e in events} - {None}
    assert {0, 1, 2} <= movers, f"the three computer players moved: {movers}"
    _wait_lines(page, "#recap", _words(since_last_turn(events, ADA), private=False))

    # Ada ends her turn; the three computer players move again; the panel lists only their
    # moves since then, all of them, in the terminal's words.
    _end_my_turn(page)
    wait_turn(page)
    events = _record(live_server, game_id, token)
    recap = since_last_turn(events, ADA)
    assert recap[0]["index"] > max(e["index"] for e in events if event_actor(e) == ADA) - 1
    assert {event_actor(e) for e in recap} - {None} == {0, 1, 2}
    assert not any(e["type"] == "CardsDealt" for e in recap)
    expected = _words(recap, private=False)
    assert len({e["index"] for e in recap}) >= 3  # at least three computer moves
    _wait_lines(page, "#recap", expected)
    assert page.locator("#recap").is_visible()

    # The full log: every move of the game, this seat's own peeks included, nobody else's.
    everything = _words(events, private=True)
    _wait_lines(page, "#log", everything)
    assert not any(e["type"] == "PeekSeen" and e["seat"] != ADA for e in events)
    page.screenshot(path=str(output_dir / "adventure-recap-1280.png"))

    # Filtered by one player: that player's moves only, and all of them.
    for seat in (1, ADA):
        page.select_option("#log-filter", str(seat))
        mine = [e for e in events if event_actor(e) == seat]
        want = _words(mine, private=True)
        assert want, f"seat {seat} made moves"
        _wait_lines(page, "#log", want)
        seats = page.eval_on_selector_all("#log li", "items => items.map((li) => li.dataset.seat)")
        assert set(seats) == {str(seat)}
    page.select_option("#log-filter", "all")
    _wait_lines(page, "#log", everything)


def _in_view(page: Any, selector: str) -> dict[str, float]:
    box: dict[str, float] = page.eval_on_selector(
        selector, "n => { const r = n.getBoundingClientRect(); "
        "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, h: r.height}; }")
    assert box["h"] > 0, f"{selector} is not shown"
    assert 0 <= box["top"] and box["bottom"] <= PHONE["height"], f"{selector} off screen: {box}"
    assert 0 <= box["left"] and box["right"] <= PHONE["width"], f"{selector} off screen: {box}"
    return box


def test_phone_picker_hand_and_missions_on_one_screen(live_server: Any, new_page: Any,
                                                      output_dir: Any) -> None:
    game_id, link, token = _game(live_server)
    page = open_table(new_page(PHONE), live_server.url + link)
    wait_turn(page)
    hand = last_of(page)["view"]["hand"]
    ask = next(a for a in legal_of(page) if a["type"] == "RequestCard")
    page.click(f"button.player-btn[data-target='{ask['target']}']")
    page.wait_for_selector("#picker button.pick:not([disabled])")
    page.wait_for_timeout(100)  # the page scrolls the picker up

    picker = _in_view(page, "#picker")
    dock_hand = _in_view(page, "#dock-hand")
    dock_missions = _in_view(page, "#dock-missions")
    dock = _in_view(page, "#dock")
    assert picker["bottom"] <= dock["top"], "the dock covers the card picker"
    assert dock_hand["top"] < dock_missions["top"]
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]
    # The dock shows this seat's hand and all six missions, with their names for screen readers.
    assert page.eval_on_selector_all("#dock-hand .chip", "c => c.map((n) => n.textContent)") == hand
    assert page.locator("#dock-missions .dock-mission").count() == 6
    page.screenshot(path=str(output_dir / "adventure-recap-390.png"))

    # A move of Ada's is read out through the polite live region, in the log's words.
    assert page.get_attribute("#announce", "aria-live") == "polite"
    before = index_of(page)
    act_and_wait(page, lambda: page.click(f"#picker button.pick[data-card='{ask['card']}']"))
    events = _record(live_server, game_id, token)
    new = [e for e in events if e["index"] >= before and e["index"] < index_of(page)]
    said = " ".join(_words(new, private=True))
    assert said
    try:
        page.wait_for_function("([w]) => document.getElementById('announce').textContent === w",
                               arg=[said], timeout=10_000)
    except TimeoutError:
        assert page.locator("#announce").text_content() == said


_CONTRAST = """(node) => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/) || c.match(/color\\(srgb ([^)]+)\\)/);
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    const srgb = c.startsWith('color(');
    return { r: srgb ? p[0] * 255 : p[0], g: srgb ? p[1] * 255 : p[1], b: srgb ? p[2] * 255 : p[2],
             a: p.length > 3 ? p[3] : 1 };
  };
  const over = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a),
    g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
  const bg = (n) => {
    const layers = [];
    for (let x = n; x; x = x.parentElement) layers.push(parse(getComputedStyle(x).backgroundColor));
    return layers.reverse().reduce((acc, l) => over(l, acc), { r: 0, g: 0, b: 0, a: 1 });
  };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92
    : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const texts = [...node.querySelectorAll('*')].filter((n) => n.childElementCount === 0
    && n.textContent.trim()).map((n) => ({ text: n.textContent.trim(),
      ratio: ratio(over(parse(getComputedStyle(n).color), bg(n)), bg(n)) }));
  const outline = parse(getComputedStyle(node).outlineColor);
  return { texts, outline: ratio(outline, bg(node.parentElement)),
           fill: ratio(bg(node), bg(node.parentElement)) };
}"""


def test_the_selected_player_button_meets_aa_contrast(live_server: Any, new_page: Any) -> None:
    _, link, _ = _game(live_server)
    page = open_table(new_page(DESKTOP), live_server.url + link)
    wait_turn(page)
    target = next(a for a in legal_of(page) if a["type"] == "RequestCard")["target"]
    button = f"button.player-btn[data-target='{target}']"
    page.click(button)
    page.wait_for_selector(f"{button}[aria-pressed='true']")
    page.mouse.move(0, 0)  # no hover colour
    result = page.eval_on_selector(button, _CONTRAST)
    assert len(result["texts"]) >= 2, result  # the name and the counts
    for t in result["texts"]:
        assert t["ratio"] >= 4.5, f"text {t['text']!r} at {t['ratio']:.2f}:1"
    # The selection's boundary (the outline ring) stands out from the panel around it.
    assert result["outline"] >= 3.0, result
    # The chips in the dock and the log's lines are readable too.
    for selector in ("#log li", "#recap li"):
        for t in page.eval_on_selector(selector, _CONTRAST.replace(
                "[...node.querySelectorAll('*')]", "[node]"))["texts"]:
            assert t["ratio"] >= 4.5, f"{selector}: {t}"


def test_cards_move_between_places_unless_motion_is_reduced(live_server: Any, browser: Any,
                                                            new_page: Any) -> None:
    _, link, _ = _game(live_server)
    moving = browser.new_context(viewport=DESKTOP, reduced_motion="no-preference")
    try:
        for page, expect in ((moving.new_page(), 1), (new_page(DESKTOP), 0)):
            # (wait_for_selector, not wait_for_function: the page's CSP refuses eval)
            page.goto(live_server.url + link)
            page.wait_for_selector("#players [data-seat='1']")
            played = page.evaluate("""async () => {
              const m = await import('/static/js/adventure_motion.js');
              const cards = await import('/static/js/cards.js');
              const moves = m.cardMoves([{ type: 'RequestGranted', requester: 3, target: 1,
                                          card: 'S2' }, { type: 'RequestRefused', requester: 3,
                                          target: 1, card: 'S3' }]);
              const place = (k) => k === 'seat:1'
                ? document.querySelector('#players [data-seat="1"]')
                : document.getElementById('hand');
              const n = m.playMoves(moves, place, (id) => cards.adventureCard(id));
              const flying = document.querySelectorAll('.flying-card').length;
              return { moves, n, flying };
            }""")
            assert played["moves"] == [{"card": "S2", "from": "seat:1", "to": "seat:3"}]
            assert played["n"] == played["flying"] == expect
            if expect:  # the moving copy is gone once it arrived (well within 5 s)
                for _ in range(100):
                    if not page.evaluate("document.querySelectorAll('.flying-card').length"):
                        break
                    page.wait_for_timeout(50)
                assert page.evaluate("document.querySelectorAll('.flying-card').length") == 0
    finally:
        moving.close()


def test_the_replay_log_shows_the_game_up_to_the_step_shown(live_server: Any,
                                                            new_page: Any) -> None:
    created = live_server.api("POST", "/api/games", {
        "game": "adventure", "players": 3, "options": {"first_player": "seat0"},
        "seats": [{"kind": "bot", "bot": "memory", "name": n} for n in NAMES[:3]],
        "takeover_after_s": None, "turn_clock_s": None,
    })
    game_id = created["game_id"]
    page = new_page(DESKTOP)
    for _ in range(200):  # computer players only, no delay: over within seconds
        if live_server.api("GET", f"/api/games/{game_id}")["status"] == "over":
            break
        page.wait_for_timeout(100)
    steps = live_server.api("GET", f"/api/games/{game_id}/replay")["steps"]
    names = [s["name"] for s in live_server.api("GET", f"/api/games/{game_id}")["seats"]]

    def watched(upto: int) -> list[str]:
        events = [e for s in steps[: upto + 1] for e in s["events"] if e["audience"] is None]
        return [t for e in events if (t := event_text(e, names, None, private=True))]

    page.goto(f"{live_server.url}/replay/{game_id}")
    page.wait_for_function("document.body.dataset.ready === '1'")
    page.click("#last")
    _wait_lines(page, "#log", watched(len(steps) - 1))
    page.click("#first")
    page.click("#next")
    page.click("#next")
    _wait_lines(page, "#log", watched(2))  # stepping back forgets the later moves
