"""ISMCTS speed on three-player Adventure Cards: time per decision, iterations per second.

    python bench/bench_search.py [--positions N] [--iterations 500,1000] [--json]

Positions come from seeded games between memory bots; at each decision of seat 0 in the
"act" phase that is not left to a rule, the `ismcts` player searches with each iteration count.
Both clocks are reported (wall, and this process's CPU time: on a busy machine the wall clock
also counts time other processes held the core). Also: determinizations sampled per second.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from pocketgalaxy.agents.adventure import MemoryAgent
from pocketgalaxy.agents.adventure.search import make_ismcts
from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.ismcts import ISMCTSAgent
from pocketgalaxy.core.game import Action, visible_events
from pocketgalaxy.games.adventure import AdventureOptions, AdventureRules, AdventureView


def measure(count: int, counts: list[int], players: int = 3) -> dict[str, Any]:
    """Time `count` seat-0 searches per iteration count, at positions of seeded games."""
    rules = AdventureRules()
    opts = AdventureOptions()
    wall: dict[int, list[float]] = {k: [] for k in counts}
    cpu: dict[int, list[float]] = {k: [] for k in counts}
    samples = 0.0
    game = 0
    while len(cpu[counts[0]]) < count:
        state = rules.new(opts, 100 + game, players=players)
        searcher = make_ismcts(seed=game)
        bots: list[Agent] = [searcher] + [MemoryAgent(seed=game * 5 + s) for s in range(1, players)]
        for s, bot in enumerate(bots):
            bot.reset(s, players, opts)
            bot.observe(visible_events(state.log_cur, s))
        taken = 0
        while (seat := rules.to_act(state)) is not None:
            legal = rules.legal_actions(state, seat)
            view = rules.view(state, seat)
            action: Action | None = None
            if seat == 0 and len(legal) > 1 and taken < 4 and len(cpu[counts[0]]) < count:
                action = searcher.determinizer.rule_decision(view, legal)
                if action is None:
                    taken += 1
                    for k in counts:
                        searcher.iterations = k
                        w0, c0 = time.perf_counter(), time.process_time()
                        action = searcher.search(view, legal)
                        wall[k].append(time.perf_counter() - w0)
                        cpu[k].append(time.process_time() - c0)
                    if not samples:
                        samples = _samples_per_second(searcher, view, 2000)
            if action is None:
                action = bots[seat].act(view, legal)
            events = rules.apply_unchecked(state, seat, action)
            for s, bot in enumerate(bots):
                bot.observe(visible_events(events, s))
        game += 1
    rows = []
    for k in counts:
        c = sorted(cpu[k])
        rows.append({
            "iterations": k,
            "positions": len(c),
            "ms_per_decision_cpu": round(1000 * sum(c) / len(c), 1),
            "ms_p90_cpu": round(1000 * c[int(0.9 * (len(c) - 1))], 1),
            "ms_max_cpu": round(1000 * c[-1], 1),
            "ms_per_decision_wall": round(1000 * sum(wall[k]) / len(wall[k]), 1),
            "iterations_per_s_cpu": round(k * len(c) / sum(c)),
        })
    return {"search": rows, "samples_per_s_cpu": round(samples)}


def _samples_per_second(agent: ISMCTSAgent, view: AdventureView, count: int) -> float:
    sample = agent.determinizer.sampler(view)
    c0 = time.process_time()
    for _ in range(count):
        sample(agent.fast)
    return count / max(1e-9, time.process_time() - c0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12, help="positions per setting")
    parser.add_argument("--iterations", default="500,1000", help="comma-separated counts")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = measure(args.positions, [int(k) for k in args.iterations.split(",")])
    rows = result["search"]
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print("ISMCTS, three-player Adventure Cards (seat 0 decisions from memory-bot games)")
    for r in rows:
        print(f"  {r['iterations']:5} iterations: {r['ms_per_decision_cpu']:7.1f} ms cpu "
              f"(p90 {r['ms_p90_cpu']:.1f}, max {r['ms_max_cpu']:.1f}), "
              f"{r['ms_per_decision_wall']:7.1f} ms wall; "
              f"{r['iterations_per_s_cpu']} iterations/s cpu")
    print(f"  determinizations: {result['samples_per_s_cpu']} per second (cpu)")


if __name__ == "__main__":
    main()
