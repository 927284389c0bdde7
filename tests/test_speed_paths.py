"""Same seed, same bytes, whatever the speed path: the pure-Python rules core and the mypyc build
(docs/speed.md) play the same seeded games, simulations and replayed record to the same output.

Each path runs in its own interpreter, with a different PYTHONHASHSEED, and reports which file
every compiled module was really loaded from: the compiled run must load `.so` files and the
pure run `.py` files, or the comparison would prove nothing. The compiled half needs `make
compile`; under CI (CI=true) or with POCKETGALAXY_EXPECT_COMPILED=1 a missing or stale build fails
the test instead of skipping it.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pocketgalaxy import speedpath

SRC = Path(__file__).resolve().parents[1] / "src"

# Played by each interpreter. Line 1: where the compiled modules came from; the rest: the games.
_SCRIPT = r"""
import hashlib, json, sys
from typer.testing import CliRunner
from pocketgalaxy import speedpath
from pocketgalaxy.cli.app import app
from pocketgalaxy.core.record import GameRecord, replay
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.registry import get_game

for name in speedpath.read_manifest()["modules"]:
    __import__(name)
print(json.dumps({n: sys.modules[n].__file__ for n in speedpath.read_manifest()["modules"]}))

def playout(game, players, seed):
    rules = get_game(game)
    state = rules.new(None, seed, players=players)
    rng = Rng(seed * 7 + 1)
    taken, log = [], [e.to_json() for e in rules.opening_events(state)]
    seat = rules.to_act(state)
    while seat is not None:
        legal = rules.legal_actions(state, seat)
        action = legal[rng.below(len(legal))]
        if len(taken) % 3:
            log += [e.to_json() for e in rules.apply_unchecked(state, seat, action)]
        else:
            state, events = rules.apply(state, seat, action)
            log += [e.to_json() for e in events]
        taken.append((seat, action.to_json()))
        seat = rules.to_act(state)
    return rules, state, taken, log

for game, players, seed in [("adventure", 2, 1), ("adventure", 3, 2), ("adventure", 4, 3),
                            ("adventure", 5, 4), ("adventure", 4, 99), ("perils", 2, 1),
                            ("perils", 2, 5)]:
    rules, state, taken, log = playout(game, players, seed)
    print(game, players, seed, len(taken), json.dumps(rules.outcome(state).to_json()))
    print(hashlib.sha256(json.dumps([state.to_json(), log]).encode()).hexdigest())
    if seed in (3, 5):  # a record of the game, written out, read back and replayed
        record = GameRecord(game, {}, players, seed, actions=taken)
        final, steps = replay(rules, GameRecord.loads(record.dumps()))
        print("replayed", len(steps), final.to_json() == state.to_json())
        print(json.dumps(final.to_json(), sort_keys=True))

# The plan rubric (compiled with the Perils million): verdicts and reasons on seeded plans.
from pocketgalaxy.games.perils.content import load_theme
from pocketgalaxy.games.perils.rubric import explanation_json, stand_in_thing
from pocketgalaxy.registry import plan_judge
theme, judge, rng = load_theme("cosmic"), plan_judge(), Rng(12)
vocab = sorted({w for s in theme.skills.values() for w in s.keywords}
               | {w for i in theme.items.values() for w in (i.name, *i.keywords)}
               | {"then", "dodgeing", "grapling", "security", "bot", "the", "."})
for n in range(40):
    plan = " ".join(vocab[rng.below(len(vocab))] for _ in range(3 + rng.below(20)))
    items = tuple(sorted(theme.items))[:rng.below(3)]
    verdict = judge.judge(plan, "CDS"[n % 3], items, theme, 1 + n % 3,
                          stand_in_thing(theme, "5D"))
    print(verdict.approve_channel, verdict.approve_items, verdict.advantage,
          json.dumps(explanation_json(verdict), sort_keys=True))

# Perils on the quiet rules, as random playouts and simulations play it: in place, on clones,
# and under options that reach the judge's lists, the penalty and the advantage roll.
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.registry import perils_rules

