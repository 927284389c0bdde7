"""The same seed gives the same output in every process, whatever the string hash seed.

Python salts the hash of every string afresh in each process (PYTHONHASHSEED), so a set of
card codes, or a dict built from one, iterates in a different order in every run. One process
has one salt, so a test inside it can never see such an order reach a decision. These tests
run the `simulate` and `tournament` commands in separate processes with different salts, and
with `--workers 2`, and compare the `--no-timing --json` output byte for byte, for both games
and every computer player (small settings, so the whole file runs in well under a minute).

The last test does the same for what the shells send out: every seat's and the watcher's view
JSON, the legal actions and the filtered events that web/payloads.py assembles, and the RL
observations, masks, infos and text renderings, along seeded games with computer players.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

# (name, the command's arguments). Each runs three times: two salts, and a third with 2 workers.
CASES: list[tuple[str, list[str]]] = [
    (
        "simulate-adventure-memory-forgetful-random",
        [
            "simulate", "adventure", "-n", "40", "--players", "5", "--seed", "11", "--bots",
            "memory,forgetful:level=easy,forgetful:level=normal,forgetful:level=hard,random",
        ],
    ),
    (
        "tournament-adventure-ismcts",
        [
            "tournament", "adventure", "-n", "8", "--seed", "4", "--bootstrap", "20", "--bots",
            "ismcts:iterations=30,ismcts:iterations=20,playout=random,forgetful,memory",
            "--players", "3",
        ],
    ),
    (
        "simulate-perils-planner-each-archetype",
        [
            "simulate", "perils", "-n", "12", "--seed", "5", "--archetype", "each",
            "--hero", "planner:samples=8",
        ],
    ),
    (
        "tournament-perils-every-hero-every-teller",
        [
            "tournament", "perils", "-n", "4", "--seed", "6", "--bootstrap", "20",
            "--heroes", "planner:samples=8,rulebased,random",
            "--tellers", "fair,generous,harsh,adaptive,random",
        ],
    ),
]

RUNS: list[tuple[str, list[str]]] = [("1", []), ("2", []), ("3", ["--workers", "2"])]
"""(PYTHONHASHSEED, extra arguments) of the three runs of each case."""

TIMEOUT = 120.0
"""Seconds one command may take before the test gives up on it (each takes a few)."""


def _run(args: list[str], hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-m", "pocketgalaxy", *args, "--json", "--no-timing"],
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, f"{' '.join(args)} failed: {done.stderr[-2000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def outputs() -> dict[str, list[str]]:
    """Every case's three outputs, run two processes at a time (the machine has two cores)."""
    jobs = [(name, [*args, *extra], salt) for name, args in CASES for salt, extra in RUNS]
    with ThreadPoolExecutor(max_workers=2) as pool:
        texts = list(pool.map(lambda job: _run(job[1], job[2]), jobs))
    out: dict[str, list[str]] = {}
    for (name, _, _), text in zip(jobs, texts, strict=True):
        out.setdefault(name, []).append(text)
    return out


def _first_difference(a: str, b: str) -> str:
    for n, (x, y) in enumerate(zip(a.splitlines(), b.splitlines(), strict=False)):
        if x != y:
            return f"line {n + 1}: {x.strip()!r} against {y.strip()!r}"
    return "one output is longer"


@pytest.mark.parametrize("name", [name for name, _ in CASES])
def test_same_bytes_in_every_process(outputs: dict[str, list[str]], name: str) -> None:
    first, *others = outputs[name]
    assert first.startswith("{") and '"seed"' in first  # a report, not an empty output
    assert "per_decision" not in first and "per_second" not in first  # timing left out
    for (salt, extra), text in zip(RUNS[1:], others, strict=True):
        assert text == first, (
            f"{name}: PYTHONHASHSEED={salt} {' '.join(extra)} differs from PYTHONHASHSEED=1 at "
            + _first_difference(first, text)
        )


SHELL_SCRIPT = r"""
import hashlib, json, sys
import numpy as np
from pocketgalaxy.rl.driver import GameDriver

digest = hashlib.sha256()
def put(obj):
    digest.update(json.dumps(obj).encode())  # no sort_keys: key order is output too
    digest.update(b"|")

CONFIGS = [
    ("adventure", 4, {1: "forgetful:level=easy", 2: "ismcts:iterations=15", 3: "memory"}),
    ("adventure", 3, {1: "forgetful:level=hard", 2: "random"}),
    ("perils", 2, {1: "teller"}),
    ("perils", 2, {1: "teller:style=adaptive"}),
]
for game, players, bots in CONFIGS:
    options = {"teller_policy": "human"} if "style=" in bots.get(1, "") else None
    driver = GameDriver(game, players=players, bots=bots, options=options)
    for seed in (3, 8):
        driver.new_game(seed)
        session = driver.live
        pick = np.random.default_rng(seed)
        steps = 0
        while driver.to_act is not None and steps < 400:
            seat = driver.to_act
            obs = driver.observation(seat)
            put([seat, obs["observation"].tobytes().hex(), obs["action_mask"].tobytes().hex()])
            put([driver.info(seat), driver.render_text(seat), driver.render_text(None)])
            for s in [*range(players), None]:
                put(session.view(s).to_json())
                put([e.to_json() for e in session.events_for(s)])
            put([a.to_json() for a in session.legal_actions(seat)])
            driver.act(seat, int(pick.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        outcome = session.outcome
        put([steps, outcome.to_json() if outcome is not None else None])
        put(session.record.to_json())
print(digest.hexdigest())
"""


def test_views_events_legal_and_rl_outputs_are_the_same_in_every_process() -> None:
    def run(salt: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", SHELL_SCRIPT],
            env={**os.environ, "PYTHONHASHSEED": salt},
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout.strip()

    with ThreadPoolExecutor(max_workers=2) as pool:
        first, second = pool.map(run, ["1", "2"])
    assert len(first) == 64
    assert first == second, "views, events, legal lists or RL outputs depend on the hash seed"


def test_the_cases_cover_every_computer_player() -> None:
    """A new computer player must join a case above (so its hash order is checked too)."""
    from pocketgalaxy.agents.registry import agent_names

    words = " ".join(" ".join(args) for _, args in CASES)
    for game, seat in (("adventure", 0), ("perils", 0), ("perils", 1)):
        for bot in agent_names(game, seat, 3 if game == "adventure" else 2):
            assert bot in words, f"{game} seat {seat}: {bot} is in no case"
    for style in ("fair", "generous", "harsh", "adaptive"):
        assert style in words
    for level in ("easy", "normal", "hard"):
        assert f"level={level}" in words
