"""The Adventure Cards determinizer: every sampled state agrees with what the seat knows.

Games are played by memory bots; at many decisions, a determinizer that has seen exactly the
seat's events samples states, and each must be a legal game (all 24 cards once, the state JSON
loads) that matches the seat's view (same hand, hand sizes, table occupancy, known faces,
discard) and its facts (known holders in place, no card in a hand seen to lack it since).
The real state must satisfy the same facts: otherwise a "fact" would be wrong.
"""

from __future__ import annotations

from typing import Any

import pytest

from pocketgalaxy.agents.adventure import MemoryAgent
from pocketgalaxy.agents.adventure.deals import TABLE, Knowledge, consistent_with, feasible
from pocketgalaxy.agents.adventure.memory import SLOT
from pocketgalaxy.agents.adventure.search import AdventureDeterminizer
from pocketgalaxy.agents.ismcts import FastRandom
from pocketgalaxy.core.game import visible_events
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.adventure import (
    AdventureOptions,
    AdventureRules,
    AdventureState,
    RequestCard,
    SkipPeek,
)
from pocketgalaxy.games.adventure.events import CardDeclared
from pocketgalaxy.games.adventure.identities import CARDS

RULES = AdventureRules()


def _facts(det: AdventureDeterminizer) -> list[tuple[int, str]]:
    """(seat, card) pairs the seat believes impossible: seen lacking it, or asking for it."""
    mem = det.memory
    out = [(p, c) for p in range(det.players) for c in mem.lacks[p]]
    out += [(p, c) for p in range(det.players) for c in det.absent[p]]
    return [(p, c) for p, c in out if p != det.seat]


def _check_state(det: AdventureDeterminizer, view: Any, state: AdventureState, real: bool) -> None:
    problems = consistent_with(view, state)
    assert not problems, problems
    for p, card in _facts(det):
        assert card not in state.hands[p], f"seat {p} holds {card} against a fact ({real=})"
    for card, where in det.memory.loc.items():
        if where >= SLOT:
            assert state.table[where - SLOT] == card
        elif where != det.seat:
            assert card in state.hands[where]
    if not real:
        AdventureState.from_json(state.to_json())  # the loader's own checks: every card once
        assert sorted(
            [c for h in state.hands for c in h] + [c for c in state.table if c] + state.discard
        ) == sorted(CARDS)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (3, 5), (4, 3), (5, 4)])
def test_every_sample_agrees_with_the_seats_knowledge(players: int, seed: int) -> None:
    opts = AdventureOptions()
    state = RULES.new(opts, seed, players=players)
    bots = [MemoryAgent(seed=seed * 10 + s) for s in range(players)]
    dets = [AdventureDeterminizer() for _ in range(players)]
    for s in range(players):
        bots[s].reset(s, players, opts)
        dets[s].reset(s, players, opts)
        opening = visible_events(state.log_cur, s)
        bots[s].observe(opening)
        dets[s].observe(opening)
    rng = FastRandom(seed)
    checked = 0
    while (seat := RULES.to_act(state)) is not None:
        view = RULES.view(state, seat)
        det = dets[seat]
        knowledge = det.knowledge(view)
        _check_state(det, view, state, real=True)  # the facts hold in the real game
        for _ in range(4):
            _check_state(det, view, knowledge.sample(rng), real=False)
        checked += 1
        action = bots[seat].act(view, RULES.legal_actions(state, seat))
        events = RULES.apply_unchecked(state, seat, action)
        for s in range(players):
            seen = visible_events(events, s)
            bots[s].observe(seen)
            dets[s].observe(seen)
    assert checked > 10


def test_a_requester_is_known_not_to_hold_the_card_it_asked_for() -> None:
    opts = AdventureOptions()
    pinned = {
        "missions": [[f"S{k}", f"P{k}", f"A{k}", f"M{k}"] for k in range(1, 7)],
        "hands": [
            ["S1", "P1", "A1", "S2", "P2", "A2"],
            ["M1", "S3", "P3", "A3", "S4", "P4"],
            ["M2", "M3", "A4", "M4", "S5", "P5"],
        ],
        "table": ["A5", "M5", "S6", "P6", "A6", "M6"],
        "first_player": 1,
    }
    state = RULES.new(opts, 1, players=3, pinned=pinned)
    det = AdventureDeterminizer()
    det.reset(0, 3, opts)
    det.observe(visible_events(state.log_cur, 0))
    # seat 1 asks seat 2 for M2: granted. Then asks seat 0 for M6: refused, so seat 1 lacks M6
    for seat, action in ((1, RequestCard(2, "M2")), (1, RequestCard(0, "M6")), (1, SkipPeek())):
        state, events = RULES.apply(state, seat, action)
        det.observe(visible_events(events, 0))
    assert "M6" in det.absent[1] and "M2" in det.absent[2]
    view = RULES.view(state, 0)
    knowledge = det.knowledge(view)
    rng = FastRandom(3)
    for _ in range(200):
        sample = knowledge.sample(rng)
        assert "M6" not in sample.hands[1] and "M2" in sample.hands[1]
        assert "M2" not in sample.hands[2]
    # ... until seat 1 is seen to gain M6 (here: naming it correctly at its slot)
    slot = state.table.index("M6")
    det.observe([CardDeclared(1, slot, "M6", True, "M6")])
    assert "M6" not in det.absent[1]


def test_feasibility_is_halls_condition() -> None:
    # two cards that only place 0 may hold, but place 0 has room for one
    assert not feasible([0b01, 0b01], [1, 1])
    assert feasible([0b01, 0b11], [1, 1])
    assert not feasible([0b11], [1, 1])  # the counts must match exactly
    assert feasible([0b10, 0b01, 0b11], [2, 1])


def test_the_exact_dealer_finds_the_only_deal_the_quick_one_may_miss() -> None:
    # place 0 (a hand) may hold only a and b; the table takes anything; a, b, c, d
    template = RULES.new(AdventureOptions(), 1, players=2)
    cards = ["S1", "S2", "S3", "S4"]
    allowed = {"S1": (0, 1), "S2": (0, 1), "S3": (1,), "S4": (1,)}
    knowledge = Knowledge(template, [[], []], {}, [0, 1], [1, TABLE], [2, 2], cards, allowed, [])
    rng = Rng(4)
    for _ in range(20):
        deal = knowledge._exact_deal(rng)
        assert sorted(deal[0]) == ["S1", "S2"] and sorted(deal[1]) == ["S3", "S4"]
