"""Adventure Cards speed: bot games per second, ms per bot decision, random-playout speed.

    python bench/bench_adventure.py [--seconds S] [--json]

One core, one process. Bot games seat memory, memory, forgetful, random (rotated each game).
Decision times are measured around `Agent.act` only; playout speed counts legal_actions +
apply_unchecked steps of uniform-random play from fresh four-player deals.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from pocketgalaxy.agents.adventure import agents_for_seat
from pocketgalaxy.core.game import visible_events
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.adventure import AdventureOptions, AdventureRules

SPECS = ("memory", "memory", "forgetful", "random")


def bot_games(seconds: float) -> dict[str, Any]:
    rules = AdventureRules()
    opts = AdventureOptions()
    table = agents_for_seat(0, 4)
    times: dict[str, list[float]] = {name: [] for name in dict.fromkeys(SPECS)}
    games = turns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        order = [SPECS[(i + games) % 4] for i in range(4)]
        agents = [table[name](seed=games * 10 + s) for s, name in enumerate(order)]
        for s, agent in enumerate(agents):
            agent.reset(s, 4, opts)
        state = rules.new(opts, games, players=4)
        for s, agent in enumerate(agents):
            agent.observe(visible_events(state.log_cur, s))
        while (seat := rules.to_act(state)) is not None:
            legal = rules.legal_actions(state, seat)
            view = rules.view(state, seat)
            t0 = time.perf_counter()
            action = agents[seat].act(view, legal)
            times[order[seat]].append(time.perf_counter() - t0)
            events = rules.apply_unchecked(state, seat, action)
            for s, agent in enumerate(agents):
                agent.observe(visible_events(events, s))
        games += 1
        turns += state.turn
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "games_per_second": round(games / elapsed, 2),
        "mean_turns": round(turns / games, 1),
        "decision_ms": {
            name: {
                "decisions": len(ts),
                "mean": round(1000 * sum(ts) / max(1, len(ts)), 4),
                "p99": round(1000 * sorted(ts)[int(0.99 * (len(ts) - 1))], 4) if ts else 0.0,
                "max": round(1000 * max(ts, default=0.0), 4),
            }
            for name, ts in times.items()
        },
    }


def random_playouts(seconds: float) -> dict[str, Any]:
    rules = AdventureRules()
    opts = AdventureOptions()
    rng = Rng(1)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        state = rules.new(opts, games, players=4)
        while (seat := rules.to_act(state)) is not None:
            rules.apply_unchecked(state, seat, rng.choice(rules.legal_actions(state, seat)))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "decisions_per_second": round(steps / elapsed),
        "clone_per_second": round(_clones(rules)),
    }


def _clones(rules: AdventureRules) -> float:
    state = rules.new(AdventureOptions(), 3, players=4)
    n = 20000
    t0 = time.perf_counter()
    for _ in range(n):
        state.clone()
    return n / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per section")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = {
        "bot_games": bot_games(args.seconds),
        "random_playouts": random_playouts(args.seconds),
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return
    bots = result["bot_games"]
    print(f"four-player bot games ({', '.join(SPECS)}): {bots['games_per_second']} games/s "
          f"({bots['games']} games, {bots['mean_turns']} turns each)")
    for name, d in bots["decision_ms"].items():
        print(
            f"  {name:9} {d['decisions']:7} decisions  mean {d['mean']:.3f} ms"
            f"  p99 {d['p99']:.3f} ms  max {d['max']:.3f} ms"
        )
    rp = result["random_playouts"]
    print(f"random playouts: {rp['decisions_per_second']} decisions/s ({rp['games']} games); "
          f"clone: {rp['clone_per_second']}/s")


if __name__ == "__main__":
    main()
