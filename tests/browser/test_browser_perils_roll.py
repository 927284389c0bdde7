"""The Perils roll as an event on the web table, the target line, the maze at the end, suit colours.

Two kinds of test. A live game (lobby, two people, a real server): the roll panel shows the die,
the numbers and the story, stays while the next round arrives, and goes only when dismissed; the
Teller sees it too. And pinned games: Python builds the seat's payloads from a pinned deal (the
same `view(seat).to_json()` and filtered events the server sends) and the real perils.js module
renders them in Chromium, so the expected numbers come from the rules' own function
(games/perils/odds.py), never from guesses.
"""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import (
    act_and_wait,
    create_perils_in_lobby,
    hero_move,
    index_of,
    last_of,
    legal_of,
    next_mover,
    open_table,
    teller_move,
)

from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.core.game import visible_events
from pocketgalaxy.games.perils.actions import ChoosePathway, DescribePathways, MakePlan
from pocketgalaxy.games.perils.odds import roll_odds
from pocketgalaxy.registry import get_game
from pocketgalaxy.session import Session

pytestmark = pytest.mark.browser

SEATS = [{"seat": 0, "name": "Ada", "kind": "human", "connected": True},
         {"seat": 1, "name": "Tomas", "kind": "human", "connected": True}]


# -- pinned games rendered by the real page module --------------------------------------------

def _session(draw: tuple[str, ...], rolls: tuple[int, ...] = (), **options: Any) -> Session:
    options.setdefault("archetype", "pilot")  # Strength 2, Agility 4, Piloting 6, heart 3H
    return Session(get_game("perils"), options, seed=7,
                   pinned={"draw": list(draw), "big_bads": ["AD", "AC", "AS"],
                           "rolls": list(rolls)})


def _message(session: Session, seat: int | None) -> dict[str, Any]:
    """What the server sends this seat (web/payloads.py seat_payload), from the session."""
    events = [{**e.to_json(), "index": step} for step, e in session.log
              if visible_events((e,), seat)]
    legal = [a.to_json() for a in session.legal_actions(seat)] if seat is not None else []
    outcome = session.outcome
    return {"type": "update", "game": "perils", "game_id": "pinned", "seat": seat,
            "index": len(session.record.actions), "status": "over" if outcome else "active",
            "to_act": session.to_act, "view": session.view(seat).to_json(), "legal": legal,
            "events": events, "seats": SEATS, "outcome": outcome.to_json() if outcome else None,
            "clock": None}


def _describe_and_take(session: Session, position: int = 0) -> None:
    session.act(1, DescribePathways(session.rules.suggestions(session.state)))
    if session.view(0).phase == "choose":
        session.act(0, ChoosePathway(position))


HARNESS = """async ([messages, seat]) => {
  document.body.replaceChildren();
  for (const href of ["/static/css/base.css", "/static/css/table.css", "/static/css/perils.css"]) {
    if (!document.querySelector(`link[href='${href}']`)) {
      const link = document.createElement("link");
      link.rel = "stylesheet"; link.href = href;
      document.head.append(link);
      await new Promise((done) => { link.onload = done; link.onerror = done; });
    }
  }
  const root = document.createElement("div");
  root.id = "table";
  document.body.append(root);
  const mod = await import("/static/js/perils.js");
  const names = ["Ada", "Tomas"];
  const ctx = { seat, readonly: false, act: () => false, errorBox: null,
                seatName: (s) => names[s] ?? "someone" };
  window.__table = mod.createTable(root, ctx);
  for (const m of messages) window.__table.render(m);
  return true;
}"""


def _render(page: Any, base: str, messages: list[dict[str, Any]], seat: int | None) -> None:
    if not page.url.startswith(base):
        page.goto(base + "/rules/perils")
    page.evaluate(HARNESS, [messages, seat])


