"""The contract every registered game keeps, at every player count it supports.

Random playouts end; every listed legal action passes `check`; `apply` never touches its input;
an illegal action changes nothing; clone is independent; JSON round-trips; a seed gives the same
trace; a record replays to the same state; views and their JSON carry no random-generator state.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pocketgalaxy.core.errors import IllegalActionError, MalformedActionError
from pocketgalaxy.core.game import visible_events
from pocketgalaxy.core.record import GameRecord, replay
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.registry import games
from pocketgalaxy.session import Session

MAX_STEPS = 20_000
CASES = [
    (name, n)
    for name, rules in sorted(games().items())
    for n in range(rules.min_players, rules.max_players + 1)
]


def _dump(state: Any) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def _playout(name: str, players: int, seed: int) -> tuple[Any, list[tuple[int, Any]], list[Any]]:
    """A uniform-random game; returns the final state, the (seat, action) list and all events."""
    rules = games()[name]
    state = rules.new(None, seed, players=players)
    chooser = Rng(seed + 1)
    actions: list[tuple[int, Any]] = []
    events: list[Any] = []
    for _ in range(MAX_STEPS):
        seat = rules.to_act(state)
        if seat is None:
            break
        legal = rules.legal_actions(state, seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        action = chooser.choice(legal)
        state, new_events = rules.apply(state, seat, action)
        actions.append((seat, action))
        events.extend(new_events)
    return state, actions, events


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_playouts_end_with_an_outcome(name: str, players: int) -> None:
    rules = games()[name]
    for seed in range(3):
        state, actions, _ = _playout(name, players, seed)
        assert rules.to_act(state) is None, f"{name} seed {seed} did not end in {MAX_STEPS} steps"
        outcome = rules.outcome(state)
        assert outcome is not None
        assert all(0 <= w < players for w in outcome.winners)
        assert actions


@pytest.mark.parametrize(("name", "players"), CASES)
def test_same_seed_same_trace(name: str, players: int) -> None:
    s1, a1, e1 = _playout(name, players, 11)
    s2, a2, e2 = _playout(name, players, 11)
    assert a1 == a2 and e1 == e2 and _dump(s1) == _dump(s2)
    s3, a3, _ = _playout(name, players, 12)
    assert (a3, _dump(s3)) != (a1, _dump(s1))


@pytest.mark.parametrize(("name", "players"), CASES)
def test_legal_actions_pass_check_and_apply_never_mutates(name: str, players: int) -> None:
    rules = games()[name]
    state = rules.new(None, 5, players=players)
    chooser = Rng(6)
    for _ in range(300):
        seat = rules.to_act(state)
        if seat is None:
            break
        before = _dump(state)
        legal = rules.legal_actions(state, seat)
        for action in legal[:40]:
            rules.check(state, seat, action)  # must not raise
        for other in range(players):
            if other != seat:
                assert rules.legal_actions(state, other) == []
        state2, _ = rules.apply(state, seat, chooser.choice(legal))
        assert _dump(state) == before, "apply changed its input state"
        state = state2


@pytest.mark.parametrize(("name", "players"), CASES)
def test_illegal_and_malformed_actions_change_nothing(name: str, players: int) -> None:
    rules = games()[name]
    state = rules.new(None, 8, players=players)
    chooser = Rng(9)
    for _ in range(60):
        seat = rules.to_act(state)
        if seat is None:
            break
        before = _dump(state)
        legal = rules.legal_actions(state, seat)
        wrong_seat = (seat + 1) % players
        with pytest.raises(IllegalActionError) as info:
            rules.apply(state, wrong_seat, legal[0])
        assert info.value.code.startswith("action/")
        with pytest.raises(MalformedActionError):
            rules.parse_action({"type": "NoSuchAction"})
        assert _dump(state) == before
        state, _ = rules.apply(state, seat, chooser.choice(legal))


@pytest.mark.parametrize(("name", "players"), CASES)
def test_clone_is_independent_and_json_round_trips(name: str, players: int) -> None:
    rules = games()[name]
    state = rules.new(None, 21, players=players)
    chooser = Rng(22)
    for step in range(200):
        seat = rules.to_act(state)
        if seat is None:
            break
        if step % 7 == 0:
            twin = rules.state_from_json(json.loads(_dump(state)))
            assert _dump(twin) == _dump(state)
            copy = state.clone()
            before = _dump(state)
            legal = rules.legal_actions(copy, seat)
            rules.apply_unchecked(copy, seat, legal[-1])
            assert _dump(state) == before, "changing a clone changed the original"
            # The round-tripped state plays on exactly like the original.
            action = legal[0]
            a, ea = rules.apply(state, seat, action)
            b, eb = rules.apply(twin, seat, action)
            assert ea == eb and _dump(a) == _dump(b)
        state, _ = rules.apply(state, seat, chooser.choice(rules.legal_actions(state, seat)))


@pytest.mark.parametrize(("name", "players"), CASES)
def test_record_replays_to_the_same_state(name: str, players: int) -> None:
    rules = games()[name]
    final, actions, _ = _playout(name, players, 31)
    record = GameRecord(
        game=name,
        options={},
        players=players,
        seed=31,
        actions=[(s, a.to_json()) for s, a in actions],
    )
    again, steps = replay(rules, GameRecord.loads(record.dumps()))
    assert _dump(again) == _dump(final)
    assert len(steps) == len(actions)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_views_are_json_and_hide_the_generator(name: str, players: int) -> None:
    rules = games()[name]
    session = Session(rules, None, seed=41, players=players)
    chooser = Rng(42)
    rng_state = str(session.state.to_json().get("rng", {}).get("state", "no-rng-field"))
    for _ in range(150):
        seat = session.to_act
        if seat is None:
            break
        for who in [*range(players), None]:
            text = json.dumps(session.view(who).to_json())
            assert '"rng"' not in text and rng_state not in text
            for event in session.events_for(who):
                assert event.visible_to(who)
        session.act(seat, chooser.choice(session.legal_actions(seat)))
    # A watcher sees exactly the public events.
    public = visible_events((e for _, e in session.log), None)
    assert session.events_for(None) == public


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_view_for_a_turn_is_the_view(name: str, players: int) -> None:
    """`view_for_turn` (handed the legal list just listed, as the simulation runner does) shows
    every seat and a watcher exactly what `view` shows, at every step of a random game."""
    rules = games()[name]
    state = rules.new(None, 43, players=players)
    chooser = Rng(44)
    for _ in range(150):
        seat = rules.to_act(state)
        if seat is None:
            break
        legal = rules.legal_actions(state, seat)
        assert rules.view_for_turn(state, seat, legal) == rules.view(state, seat)
        for who in [*range(players), None]:
            assert rules.view_for_turn(state, who, None) == rules.view(state, who)
        state, _ = rules.apply(state, seat, chooser.choice(legal))
