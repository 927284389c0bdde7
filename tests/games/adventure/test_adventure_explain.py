"""Adventure Cards refusals in the player's words (games/adventure/explain.py)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from pocketgalaxy.core.errors import IllegalActionError
from pocketgalaxy.games.adventure import explain as X
from pocketgalaxy.games.adventure.actions import (
    ClaimMission,
    DeclareCard,
    PassTurn,
    Peek,
    RequestCard,
    SkipPeek,
)
from pocketgalaxy.games.adventure.identities import CARDS
from pocketgalaxy.games.adventure.options import AdventureOptions
from pocketgalaxy.games.adventure.rules import AdventureRules

RULES = AdventureRules()
NAMES = ("Ada", "Bo", "Cyd", "Dee")
SRC = Path(__file__).resolve().parents[3] / "src" / "pocketgalaxy" / "games" / "adventure"
# Internal spellings that must never reach a person.
FORBIDDEN = ("RequestCard(", "DeclareCard(", "Peek(", "SkipPeek(", "ClaimMission(", "PassTurn(",
             "seat 0", "slot=", "target=", "card=", "mission=", "0..", "illegal action")
CODE_WORD = re.compile(r"\b[a-z]+_[a-z_]+\b")

MISSIONS = [["S1", "P1", "A1", "M1"], ["S2", "P2", "A2", "M2"], ["S3", "P3", "A3", "M3"],
            ["S4", "P4", "A4", "M4"], ["S5", "P5", "A5", "M5"], ["S6", "P6", "A6", "M6"]]
PINNED = {
    "missions": MISSIONS,
    "hands": [["S1", "P1", "A1", "S2", "P2", "A3"], ["S3", "P3", "M1", "S4", "P4", "A4"],
              ["S5", "P5", "A5", "S6", "P6", "A6"]],
    "table": ["M2", "M3", "M4", "M5", "M6", "A2"],
    "first_player": 0,
}


def refusal(state: Any, seat: int, action: Any) -> tuple[IllegalActionError, str]:
    with pytest.raises(IllegalActionError) as info:
        RULES.check(state, seat, action)
    err = info.value
    text = X.explain(err.code, err.rule, err.action, RULES.view(state, seat), NAMES[:3])
    return err, text


def test_every_refusal_code_of_the_rules_has_an_explanation() -> None:
    sources = "".join(p.read_text(encoding="utf-8") for p in sorted(SRC.glob("*.py"))
                      if p.name != "explain.py")
    codes = set(re.findall(r'"([a-z][a-z_]+)",\s*(?:"AC-[A-Z]\d+"|rule\b)', sources))
    assert len(codes) >= 17  # the scan itself works
    assert sorted(codes - set(X.EXPLAINERS)) == []
    assert sorted(set(X.EXPLAINERS) - codes) == []


def test_the_issue_example_names_the_card_and_keeps_the_rule() -> None:
    state = RULES.new(AdventureOptions(), 1, pinned=PINNED)
    err, text = refusal(state, 0, RequestCard(1, "S1"))
    assert err.code == "action/card_in_own_hand"
    name = X.card_words("S1")
    assert name.endswith("(space ship 1)") and len(name) > len("(space ship 1)") + 2
    assert text == f"You already hold {name}: ask for a card you don't have. (AC-A2)"


@pytest.mark.parametrize(
    ("seat", "action", "options", "expected"),
    [
        (1, RequestCard(0, "S5"), {}, "It is not your turn: wait for Ada (player 1) to play. "
                                      "(AC-R7)"),
        (0, RequestCard(0, "S5"), {}, "You cannot ask yourself for a card: ask Bo or Cyd. "
                                      "(AC-R8)"),
        (0, RequestCard(3, "S5"), {}, "There is no player 4 in this game: ask Bo or Cyd "
                                      "(players 1-3). (AC-R8)"),
        (0, DeclareCard(6, "M2"), {}, "There is no table slot 7: the slots are 1-6. (AC-R9)"),
        (0, DeclareCard(0, "P1"), {}, "You hold {P1} yourself, so it cannot be on the table: "
                                      "name a card you don't have. (AC-A13)"),
        (0, Peek(1), {}, "You may peek only right after a request of yours is refused: now ask "
                         "a player for a card or declare a table slot. (AC-A3)"),
        (0, PassTurn(), {}, "You may pass only when there is nothing else to do: ask a player "
                            "for a card or declare a table slot. (AC-R10)"),
        (0, ClaimMission(0), {}, "Missions are claimed automatically in this game: there is "
                                 "nothing to claim by hand. (AC-A5)"),
        (0, ClaimMission(6), {"auto_claim": False}, "There is no mission 7: the missions are "
                                                    "1-6. (AC-A5)"),
        (0, ClaimMission(0), {"auto_claim": False},
         "Mission 1 is not complete yet: you still need {M1}. (AC-R4)"),
        (0, RequestCard(1, "S4"), {"require_mission_card_to_request": True},
         "To ask for {S4} you must already hold a card of mission 4 in this game: ask for a "
         "card of a mission you have started. (AC-A1)"),
    ],
)
def test_refusals_read_as_sentences(seat: int, action: Any, options: dict[str, Any],
                                    expected: str) -> None:
    state = RULES.new(AdventureOptions(**options), 1, pinned=PINNED)
    _, text = refusal(state, seat, action)
    wanted = re.sub(r"\{(\w\d)\}", lambda m: X.card_words(m.group(1)), expected)
    assert text == wanted


def test_peek_phase_and_empty_slot_count_from_one() -> None:
    state = RULES.new(AdventureOptions(), 1, pinned=PINNED)
    state, _ = RULES.apply(state, 0, RequestCard(1, "S5"))  # Cyd holds it: refused, peek phase
    _, text = refusal(state, 0, RequestCard(2, "S5"))
    assert text.startswith("Your request was refused, so now you may only peek")
    # A correct declaration empties slot 1 (shown as 1; slots keep their numbers).
    state = RULES.new(AdventureOptions(), 1, pinned=PINNED)
    state, _ = RULES.apply(state, 0, DeclareCard(0, "M2"))
    _, text = refusal(state, 0, DeclareCard(0, "M3"))
    assert text == ("Table slot 1 is empty (its card was taken; slots keep their numbers): "
                    "choose one with a card: 2-6. (AC-R9)")


def test_known_miss_names_the_player_and_the_card() -> None:
    opts = AdventureOptions(forbid_known_misses=True, next_after_failed_request="asked_player",
                            peek_after_failed_request=False)
    state2 = RULES.new(opts, 1, pinned=PINNED)
    state2, _ = RULES.apply(state2, 0, RequestCard(1, "M2"))  # Bo lacks it, everyone saw
    state2, _ = RULES.apply(state2, 1, RequestCard(2, "S1"))  # Cyd lacks S1: refused, to Cyd
    _, text = refusal(state2, 2, RequestCard(1, "M2"))
    assert text == (f"Everyone saw that Bo does not have {X.card_words('M2')}: in this game you "
                    "must ask for something else. (AC-A2)")


def _random_action(rng: random.Random, players: int) -> Any:
    kind = rng.randrange(6)
    if kind == 0:
        return RequestCard(rng.randrange(-1, players + 1), rng.choice(CARDS))
    if kind == 1:
        return DeclareCard(rng.randrange(-1, 14), rng.choice(CARDS))
    if kind == 2:
        return Peek(rng.randrange(-1, 14))
    if kind == 3:
        return SkipPeek()
    if kind == 4:
        return ClaimMission(rng.randrange(-1, 7))
    return PassTurn()


@pytest.mark.parametrize(
    "options",
    [{}, {"auto_claim": False}, {"require_mission_card_to_request": True,
                                 "forbid_empty_targets": True, "forbid_known_misses": True}],
)
def test_no_sentence_shows_an_internal_spelling(options: dict[str, Any]) -> None:
    rng = random.Random(7)
    seen: set[str] = set()
    for seed in range(6):
        players = 2 + seed % 4
        state = RULES.new(AdventureOptions(**options), seed, players=players)
        for _ in range(300):
            if RULES.to_act(state) is None:
                break
            seat = rng.randrange(players)
            action = _random_action(rng, players)
            try:
                RULES.check(state, seat, action)
            except IllegalActionError as err:
                text = X.explain(err.code, err.rule, err.action, RULES.view(state, seat), NAMES)
                seen.add(err.reason)
                assert err.reason in X.EXPLAINERS
                assert text.endswith(f"({err.rule})"), text
                assert not [f for f in FORBIDDEN if f in text], text
                assert not CODE_WORD.search(text), text
                continue
            state, _ = RULES.apply(state, seat, action)
    assert len(seen) >= 9  # the sweep really met many kinds of refusal
