"""The quiet apply of Adventure Cards (effects.py, `apply_quiet`) plays exactly the game the
event-building apply plays: the same states after every decision (all but the turn log, which a
quiet apply does not keep), the same random stream and the same outcome, under the options
that change the flow of a turn."""

from __future__ import annotations

from typing import Any

import pytest

from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.adventure import AdventureOptions, AdventureRules

RULES = AdventureRules()

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"peek_after_failed_request": True, "next_after_failed_request": "asked_player"},
    {"auto_claim": False, "forbid_known_misses": True},
    {"require_mission_card_to_request": True, "forbid_empty_targets": True},
    {"allow_any_declaration": True, "max_turns": 40},
]


def _without_log(state: Any) -> dict[str, Any]:
    data: dict[str, Any] = state.to_json()
    del data["log_prev"], data["log_cur"]
    return data


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("settings", OPTION_SETS)
def test_quiet_and_loud_play_the_same_game(players: int, settings: dict[str, Any]) -> None:
    opts = AdventureOptions(**settings)
    for seed in (players * 10 + 1, players * 10 + 2):
        loud = RULES.new(opts, seed, players=players)
        quiet = RULES.new(opts, seed, players=players)
        picks_loud, picks_quiet = Rng(seed), Rng(seed)
        steps = 0
        while RULES.to_act(loud) is not None:
            seat = RULES.to_act(loud)
            assert seat is not None and RULES.to_act(quiet) == seat
            legal = RULES.legal_actions(loud, seat)
            assert RULES.legal_actions(quiet, seat) == legal
            events = RULES.apply_unchecked(loud, seat, legal[picks_loud.below(len(legal))])
            assert events  # every loud action says what happened
            action = legal[picks_quiet.below(len(legal))]
            assert RULES.apply_quiet(quiet, seat, action) is None
            assert _without_log(quiet) == _without_log(loud)
            steps += 1
        assert RULES.to_act(quiet) is None
        assert RULES.outcome(quiet) == RULES.outcome(loud)
        assert quiet.rng == loud.rng and picks_quiet.state == picks_loud.state
        assert steps > 0
        assert quiet.log_cur == [] and quiet.log_prev == []  # quiet keeps no log
        assert loud.log_cur[-1].to_json()["type"] == "GameEnded"


def test_a_loud_step_after_a_quiet_one_logs_exactly_its_own_events() -> None:
    state = RULES.new(AdventureOptions(), 5, players=3)
    assert state.log_cur  # the deal's events
    for loud in (False, True, False, True):
        seat = RULES.to_act(state)
        assert seat is not None
        action = RULES.legal_actions(state, seat)[0]
        if loud:
            events = RULES.apply_unchecked(state, seat, action)
            assert events and state.log_prev + state.log_cur == events
        else:
            RULES.apply_quiet(state, seat, action)
            assert state.log_prev == [] and state.log_cur == []
