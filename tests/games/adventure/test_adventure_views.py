"""Views hold only what a seat may know: equal views for states that differ in secrets only."""

from __future__ import annotations

import json
import re
from typing import Any

from adventure_testkit import RULES, new, play
from hypothesis import given, settings
from hypothesis import strategies as st

from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.adventure import AdventureOptions, AdventureState, RequestCard, SkipPeek

FEW = settings(max_examples=30, deadline=None)
GAMES = st.tuples(st.integers(3, 5), st.integers(0, 2**31), st.integers(0, 300))


def _played(players: int, seed: int, steps: int) -> AdventureState:
    state = RULES.new(AdventureOptions(), seed, players=players)
    rng = Rng(seed + 1)
    for _ in range(steps):
        if RULES.to_act(state) is None:
            break
        seat = state.to_move
        RULES.apply_unchecked(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    return state


@FEW
@given(GAMES, st.integers(0, 2**20))
def test_swapping_cards_between_two_other_hands_does_not_change_a_view(
    game: Any, pick: int
) -> None:
    state = _played(*game)
    rng = Rng(pick)
    seat = rng.below(state.players)
    others = [p for p in range(state.players) if p != seat and state.hands[p]]
    if len(others) < 2:
        return
    a, b = others[0], others[1 + rng.below(len(others) - 1)]
    twin = state.clone()
    i, j = rng.below(len(twin.hands[a])), rng.below(len(twin.hands[b]))
    twin.hands[a][i], twin.hands[b][j] = twin.hands[b][j], twin.hands[a][i]
    assert RULES.view(twin, seat) == RULES.view(state, seat)
    assert RULES.view(twin, None) == RULES.view(state, None)


@FEW
@given(GAMES, st.integers(0, 2**20))
def test_swapping_an_unseen_table_card_with_another_hand_does_not_change_a_view(
    game: Any, pick: int
) -> None:
    state = _played(*game)
    rng = Rng(pick)
    seat = rng.below(state.players)
    slots = [s for s, c in enumerate(state.table) if c is not None and state.seen[seat][s] is None]
    others = [p for p in range(state.players) if p != seat and state.hands[p]]
    if not slots or not others:
        return
    slot, other = slots[rng.below(len(slots))], others[rng.below(len(others))]
    twin = state.clone()
    k = rng.below(len(twin.hands[other]))
    face = twin.table[slot]
    assert face is not None
    twin.table[slot], twin.hands[other][k] = twin.hands[other][k], face
    for row in twin.seen:  # whoever had seen the old face would now see the new one
        if row[slot] is not None:
            row[slot] = twin.table[slot]
    assert RULES.view(twin, seat) == RULES.view(state, seat)


def _identities(text: str) -> set[str]:
    return set(re.findall(r"\b[SPAM][1-6]\b", text))


@FEW
@given(GAMES)
def test_a_view_names_no_card_of_another_hand_beyond_what_the_seat_saw(game: Any) -> None:
    state = _played(*game)
    for seat in [*range(state.players), None]:
        data = RULES.view(state, seat).to_json()
        data.pop("missions")  # the public layout names all 24 identities
        data.pop("legal")  # names what may be asked for: everything not in hand or discard
        recent = data.pop("recent")
        recent = [e for e in recent if e["type"] != "MissionsLaid"]
        allowed = set(data["hand"]) | set(data["discard"]) | set(data["known"].values())
        allowed |= _identities(json.dumps(recent))
        named = _identities(json.dumps(data)) | _identities(json.dumps(recent))
        assert named <= allowed
        for other in range(state.players):
            if other != seat:
                secret = set(state.hands[other]) - allowed
                assert not secret & named


def test_watcher_and_other_seats_never_see_a_peeked_face() -> None:
    state, _ = play(new(), (0, RequestCard(1, "P5")))
    from pocketgalaxy.games.adventure import Peek

    state, _ = play(state, (0, Peek(4)))
    assert RULES.view(state, 0).known[4] == "M5"
    for seat in (1, 2, 3, None):
        view = RULES.view(state, seat)
        assert view.known[4] is None
        shown = {k: v for k, v in view.to_json().items() if k not in ("missions", "legal")}
        shown["recent"] = [e for e in shown["recent"] if e["type"] != "MissionsLaid"]
        assert "M5" not in json.dumps(shown)


def test_view_json_shape_and_legal_summary() -> None:
    state = new()
    data = RULES.view(state, 0).to_json()
    assert set(data) == {
        "game", "seat", "players", "to_act", "phase", "turn", "hand", "hand_sizes", "missions",
        "claimed_by", "table", "known", "discard", "scores", "recent", "legal", "outcome",
    }
    assert data["hand"] == ["S1", "S2", "P1", "A1"]
    assert data["legal"]["kinds"] == ["RequestCard", "DeclareCard"]
    assert data["legal"]["request_targets"] == [1, 2, 3]
    assert RULES.view(state, 1).to_json()["legal"]["kinds"] == []
    assert RULES.view(state, None).hand == ()
    peek, _ = play(state, (0, RequestCard(1, "P5")))
    assert RULES.view(peek, 0).legal.peek_slots == tuple(range(8))
    done, _ = play(peek, (0, SkipPeek()))
    assert [e["type"] for e in RULES.view(done, 2).to_json()["recent"]][-3:] == [
        "RequestRefused", "PeekSkipped", "TurnPassed",
    ]