quiet = perils_rules(narrate=False)
for seed, opts in [(2, None), (8, PerilsOptions(teller_policy="human", advantage_threshold=2)),
                   (13, PerilsOptions(theme="dungeon", pathway_order="shuffled"))]:
    state = quiet.new(opts, seed)
    rng, log, n = Rng(seed), [], 0
    seat = quiet.to_act(state)
    while seat is not None:
        legal = quiet.legal_actions(state, seat)
        action = legal[rng.below(len(legal))]
        if n % 4 == 1:
            state, events = quiet.apply(state, seat, action)
        elif n % 4 == 2:
            events = quiet.apply_unchecked(state.clone(), seat, action)
            events = quiet.apply_unchecked(state, seat, action)
        else:
            events = quiet.apply_unchecked(state, seat, action)
        log += [e.to_json() for e in events]
        n += 1
        seat = quiet.to_act(state)
    print("quiet perils", seed, n, json.dumps(quiet.outcome(state).to_json()))
    print(hashlib.sha256(json.dumps([state.to_json(), log]).encode()).hexdigest())

# The Perils million (compiled views and rule-based Hero): every seat's view of a game the
# rule-based Hero plays against the computer Teller, its decisions, and the Hero pickled mid-game
# (as the web table's thinking processes receive it) going on to decide the same.
import pickle
from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.core.game import visible_events
for seed in (4, 21):
    state = quiet.new(None, seed)
    agents = {s: make_agent("perils", spec, s, 2, seed=seed + s)
              for s, spec in ((0, "rulebased"), (1, "teller"))}
    for s, agent in agents.items():
        agent.reset(s, 2, state.options)
        agent.observe(visible_events(quiet.opening_events(state), s))
    digest, picks, n, copied = hashlib.sha256(), [], 0, False
    while (seat := quiet.to_act(state)) is not None:
        for s in (0, 1, None):
            digest.update(json.dumps(quiet.view(state, s).to_json(), sort_keys=True).encode())
        view = quiet.view(state, seat)
        agent = agents[seat]
        if seat == 0 and n >= 30 and not copied:
            agent = agents[0] = pickle.loads(pickle.dumps(agent))
            copied = True
        action = agent.act(view, quiet.legal_actions(state, seat))
        picks.append(action.to_json())
        events = quiet.apply_unchecked(state, seat, action)
        for s, a in agents.items():
            a.observe(visible_events(events, s))
        n += 1
    print("perils views", seed, n, copied, digest.hexdigest())
    print(hashlib.sha256(json.dumps(picks).encode()).hexdigest(), json.dumps(picks[-3:]))

runner = CliRunner()
for argv in (["simulate", "adventure", "-n", "12", "--players", "4", "--seed", "3"],
             ["simulate", "perils", "-n", "12", "--seed", "3"]):
    result = runner.invoke(app, [*argv, "--json", "--no-timing"])
    print(result.exit_code, result.output.strip())
"""


def _run(pure: bool, hash_seed: str) -> tuple[dict[str, str], str]:
    env = {k: v for k, v in os.environ.items() if k != speedpath.PURE_ENV}
    env["PYTHONHASHSEED"] = hash_seed
    env["PYTHONPATH"] = str(SRC)
    if pure:
        env[speedpath.PURE_ENV] = "1"
    out = subprocess.run([sys.executable, "-c", _SCRIPT], env=env, capture_output=True,
                         text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-3000:]
    first, _, rest = out.stdout.partition("\n")
    files: dict[str, str] = json.loads(first)
    return files, rest


def _compiled_build() -> dict[str, Any]:
    """The build's manifest when a fresh build is here; skips or fails (under CI) otherwise."""
    expected = os.environ.get("CI") == "true" or os.environ.get("POCKETGALAXY_EXPECT_COMPILED")
    manifest = speedpath.read_manifest()
    problem = "no compiled build (`make compile`)" if manifest is None else None
    if manifest is not None:
        problem = speedpath._stale(manifest)
    if problem is not None:
        if expected:
            pytest.fail(f"the compiled rules core is expected here but unusable: {problem}")
        pytest.skip(f"compiled path not tested: {problem}")
    assert manifest is not None
    return manifest


