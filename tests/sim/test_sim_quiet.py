"""The simulator's fast path plays exactly the games of the full path.

The fast path is two things (sim/runner.py, docs/simulation.md): the quiet Perils rules, whose
computer Teller suggests placeholders instead of sentences, and skipping the view of a decision
with one legal action for agents that declare `forced_is_first`. These tests play the quiet and
the full rules in lockstep and require every view (words aside), every legal list, every action
and every event (words aside) to be equal; they hold the runner's results with and without
narration together, also in separate processes with different string-hash salts; and they check
that a `forced_is_first` agent really takes the one legal action.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.core.game import Action, visible_events
from pocketgalaxy.core.options import options_from_json
from pocketgalaxy.games.perils.actions import DescribePathways
from pocketgalaxy.games.perils.rules import QUIET_DESCRIPTION, PerilsRules
from pocketgalaxy.registry import perils_rules
from pocketgalaxy.sim.runner import derive_seed, play_one, run_many

# (Hero, Teller, options): policies that judge plan text, every clarity and hint rule.
CONFIGS: list[tuple[str, str, dict[str, Any]]] = [
    ("rulebased", "teller", {"teller_policy": "approve_all"}),
    ("rulebased", "teller", {"teller_policy": "rubric", "clarity": "cryptic"}),
    ("rulebased", "teller:style=fair", {"teller_policy": "human", "clarity": "plain",
                                        "disguise": "often"}),
    ("rulebased", "teller", {"hint_fidelity": "band_only", "archetype": "scout"}),
    ("planner:samples=4", "teller", {"teller_policy": "approve_all", "clarity": "subtle"}),
    ("random", "random", {}),
]
NARRATION_FIELDS = ("story", "descriptions")


def _words_out(data: Any) -> Any:
    """A JSON value with every narration text blanked (the only thing the paths may differ in)."""
    if isinstance(data, dict):
        out = {}
        for key, value in data.items():
            if key in NARRATION_FIELDS or key in ("description", "suggestions"):
                out[key] = None if value is None else "<words>"
            else:
                out[key] = _words_out(value)
        return out
    if isinstance(data, list):
        return [_words_out(v) for v in data]
    return data


def _action_key(action: Action) -> Any:
    if isinstance(action, DescribePathways):
        return ("DescribePathways", len(action.descriptions))
    return action


def _agents(specs: tuple[str, str], seed: int, options: Any) -> dict[int, Agent]:
    agents = {seat: make_agent("perils", spec, seat, 2, seed=derive_seed(seed, 1 + seat))
              for seat, spec in enumerate(specs)}
    for seat, agent in agents.items():
        agent.reset(seat, 2, options)
    return agents


def _lockstep(specs: tuple[str, str], seed: int, raw: dict[str, Any]) -> int:
    """Play the full and the quiet rules side by side; return the number of decisions."""
    full, quiet = perils_rules(), perils_rules(narrate=False)
    assert isinstance(quiet, PerilsRules) and not quiet.narrate and full.narrate
    options = options_from_json(full.options_type, raw)
    states = [full.new(options, seed, players=2), quiet.new(options, seed, players=2)]
    agents = [_agents(specs, seed, options), _agents(specs, seed, options)]
    for rules, state, team in zip((full, quiet), states, agents, strict=True):
        opening = rules.opening_events(state)
        for seat, agent in team.items():
            agent.observe(visible_events(opening, seat))
    decisions = 0
    seat = full.to_act(states[0])
    while seat is not None:
        assert quiet.to_act(states[1]) == seat
        legal = [full.legal_actions(states[0], seat), quiet.legal_actions(states[1], seat)]
        assert [_action_key(a) for a in legal[0]] == [_action_key(a) for a in legal[1]]
        views = [full.view(states[0], seat), quiet.view(states[1], seat)]
        assert _words_out(views[0].to_json()) == _words_out(views[1].to_json())
        hints = [[p.hint for p in v.pathways] for v in views]
        assert hints[0] == hints[1]
        actions = [agents[0][seat].act(views[0], legal[0]), agents[1][seat].act(views[1], legal[1])]
        assert _action_key(actions[0]) == _action_key(actions[1])
        if isinstance(actions[1], DescribePathways):
            assert set(actions[1].descriptions) == {QUIET_DESCRIPTION}
        events = [full.apply_unchecked(states[0], seat, actions[0]),
                  quiet.apply_unchecked(states[1], seat, actions[1])]
        assert ([_words_out(e.to_json()) for e in events[0]]
                == [_words_out(e.to_json()) for e in events[1]])
        assert all(e.to_json().get("story", "") == "" for e in events[1])
        for rules_events, team in zip(events, agents, strict=True):
            for s, agent in team.items():
                agent.observe(visible_events(rules_events, s))
        decisions += 1
        seat = full.to_act(states[0])
    assert quiet.to_act(states[1]) is None
    assert full.outcome(states[0]) == quiet.outcome(states[1])
    assert states[0].rng.state == states[1].rng.state
    return decisions


@pytest.mark.parametrize(("hero", "teller", "options"), CONFIGS)
def test_quiet_rules_play_every_decision_of_the_full_rules(
    hero: str, teller: str, options: dict[str, Any]
) -> None:
    for seed in (3, 17):
        decisions = _lockstep((hero, teller), seed, options)
        # The runner's fast path (quiet rules, forced decisions without a view) agrees too.
        result = play_one("perils", (hero, teller), seed, options)
        assert result.decisions == decisions
        full = play_one("perils", (hero, teller), seed, options, narrate=True)
        assert _row(full) == _row(result)


def _row(result: Any) -> dict[str, Any]:
    data: dict[str, Any] = result.to_json()
    data.pop("seconds")
    data.pop("decision_seconds")
    return data


def test_quiet_rules_suggest_placeholders_and_full_rules_sentences() -> None:
    options = options_from_json(perils_rules().options_type, {"archetype": "scout"})
    full, quiet = perils_rules(), perils_rules(narrate=False)
    state = full.new(options, 5, players=2)
    assert state.phase == "describe" and len(state.pathways) >= 2
    words = full.suggestions(state)
    assert len(words) == len(state.pathways)
    assert all(len(w) > 20 and w != QUIET_DESCRIPTION for w in words)
    assert quiet.suggestions(state) == (QUIET_DESCRIPTION,) * len(state.pathways)
    assert perils_rules(True) is perils_rules() is perils_rules(narrate=True)
    assert perils_rules(False) is quiet


def test_forced_is_first_agents_take_the_one_legal_action() -> None:
    rules = perils_rules()
    forced = 0
    for seed in range(6):
        options = options_from_json(rules.options_type,
                                    {"teller_policy": ("rubric", "approve_all")[seed % 2]})
        state = rules.new(options, seed, players=2)
        agents = _agents(("rulebased", "teller"), seed, options)
        assert all(a.forced_is_first for a in agents.values())
        seat = rules.to_act(state)
        while seat is not None:
            legal = rules.legal_actions(state, seat)
            action = agents[seat].act(rules.view(state, seat), legal)
            if len(legal) == 1:
                assert action == legal[0]
                forced += 1
            events = rules.apply_unchecked(state, seat, action)
            for s, agent in agents.items():
                agent.observe(visible_events(events, s))
            seat = rules.to_act(state)
    assert forced > 50  # describe and roll decisions are forced: the check really ran


def test_random_agent_does_not_claim_forced_moves() -> None:
    # It draws from its generator even with one choice, so skipping it would shift its stream.
    assert not make_agent("perils", "random", 0).forced_is_first
    assert not make_agent("perils", "planner", 0).forced_is_first


_SCRIPT = """
import json, sys
from pocketgalaxy.sim.runner import run_many
narrate = sys.argv[1] == "full"
out = []
for hero, options in (("rulebased", {"teller_policy": "approve_all"}),
                      ("rulebased", {"teller_policy": "rubric", "clarity": "subtle"}),
                      ("random", {})):
    for r in run_many("perils", [hero, "teller"], 12, 9, options, 2, narrate=narrate,
                      workers=int(sys.argv[2])):
        row = r.to_json(); row.pop("seconds"); row.pop("decision_seconds")
        out.append(row)
print(json.dumps(out, sort_keys=True))
"""


def test_full_and_quiet_paths_agree_across_processes_and_hash_salts() -> None:
    outputs = []
    for path, salt, workers in (("full", "1", "1"), ("quiet", "2", "2"), ("quiet", "3", "1")):
        env = dict(os.environ, PYTHONHASHSEED=salt)
        done = subprocess.run([sys.executable, "-c", _SCRIPT, path, workers], env=env,
                              capture_output=True, text=True, check=True, timeout=300)
        outputs.append(done.stdout)
    assert len(json.loads(outputs[0])) == 36
    assert outputs[0] == outputs[1] == outputs[2]


def test_run_many_narrate_flag_keeps_results() -> None:
    quiet = run_many("perils", ["rulebased", "teller"], 6, 21, {"teller_policy": "rubric"}, 2)
    full = run_many("perils", ["rulebased", "teller"], 6, 21, {"teller_policy": "rubric"}, 2,
                    narrate=True)
    assert len(quiet) == 6 and all(r.decisions > 10 for r in quiet)
    assert [_row(r) for r in quiet] == [_row(r) for r in full]
