"""Benchmark Perils & Pathways on one core (not a test).

    python bench/bench_perils.py [--seconds S] [--json]

Prints: whole bot-vs-bot games per second (rule-based Hero + computer Teller, through
`rules.apply` and the views the agents read), the mean time of one `apply` step, and
random-playout decisions per second (`legal_actions` + `apply_unchecked`, no views).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.perils import ComputerTeller, RuleBasedHero
from pocketgalaxy.core.game import visible_events
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.registry import perils_rules

RULES = perils_rules()


def bot_games(seconds: float) -> dict[str, float]:
    """Whole games with the rule-based Hero and the computer Teller."""
    options = PerilsOptions()
    games = steps = wins = 0
    apply_time = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = RULES.new(options, games)
        agents: dict[int, Agent] = {0: RuleBasedHero(seed=games), 1: ComputerTeller(seed=games)}
        for seat, agent in agents.items():
            agent.reset(seat, 2, options)
        while (seat := RULES.to_act(state)) is not None:
            action = agents[seat].act(RULES.view(state, seat), RULES.legal_actions(state, seat))
            t = time.perf_counter()
            state, events = RULES.apply(state, seat, action)
            apply_time += time.perf_counter() - t
            for who, agent in agents.items():
                agent.observe(visible_events(events, who))
            steps += 1
        wins += state.result == "won"
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "games_per_second": games / elapsed,
        "mean_apply_microseconds": 1e6 * apply_time / max(steps, 1),
        "steps_per_game": steps / max(games, 1),
        "hero_win_rate": wins / max(games, 1),
    }


def random_playouts(seconds: float) -> dict[str, float]:
    """Uniform random decisions for both seats, in place, no views."""
    options = PerilsOptions(teller_policy="approve_all")
    rng = Rng(12345)
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = RULES.new(options, games)
        while (seat := RULES.to_act(state)) is not None:
            RULES.apply_unchecked(state, seat, rng.choice(RULES.legal_actions(state, seat)))
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"random_games": games, "decisions_per_second": decisions / elapsed}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per benchmark")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = {**bot_games(args.seconds), **random_playouts(args.seconds)}
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(f"bot-vs-bot games/s      {result['games_per_second']:10.1f}"
              f"  ({result['games']} games, {result['steps_per_game']:.0f} steps each,"
              f" Hero won {result['hero_win_rate']:.0%})")
        print(f"mean apply step         {result['mean_apply_microseconds']:10.1f} us")
        print(f"random decisions/s      {result['decisions_per_second']:10.0f}"
              f"  ({result['random_games']} games)")
    return result


if __name__ == "__main__":
    main()
