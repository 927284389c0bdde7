"""Properties over random games of 2-5 players (hypothesis, bounded examples, pinned seeds)."""

from __future__ import annotations

import json
from typing import Any

from adventure_testkit import RULES
from hypothesis import given, settings
from hypothesis import strategies as st

from pocketgalaxy.core.errors import IllegalActionError, MalformedActionError
from pocketgalaxy.core.game import Action
from pocketgalaxy.core.options import options_from_json, options_to_json
from pocketgalaxy.core.record import GameRecord, replay
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.adventure import (
    CARDS,
    AdventureOptions,
    AdventureState,
    ClaimMission,
    DeclareCard,
    PassTurn,
    Peek,
    RequestCard,
    SkipPeek,
)

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "require_mission_card_to_request": st.booleans(),
        "peek_after_failed_request": st.booleans(),
        "auto_claim": st.booleans(),
        "first_player": st.sampled_from(["random", "seat0"]),
        "next_after_failed_request": st.sampled_from(["left", "asked_player"]),
        "forbid_empty_targets": st.booleans(),
        "forbid_known_misses": st.booleans(),
        "allow_any_declaration": st.booleans(),
        "deal": st.sampled_from(["printed", "even"]),
        "max_turns": st.integers(1, 400),
    },
)
GAMES = st.tuples(st.integers(2, 5), st.integers(0, 2**31), OPTIONS)
FEW = settings(max_examples=25, deadline=None)


def _accounted(state: AdventureState) -> None:
    test_cards = [c for h in state.hands for c in h] + [c for c in state.table if c] + state.discard
    assert sorted(test_cards) == sorted(CARDS)
    mission_cards = [c for g in state.missions for c in g]
    assert sorted(mission_cards) == sorted(CARDS)
    claimed = sorted(c for g, s in zip(state.missions, state.claimed_by, strict=True) if s >= 0
                     for c in g)
    assert claimed == sorted(state.discard)


def _random_game(players: int, seed: int, opts: dict[str, Any], each_step: Any = None) -> tuple[
    AdventureState, list[tuple[int, Action]]
]:
    options = options_from_json(AdventureOptions, opts)
    state = RULES.new(options, seed, players=players)
    rng = Rng(seed ^ 0x5EED)
    steps: list[tuple[int, Action]] = []
    while RULES.to_act(state) is not None:
        seat = state.to_move
        action = rng.choice(RULES.legal_actions(state, seat))
        steps.append((seat, action))
        RULES.apply_unchecked(state, seat, action)
        if each_step is not None:
            each_step(state)
    return state, steps


@FEW
@given(GAMES)
def test_every_card_accounted_for_and_every_game_ends_within_the_cap(game: Any) -> None:
    players, seed, opts = game
    state, _ = _random_game(players, seed, opts, _accounted)
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert state.turn <= state.options.max_turns
    assert outcome.ended_by_cap == (not all(s >= 0 for s in state.claimed_by))


def _arbitrary_action(rng: Rng) -> Action:
    kind = rng.below(6)
    card = CARDS[rng.below(24)]
    number = rng.below(12) - 2
    return [
        RequestCard(number, card),
        DeclareCard(number, card),
        Peek(number),
        SkipPeek(),
        ClaimMission(number),
        PassTurn(),
    ][kind]


@FEW
@given(GAMES, st.integers(0, 400), st.integers(0, 2**20))
def test_check_agrees_with_legal_actions_and_illegal_changes_nothing(
    game: Any, stop: int, probe_seed: int
) -> None:
    players, seed, opts = game
    state = RULES.new(options_from_json(AdventureOptions, opts), seed, players=players)
    rng = Rng(seed)
    for _ in range(stop):
        if RULES.to_act(state) is None:
            break
        seat = state.to_move
        RULES.apply_unchecked(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    probe = Rng(probe_seed)
    before = json.dumps(state.to_json(), sort_keys=True)
    for _ in range(60):
        seat = probe.below(players + 1) - (1 if probe.below(4) == 0 else 0)
        action = _arbitrary_action(probe)
        legal = RULES.legal_actions(state, seat) if seat >= 0 else []
        try:
            new_state, _ = RULES.apply(state, seat, action)
        except (IllegalActionError, MalformedActionError):
            assert action not in legal
        else:
            assert action in legal
            assert new_state is not state
        assert json.dumps(state.to_json(), sort_keys=True) == before


@FEW
@given(GAMES)
def test_replaying_the_record_gives_the_same_final_state_and_json_round_trips(game: Any) -> None:
    players, seed, opts = game
    options = options_from_json(AdventureOptions, opts)
    state, steps = _random_game(players, seed, opts)
    record = GameRecord(
        game="adventure",
        options=options_to_json(options),
        players=players,
        seed=seed,
        actions=[(s, a.to_json()) for s, a in steps],
    )
    again, _ = replay(RULES, GameRecord.loads(record.dumps()))
    assert again.to_json() == state.to_json()
    text = json.dumps(state.to_json())
    assert RULES.state_from_json(json.loads(text)).to_json() == state.to_json()


@FEW
@given(GAMES, st.integers(0, 300))
def test_clone_is_independent(game: Any, stop: int) -> None:
    players, seed, opts = game
    state = RULES.new(options_from_json(AdventureOptions, opts), seed, players=players)
    rng = Rng(seed)
    for _ in range(stop):
        if RULES.to_act(state) is None:
            return
        seat = state.to_move
        RULES.apply_unchecked(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    before = state.to_json()
    copy = state.clone()
    assert copy.to_json() == before
    while RULES.to_act(copy) is not None:
        seat = copy.to_move
        RULES.apply_unchecked(copy, seat, rng.choice(RULES.legal_actions(copy, seat)))
    assert state.to_json() == before


def test_same_seed_same_game() -> None:
    a, steps_a = _random_game(4, 1234, {})
    b, steps_b = _random_game(4, 1234, {})
    assert steps_a == steps_b and a.to_json() == b.to_json()
