"""A whole Perils & Pathways game in two browsers: a person as Hero, a person as Teller.

The game is created through the lobby form (pathways_per_round=3 for a shorter game, the Teller
judging plans by hand). The Teller fills every description with the suggestion button; the Hero
picks the archetype, pathways, plans (channelling a skill, naming it in the plan) and rolls. Moves
are read from the page's own legal-action list (#legal data-legal) and made by clicking.
"""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import (
    create_perils_in_lobby,
    hero_move,
    last_of,
    legal_of,
    next_mover,
    open_table,
    play_perils,
)

pytestmark = pytest.mark.browser

def test_whole_perils_game_hero_and_teller_in_two_browsers(live_server: Any, new_page: Any,
                                                           output_dir: Any) -> None:
    lobby = new_page()
    links = create_perils_in_lobby(lobby, live_server.url, hero="Ada", teller="Tomas")
    hero = open_table(new_page(), links["seat-0"])
    teller = open_table(new_page(), links["seat-1"])

    # Until the first pathways are laid: the Hero picks an archetype.
    moves = 0
    while (mover := next_mover([hero, teller])) is hero:
        hero_move(hero, "")
        moves += 1
    assert mover is teller and legal_of(teller)[0]["type"] == "DescribePathways"
    # The Teller's page shows the cards behind the pathways and the suggestions; the Hero's not.
    count = len(last_of(teller)["view"]["pathways"])
    assert teller.locator("#pathways .card-face").count() == count
    assert teller.locator("#pathways").inner_text().count("Behind it:") == count
    assert teller.locator("#pathways button.suggest").count() == count
    hero.wait_for_function(
        "([n]) => document.querySelectorAll('#pathways .card-back').length === n", arg=[count]
    )
    assert hero.locator("#pathways .card-face").count() == 0
    assert "Behind it" not in hero.locator("#pathways").inner_text()
    assert hero.locator("#pathways button.suggest").count() == 0
    # The sense instruction is the Teller's; the Hero reads what the round is told by.
    assert "describe only" in teller.locator(".sense-line").inner_text()
    hero_sense = hero.locator(".sense-line").inner_text()
    assert "describe only" not in hero_sense and "told by" in hero_sense

    moves += play_perils(hero, teller)
    assert moves > 10

    outcome = last_of(hero)["outcome"]
    assert outcome is not None and outcome == last_of(teller)["outcome"]
    assert hero.locator("#outcome").is_visible()
    log = hero.locator("#log").inner_text()
    assert "Rolled" in log or "no roll" in log
    assert "The showdown begins" in log or "Hero is lost" in log
    # The computer Teller's story of each revealed card: the thing named, the numbers beside.
    stories = [line for line in log.splitlines()
               if ": a peril, a test of" in line or ": a healing gift." in line
               or ": a useful item, the " in line]
    assert stories, log

    # The finished game can be stepped through on the replay page.
    replay = new_page()
    replay.goto(f"{live_server.url}/replay/{links['seat-0'].split('/play/')[1].split('?')[0]}")
    replay.wait_for_selector("body[data-ready='1']")
    replay.click("#last")
    assert replay.locator("#step-label").inner_text().split(" / ")[0] == (
        replay.locator("#step-label").inner_text().split(" / ")[1]
    )
    replay_log = replay.locator("#log").inner_text()
    assert all(line.strip() in replay_log for line in stories[:5]), stories[:5]
    hero.screenshot(path=str(output_dir / "perils-hero.png"), full_page=True)
    teller.screenshot(path=str(output_dir / "perils-teller.png"), full_page=True)