def test_target_line_shows_the_rules_needed_face_and_chance(live_server: Any,
                                                          new_page: Any) -> None:
    # The Pilot picks up JD (an item), then meets the 7D peril: Strength 2 cannot pass it.
    session = _session(("JD", "4H", "7D", "5H"))
    _describe_and_take(session)
    _describe_and_take(session)
    view = session.view(0)
    assert view.phase == "plan" and view.odds is not None and view.odds.best is not None
    expected = roll_odds(7, 2)  # +1 channelled skill, +1 item: the most this plan could earn
    assert view.odds.best == expected and expected.needed == 5 and expected.ways == 2
    page = new_page()
    _render(page, live_server.url, [_message(session, 0)], 0)
    line = page.locator("#odds-line")
    assert line.get_attribute("data-best-needed") == "5"
    assert line.get_attribute("data-impossible") == "0"
    text = line.inner_text()
    assert view.odds.words in text
    assert "you need 5 or more on the die: 2 chances in 6 (33%)" in text
    # The Teller reads the same numbers about the Hero.
    _render(page, live_server.url, [_message(session, 1)], 1)
    teller_line = page.locator("#odds-line").inner_text()
    assert "the Hero needs 5 or more on the die: 2 chances in 6 (33%)" in teller_line


def test_impossible_attempt_is_said_plainly(live_server: Any, new_page: Any) -> None:
    session = _session(("10C", "4H"))  # Agility 4 against 10: at most 6 + 1
    _describe_and_take(session)
    view = session.view(0)
    assert view.odds is not None and view.odds.best is not None and view.odds.best.impossible
    page = new_page()
    _render(page, live_server.url, [_message(session, 0)], 0)
    line = page.locator("#odds-line")
    assert line.get_attribute("data-impossible") == "1"
    text = line.inner_text()
    assert text.startswith("No chance:")
    assert "Even a 6 with every bonus you could earn (+1) cannot reach it: the attempt will fail" \
        in text


def _pinned_roll() -> tuple[Session, list[dict[str, Any]], dict[str, Any]]:
    """5C against Agility 4, Strength channelled (approved), the pinned die 4: 4 + 1 = 5."""
    session = _session(("5C", "4H", "9S", "8D"), rolls=(4,), teller_policy="approve_all")
    _describe_and_take(session)
    before = _message(session, 0)
    session.act(0, MakePlan("D", (), "I shove it aside with all my strength."))
    planned = _message(session, 0)
    session.act(0, session.legal_actions(0)[0])  # Roll
    return session, [before, planned], _message(session, 0)


def test_the_die_tumbles_before_the_result_unless_motion_is_reduced(live_server: Any,
                                                                     browser: Any) -> None:
    _, before, after = _pinned_roll()
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  reduced_motion="no-preference")
    try:
        page = context.new_page()
        _render(page, live_server.url, before, 0)
        page.evaluate("([m]) => window.__table.render(m)", [after])
        state = page.evaluate("""() => { const p = document.getElementById('roll-panel');
            return [p.classList.contains('rolling'), p.querySelector('.roll-result').hidden]; }""")
        assert state == [True, True]  # tumbling; the verdict waits for the die
        page.wait_for_selector("#roll-panel[data-revealed='1']", timeout=5000)
        assert page.locator("#roll-verdict").is_visible()
        assert "rolling" not in (page.locator("#roll-panel").get_attribute("class") or "")
    finally:
        context.close()