def test_pure_and_compiled_paths_give_identical_bytes() -> None:
    manifest = _compiled_build()
    modules = manifest["modules"]
    assert "pocketgalaxy.games.adventure.rules" in modules
    assert "pocketgalaxy.core.game" in modules
    assert "pocketgalaxy.games.perils.rules" in modules
    assert "pocketgalaxy.games.perils.narration" in modules
    assert "pocketgalaxy.games.perils.rubric" in modules
    assert "pocketgalaxy.games.perils.state" in modules
    assert "pocketgalaxy.games.perils.events" in modules
    assert "pocketgalaxy.games.perils.views" in modules
    assert "pocketgalaxy.agents.base" in modules
    assert "pocketgalaxy.agents.perils.hero" in modules
    assert "pocketgalaxy.agents.perils.plans" in modules
    pure_files, pure_out = _run(pure=True, hash_seed="0")
    compiled_files, compiled_out = _run(pure=False, hash_seed="1")
    _, compiled_again = _run(pure=False, hash_seed="4242")
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    assert sorted(compiled_files) == sorted(modules)
    for name in modules:
        assert compiled_files[name].endswith(suffixes), f"{name} not compiled"
        assert pure_files[name].endswith(".py"), f"{name} not pure under {speedpath.PURE_ENV}"
    assert "replayed" in pure_out and " True\n" in pure_out
    assert pure_out.count('"winners"') >= 9  # seven playouts and two simulation reports
    assert pure_out.count('"reason": "used"') >= 10  # the rubric credited some seeded plans
    assert pure_out.count("perils views") == 2 and '"type": "MakePlan"' in pure_out
    assert compiled_out == pure_out
    assert compiled_again == pure_out


def test_a_stale_build_falls_back_to_pure(tmp_path: Path) -> None:
    """A compiled source edited after the build must not run old compiled rules."""
    manifest = {"format": "pocketgalaxy-compiled", "python": sys.implementation.cache_tag,
                "modules": ["pocketgalaxy.core.rng"],
                "sources": {"pocketgalaxy/core/rng.py": "0" * 64}}
    assert speedpath._stale(manifest) == (
        "pocketgalaxy/core/rng.py changed since the build (run `make compile` or `make pure`)"
    )
    manifest["python"] = "cpython-10"
    assert speedpath._stale(manifest) == (
        f"built for cpython-10, running {sys.implementation.cache_tag}"
    )


def test_states_views_actions_and_records_pickle_on_the_path_in_use() -> None:
    """Worker processes receive states, views and actions by pickle: compiled classes too."""
    import pickle

    from pocketgalaxy.core.record import GameRecord
    from pocketgalaxy.registry import get_game

    rules = get_game("adventure")
    state = rules.new(None, 5, players=3)
    seat = rules.to_act(state)
    assert seat is not None
    action = rules.legal_actions(state, seat)[0]
    events = rules.apply_unchecked(state, seat, action)
    view = rules.view(state, 0)
    record = GameRecord("adventure", {}, 3, 5, actions=[(seat, action.to_json())])
    ended = state.clone()
    while (who := rules.to_act(ended)) is not None:
        rules.apply_unchecked(ended, who, rules.legal_actions(ended, who)[-1])
    outcome = rules.outcome(ended)
    assert outcome is not None and outcome.reason in ("all_missions_claimed", "turn_cap")
    from pocketgalaxy.core.cards import parse_card

    for thing in (state, view, action, events, state.rng, record, outcome, parse_card("8D")):
        again = pickle.loads(pickle.dumps(thing))
        if thing is state:
            assert again.to_json() == state.to_json()
        else:
            assert again == thing


def test_perils_states_and_events_pickle_on_the_path_in_use() -> None:
    """A compiled `PerilsState` (serializable) and the compiled events cross to workers."""
    import pickle

    from pocketgalaxy.core.rng import Rng
    from pocketgalaxy.registry import perils_rules

    rules = perils_rules(narrate=False)
    state = rules.new(None, 6)
    rng = Rng(6)
    events = []
    while (seat := rules.to_act(state)) is not None and len(events) < 60:
        events += rules.apply_unchecked(state, seat,
                                        rules.legal_actions(state, seat)[rng.below(3) % len(
                                            rules.legal_actions(state, seat))])
    again = pickle.loads(pickle.dumps(state))
    assert type(again) is type(state) and again.to_json() == state.to_json()
    assert again.clone().to_json() == state.to_json()
    assert len(events) >= 60
    for event in events:
        assert pickle.loads(pickle.dumps(event)) == event
