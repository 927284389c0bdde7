"""The plan's judgement on the web page: the Teller who judges sees the rubric's advice, source by
source, and its buttons start there; after the verdict both pages say why (the same words as
the terminal: perils_judgement.js)."""

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
    teller_move,
)

pytestmark = pytest.mark.browser

PLAN = "First I heave, dodge and steer past it. Then I keep going."
"""Uses an action word of each of Strength, Agility and Piloting (so whichever is channelled)."""


def test_the_teller_sees_the_rubric_advice_and_both_see_why(live_server: Any,
                                                             new_page: Any) -> None:
    lobby = new_page()
    links = create_perils_in_lobby(lobby, live_server.url, hero="Ada", teller="Tomas")
    hero = open_table(new_page(), links["seat-0"])
    teller = open_table(new_page(), links["seat-1"])
    for _ in range(200):
        mover = next_mover([hero, teller])
        assert mover is not None, "the game ended before a plan was judged"
        if mover is teller and legal_of(teller)[0]["type"] == "JudgePlan":
            break
        if mover is hero:
            if legal_of(hero)[0]["type"] == "MakePlan":  # said before the plan is written
                assert "The roll-twice needs 3 approved sources" in hero.locator(
                    "#plan-rubric").inner_text()
            hero_move(hero, PLAN)
        else:
            teller_move(teller)
    plan = last_of(teller)["view"]["plan"]
    skill = next(s["name"] for s in plan["reasons"]["sources"] if s["kind"] == "skill")
    text = teller.locator("#current").inner_text()
    assert "The rubric suggests:" in text
    assert f"{skill}: '" in text and "+1" in text
    # The buttons start at the advice: the skill pressed, items (never used by PLAN) not.
    assert teller.locator("[data-focus-key=judge-channel]").get_attribute("aria-pressed") == "true"
    for code in plan["items"]:
        button = teller.locator(f"[data-focus-key=judge-item-{code}]")
        assert button.get_attribute("aria-pressed") == "false"
    teller_move(teller)
    hero.wait_for_function("document.querySelector('#current') && "
                           "document.querySelector('#current').innerText.includes('Why:')")
    why = hero.locator("#current").inner_text()
    assert f"{skill}: '" in why and "Roll twice" in why
