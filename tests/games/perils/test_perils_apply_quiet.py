"""`PerilsRules.apply_quiet` (events dropped, no verdict reasons built) leaves every state
exactly as `apply_unchecked` does, decision by decision, under several option sets, on the full
and the quiet rules; the random generator is part of the compared state."""

from __future__ import annotations

import pytest

from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.registry import perils_rules

OPTION_SETS = [
    {},
    {"teller_policy": "human", "advantage_threshold": 2},
    {"teller_policy": "approve_all", "channel_bonus": "level"},
    {"theme": "dungeon", "pathway_order": "shuffled", "clarity": "plain"},
    {"item_suit_restriction": True, "heart_is_skill": True, "start_health": 2},
]


@pytest.mark.parametrize("narrate", [False, True])
@pytest.mark.parametrize("options", OPTION_SETS)
def test_quiet_apply_matches_unchecked_apply_every_decision(narrate: bool,
                                                            options: dict[str, object]) -> None:
    rules = perils_rules(narrate=narrate)
    opts = PerilsOptions(**options)  # type: ignore[arg-type]
    judged = 0
    for seed in (1, 4, 9):
        loud, quiet = rules.new(opts, seed), rules.new(opts, seed)
        pick = Rng(seed + 100)
        steps = 0
        seat = rules.to_act(loud)
        while seat is not None:
            assert rules.to_act(quiet) == seat
            legal = rules.legal_actions(loud, seat)
            assert rules.legal_actions(quiet, seat) == legal
            action = legal[pick.below(len(legal))]
            judged += loud.phase in ("plan", "judge")
            events = rules.apply_unchecked(loud, seat, action)
            assert rules.apply_quiet(quiet, seat, action) is None
            assert quiet.to_json() == loud.to_json(), (seed, steps, action)
            assert isinstance(events, list)
            steps += 1
            seat = rules.to_act(loud)
        assert rules.to_act(quiet) is None
        assert rules.outcome(quiet) == rules.outcome(loud)
        assert steps > 10
    assert judged > 0


def test_the_reasons_are_still_built_when_the_events_are_read() -> None:
    rules = perils_rules(narrate=False)
    state = rules.new(None, 3)
    pick = Rng(5)
    reasons = []
    seat = rules.to_act(state)
    while seat is not None:
        legal = rules.legal_actions(state, seat)
        for event in rules.apply_unchecked(state, seat, legal[pick.below(len(legal))]):
            if type(event).__name__ == "PlanJudged":
                reasons.append(event.reasons)  # type: ignore[attr-defined]
        seat = rules.to_act(state)
    assert reasons
    assert all(isinstance(r, dict) and set(r) == {"sources", "advantage"} for r in reasons)
