"""Balance-study throughput: local worker processes against Ray, side by side in one run.

    python bench/bench_balance_backends.py [--game perils] [-n 2000] [--repeat 3] [--json]
    python bench/bench_balance_backends.py --address HOST:PORT   # an existing Ray cluster

Plays the same two-variant study (defaults and pathways_per_round=3 for Perils; defaults and
no peek for Adventure) with `--workers 1`, `--workers 2` and `--backend ray` (a private Ray
instance with 2 CPUs unless --address is given), alternating the three REPEAT times, and prints
the median games per second of each and the ratio ray / workers-2 (target: at least 0.9 on one
machine). Ray's start-up is inside the timing, as a designer meets it. It also checks the three
give identical games.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

from pocketgalaxy.sim.balance.run import run_study
from pocketgalaxy.sim.balance.study import study_from_flags

VARIANTS = {"perils": ["base:", "three:pathways_per_round=3"],
            "adventure": ["base:", "nopeek:peek_after_failed_request=false"]}
PLAYERS = {"perils": ["rulebased", "teller"],
           "adventure": ["memory", "memory", "forgetful", "random"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=sorted(VARIANTS), default="perils")
    parser.add_argument("-n", type=int, default=2000, help="games per variant")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--address", default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    study = study_from_flags(args.game, VARIANTS[args.game], players=PLAYERS[args.game],
                             games=args.n, seed=1)
    total = args.n * len(study.variants)
    runs: dict[str, list[float]] = {"workers-1": [], "workers-2": [], "ray": []}
    outcomes: dict[str, Any] = {}
    for _ in range(args.repeat):
        for name in runs:
            t0 = time.perf_counter()
            if name == "ray":
                if args.address is None:
                    import ray

                    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
                run = run_study(study, backend="ray", address=args.address)
                if args.address is None:
                    ray.shutdown()
            else:
                run = run_study(study, workers=int(name[-1]))
            runs[name].append(total / (time.perf_counter() - t0))
            outcomes[name] = {v: [(r.seed, r.winners, r.length) for r in rs]
                              for v, rs in run.games.items()}
    same = outcomes["ray"] == outcomes["workers-2"] == outcomes["workers-1"]
    report = {
        "game": args.game, "games": total, "cpus": os.cpu_count(),
        "games_per_s": {k: round(statistics.median(v), 1) for k, v in runs.items()},
        "ray_over_workers_2": round(statistics.median(runs["ray"])
                                    / statistics.median(runs["workers-2"]), 3),
        "identical_games": same,
    }
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        for k, v in report["games_per_s"].items():
            print(f"{k:>10}: {v:8.1f} games/s")
        print(f"ray / workers-2 = {report['ray_over_workers_2']}  (identical games: {same})")


if __name__ == "__main__":
    main()
