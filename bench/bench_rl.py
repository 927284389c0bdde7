"""RL environment speed: environment steps per second with uniform random masked actions.

    python bench/bench_rl.py [--seconds S] [--json]

One core, one process. "aec" rows step the PettingZoo environments (every astronaut a
learner; the Hero with the computer Teller inside); "gym" rows step the single-agent
Gymnasium environments, where one step also runs the computer players' moves until the
learner is to act again. A step includes building the observation, the mask and the info.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from pocketgalaxy.rl import adventure_env, make_env, perils_env
from pocketgalaxy.rl.env import PocketGalaxyAEC
from pocketgalaxy.rl.single import PocketGalaxyGymEnv


def _aec(make: Callable[[], PocketGalaxyAEC], seconds: float) -> dict[str, Any]:
    env = make()
    rng = np.random.default_rng(0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        env.reset(seed=games)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"steps": steps, "games": games, "seconds": round(elapsed, 2),
            "steps_per_second": round(steps / elapsed), "steps_per_game": round(steps / games)}


def _gym(make: Callable[[], PocketGalaxyGymEnv], seconds: float) -> dict[str, Any]:
    env = make()
    rng = np.random.default_rng(0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        obs, _ = env.reset(seed=games)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"steps": steps, "games": games, "seconds": round(elapsed, 2),
            "steps_per_second": round(steps / elapsed), "steps_per_game": round(steps / games)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per row")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    s = args.seconds
    rows: dict[str, dict[str, Any]] = {}
    for n in (2, 3, 4, 5):
        rows[f"aec adventure {n}p"] = _aec(lambda n=n: adventure_env(players=n), s)
    rows["aec perils (hero)"] = _aec(perils_env, s)
    rows["gym adventure 4p vs memory,forgetful,random"] = _gym(
        lambda: make_env("adventure", players=4, opponents="memory,forgetful,random"), s)
    rows["gym perils (hero vs teller)"] = _gym(lambda: make_env("perils"), s)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    width = max(len(k) for k in rows)
    print(f"{'environment':<{width}}  steps/s  steps/game  games")
    for name, row in rows.items():
        print(f"{name:<{width}}  {row['steps_per_second']:>7}  {row['steps_per_game']:>10}  "
              f"{row['games']:>5}")


if __name__ == "__main__":
    main()