def test_pinned_roll_panel_numbers_story_and_dismissal(live_server: Any, new_page: Any) -> None:
    session, (before, planned), after = _pinned_roll()
    rolled = next(e for e in after["events"] if e["type"] == "DieRolled")
    assert (rolled["values"], rolled["bonus"], rolled["total"]) == ([4], 1, 5)
    story = next(e for e in after["events"] if e["type"] == "PerilSucceeded")["story"]
    page = new_page()
    _render(page, live_server.url, [before, planned], 0)
    assert page.locator("#roll-panel").is_hidden()
    page.evaluate("([m]) => window.__table.render(m)", [after])
    panel = page.locator("#roll-panel")
    assert panel.is_visible() and panel.get_attribute("data-result") == "success"
    assert page.locator("#roll-numbers").inner_text() == "Rolled 4 + 1 (Strength) = 5 against 5."
    assert page.locator("#roll-verdict").inner_text() == "Success! Agility rises to 5."
    assert page.locator("#roll-story").inner_text() == story
    assert page.locator(".roll-panel svg.die[data-value='4']").count() == 1
    # Screen readers hear it through the polite live region.
    assert "Success!" in page.locator("#pp-announce").inner_text()
    assert page.locator("#pp-announce").get_attribute("aria-live") == "polite"
    # The next round arrives: the panel stays. Escape dismisses it.
    session.act(1, DescribePathways(session.rules.suggestions(session.state)))
    page.evaluate("([m]) => window.__table.render(m)", [_message(session, 0)])
    assert panel.is_visible()
    page.locator("#roll-continue").focus()
    page.keyboard.press("Escape")
    assert panel.is_hidden()


def test_end_screen_shows_the_whole_maze_face_up_with_the_path(live_server: Any, new_page: Any,
                                                               output_dir: Any) -> None:
    agents = {0: make_agent("perils", "rulebased", 0, 2, seed=3),
              1: make_agent("perils", "teller", 1, 2, seed=4)}
    session = Session(get_game("perils"), {"pathways_per_round": 3}, seed=21, agents=agents)
    session.run_bots()
    assert session.outcome is not None
    message = _message(session, 0)
    revealed = [e["card"] for e in message["events"] if e["type"] == "CardRevealed"]
    unchosen = message["view"]["unchosen_faces"]
    assert revealed and unchosen
    page = new_page()
    _render(page, live_server.url, [message], 0)
    assert page.locator("#main-title").inner_text() == "The maze"
    walked = page.locator("#maze .maze-card.walked").evaluate_all(
        "(nodes) => nodes.map((n) => n.dataset.card)")
    assert walked == revealed
    others = page.locator("#maze .maze-card:not(.walked)").evaluate_all(
        "(nodes) => nodes.map((n) => n.dataset.card)")
    assert others == unchosen
    assert page.locator("#maze .card-back").count() == 0
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("#maze").screenshot(path=str(output_dir / "perils-maze-1280.png"))


# -- a live game: two people, the real server -----------------------------------------------------

