"""Properties over random games (hypothesis): cards conserved, health in range, illegal actions
change nothing, records replay, and the Hero never sees a face-down card."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from perils_testkit import R, act

from pocketgalaxy.core.errors import IllegalActionError, PocketGalaxyError
from pocketgalaxy.core.game import Action
from pocketgalaxy.core.options import options_to_json
from pocketgalaxy.core.record import GameRecord, replay
from pocketgalaxy.games.perils.actions import (
    ChooseArchetype,
    ChoosePathway,
    DescribePathways,
    MakePlan,
    Roll,
)
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.state import PerilsState

OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "pathways_per_round": (2, 3),
    "success_comparison": (">=", ">"),
    "skill_adds_to_roll": (False, True),
    "start_health": (3, 1, "heart_card_value"),
    "teller_policy": ("rubric", "approve_all", "human"),
    "item_suit_restriction": (False, True),
    "half_scope": ("total", "per_skill"),
    "half_rounding": ("down", "up"),
    "lost_levels_chooser": ("hero", "teller", "random", "most_recent"),
    "shuffle_back_rule": ("random_half_up", "teller_chooses", "items_only", "all", "none"),
    "reveal_unchosen": (False, True),
    "final_short_round": ("present_remaining", "discard_leftover"),
    "showdown_order": ("hero_chooses", "sequential"),
    "showdown_zero_health": ("lose", "penalty_continue"),
    "hint_fidelity": ("suit+band", "band_only", "kind_only", "none"),
    "theme": ("cosmic", "dungeon"),
}

options_st = st.fixed_dictionaries({k: st.sampled_from(v) for k, v in OPTION_CHOICES.items()})
PROBES: tuple[Action, ...] = (
    Roll(), ChoosePathway(7), ChooseArchetype("nobody"), DescribePathways(("x",)),
    MakePlan("D", ("KD", "KD")),
)


def _face_down(state: PerilsState) -> set[str]:
    hidden = set(state.draw) | set(state.pathways) | set(state.big_bads) | set(state.deck)
    if not state.options.reveal_unchosen and state.phase != "over":
        hidden |= set(state.unchosen)
    hidden |= set(state.prize) if state.phase != "over" else set()
    return hidden


def _play(options: dict[str, Any], seed: int, picks: list[int], check: bool
          ) -> tuple[PerilsState, list[tuple[int, dict[str, Any]]]]:
    opts = PerilsOptions(**options)
    state = R.new(opts, seed)
    actions: list[tuple[int, dict[str, Any]]] = []
    for i in range(400):
        seat = R.to_act(state)
        if seat is None:
            break
        legal = R.legal_actions(state, seat)
        action = legal[picks[i % len(picks)] % len(legal)]
        if check:
            before = json.dumps(state.to_json(), sort_keys=True)
            for probe in PROBES[i % 3: i % 3 + 3]:
                for who in (0, 1):
                    if not R.can(state, who, probe):
                        try:
                            R.apply(state, who, probe)
                        except PocketGalaxyError:
                            pass
                        else:  # pragma: no cover - can() and apply() must agree
                            raise AssertionError(f"{probe} was applied")
            assert json.dumps(state.to_json(), sort_keys=True) == before
        state, _ = R.apply(state, seat, action)
        actions.append((seat, action.to_json()))
        if check:
            state.place_of_each()
            assert 0 <= state.health <= max(opts.max_health, state.start_health)
            for seat_view in (0, None):
                text = json.dumps(R.view(state, seat_view).to_json())
                for code in _face_down(state):
                    assert f'"{code}"' not in text, (code, seat_view)
    return state, actions


@settings(max_examples=30, deadline=None, database=None)
@given(options_st, st.integers(0, 2**31), st.lists(st.integers(0, 50), min_size=1, max_size=8))
def test_random_games_keep_every_invariant(options: dict[str, Any], seed: int,
                                           picks: list[int]) -> None:
    state, actions = _play(options, seed, picks, check=True)
    assert R.state_from_json(json.loads(json.dumps(state.to_json()))).to_json() == state.to_json()
    record = GameRecord(game="perils", options=options_to_json(state.options), players=2,
                        seed=seed, actions=actions)
    replayed, _ = replay(R, GameRecord.loads(record.dumps()))
    assert replayed.to_json() == state.to_json()


@settings(max_examples=30, deadline=None, database=None)
@given(st.integers(0, 2**31), st.permutations(["5D", "9C", "JD", "4H", "7S", "KC", "10H"]))
def test_hidden_cards_do_not_change_the_heros_view(seed: int, order: list[str]) -> None:
    """Two games that differ only in face-down cards give the Hero equal views."""
    opts = PerilsOptions(archetype="envoy")
    a = R.new(opts, seed, pinned={"draw": ["2H", "4H"]})
    b = R.new(opts, seed + 1, pinned={"draw": order[:2], "big_bads": ["AS", "AD", "AC"]})
    b.narration_seed = a.narration_seed  # the prize idea is public and agreed
    for state in (a, b):
        assert R.view(state, 1).to_json() != R.view(a if state is b else b, 1).to_json()
    a, _ = act(a, DescribePathways(("A dim hatch.", "A long stair.")))
    b, _ = act(b, DescribePathways(("A dim hatch.", "A long stair.")))
    for seat in (0, None):
        assert R.view(a, seat).to_json() == R.view(b, seat).to_json()


def test_illegal_action_names_reason_and_changes_nothing() -> None:
    state = R.new(PerilsOptions(archetype="pilot"), 4)
    before = state.to_json()
    try:
        R.apply(state, 0, ChoosePathway(0))
    except IllegalActionError as exc:
        assert exc.code == "action/not_your_turn" and "seat 1 to act" in exc.message
        assert exc.allowed == ()  # nothing is legal for seat 0 now
    else:  # pragma: no cover
        raise AssertionError("accepted out of turn")
    try:
        R.apply(state, 1, DescribePathways(("only one",)))
    except IllegalActionError as exc:
        assert exc.reason == "wrong_count" and exc.rule == "PP-R8"
        for face in state.pathways:  # the Teller may see them; the message itself does not
            assert face not in exc.message
    assert state.to_json() == before