def _contrast(fg: str, bg: str) -> float:
    def channel(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    def lum(rgb: str) -> float:
        parts = [float(x) for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
        r, g, b = (channel(x) for x in parts)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    hi, lo = sorted((lum(fg), lum(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


BACKGROUND = """(node) => {
  for (let n = node; n; n = n.parentElement) {
    const bg = getComputedStyle(n).backgroundColor;
    if (bg && bg !== "transparent" && !bg.endsWith(", 0)")) return bg;
  }
  return getComputedStyle(document.body).backgroundColor;
}"""


def test_live_roll_panel_stays_until_dismissed_and_suits_are_readable(
        live_server: Any, new_page: Any, output_dir: Any) -> None:
    lobby = new_page()
    links = create_perils_in_lobby(lobby, live_server.url, hero="Ada", teller="Tomas")
    hero = open_table(new_page({"width": 1280, "height": 800}), links["seat-0"])
    teller = open_table(new_page(), links["seat-1"])
    # Before the first round: no "Round 0" (people count from 1).
    assert hero.locator("#turn-status").inner_text().startswith("Setting out.")
    for _ in range(200):
        mover = next_mover([hero, teller])
        assert mover is not None, "the game ended before a roll"
        kinds = {a["type"] for a in legal_of(mover)}
        if mover is hero and "Roll" in kinds:
            break
        if mover is hero and "ChoosePathway" in kinds:
            # Choosing happens on the pathways: the page says it is the Hero's move.
            assert "Waiting for" not in hero.locator("#controls").inner_text()
            assert "take one of the pathways" in hero.locator("#controls").inner_text()
        if mover is hero and "MakePlan" in kinds:
            odds = last_of(hero)["view"]["odds"]
            assert odds["moment"] == "plan"
            assert odds["words"] in hero.locator("#odds-line").inner_text()
        if mover is hero:
            hero_move(hero, "I lean on everything I know and all I carry, step by step.")
        else:
            teller_move(teller)
    assert "Round 0" not in hero.locator("#turn-status").inner_text()
    view = last_of(hero)["view"]
    plan = view["plan"]
    expected = roll_odds(view["difficulty"], plan["bonus"], advantage=plan["advantage"])
    assert view["odds"]["now"]["needed"] == expected.needed
    assert view["odds"]["now"]["chance"] == [expected.chance.numerator,
                                             expected.chance.denominator]
    assert view["odds"]["words"] in hero.locator("#odds-line").inner_text()
    act_and_wait(hero, lambda: hero.click("#roll"))
    hero.wait_for_function("document.querySelector('#roll-panel[data-revealed=\"1\"]')")
    events = hero.evaluate("window.__pocketgalaxy.events")
    rolled = [e for e in events if e["type"] == "DieRolled"][-1]
    numbers = hero.locator("#roll-numbers").inner_text()
    dice = " and ".join(map(str, rolled["values"]))
    if len(rolled["values"]) > 1:
        dice += f", kept {max(rolled['values'])}"
    assert numbers.startswith(f"Rolled {dice}")
    if rolled["total"] == max(rolled["values"]):  # nothing added: the die is the total
        assert numbers == f"Rolled {dice} against {rolled['difficulty']}."
    else:
        assert numbers.endswith(f"= {rolled['total']} against {rolled['difficulty']}.")
    result = [e for e in events if e["type"] in ("PerilSucceeded", "PerilFailed")
              and e["index"] == rolled["index"]][0]
    assert hero.locator("#roll-story").inner_text() == result["story"]
    success = result["type"] == "PerilSucceeded"
    assert hero.locator("#roll-panel").get_attribute("data-result") == (
        "success" if success else "failure")
    # The Teller sees the roll too, in their words.
    teller.wait_for_function("document.querySelector('#roll-panel[data-revealed=\"1\"]')")
    assert teller.locator("#roll-title").inner_text().startswith("The Hero rolled")
    assert hero.locator("#roll-title").inner_text().startswith("You rolled")
    # The next state arrives (the Teller moves on): the Hero's panel stays.
    mover = next_mover([hero, teller])
    if mover is teller:
        before = index_of(hero)
        teller_move(teller)
        hero.wait_for_function("([i]) => Number(document.body.dataset.index) > i", arg=[before])
    assert hero.locator("#roll-panel").is_visible()
    hero.screenshot(path=str(output_dir / "perils-roll-1280.png"))
    hero.set_viewport_size({"width": 390, "height": 844})
    hero.locator("#roll-panel").scroll_into_view_if_needed()
    hero.screenshot(path=str(output_dir / "perils-roll-390.png"))
    hero.set_viewport_size({"width": 1280, "height": 800})

    # Suit symbols on the dark panels meet WCAG AA (4.5:1) against what is behind them.
    glyphs = hero.locator(".suit-glyph")
    assert glyphs.count() >= 3
    for i in range(glyphs.count()):
        node = glyphs.nth(i)
        fg = node.evaluate("(n) => getComputedStyle(n).color")
        bg = node.evaluate(BACKGROUND)
        ratio = _contrast(fg, bg)
        assert ratio >= 4.5, (node.get_attribute("data-suit"), fg, bg, ratio)
    assert {glyphs.nth(i).get_attribute("data-suit") for i in range(glyphs.count())} >= {"C", "S"}

    hero.click("#roll-continue")
    assert hero.locator("#roll-panel").is_hidden()
