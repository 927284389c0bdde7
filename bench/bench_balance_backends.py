"""Balance-study throughput: local worker processes against Ray, side by side in one run.

    python bench/bench_balance_backends.py [--game perils] [-n 2000] [--repeat 3] [--json]
        [--backends workers-1,workers-2,ray]
    python bench/bench_balance_backends.py --address HOST:PORT   # an existing Ray cluster

Plays the same two-variant study (defaults and pathways_per_round=3 for Perils; defaults and
no peek for Adventure) with each backend, alternating them REPEAT times so that whatever else
the machine does falls on all of them alike, and prints the median games per second of each
and the ratio ray / workers-2 (target: at least 0.9 on one machine).

Both backends are timed the same way: the clock runs from handing the study to `run_study`
until its last game is back. Start-up is timed apart and printed beside it: for Ray,
`ray.init` of a private instance with 2 CPUs and its workers at niceness 0, as `--backend ray`
starts one (unless --address), plus `prestart_workers` (one worker per CPU, the game code
imported); for local workers, forking a pool of 2 and closing
it (the study's own pool start is also inside its timing, which can only favour Ray). The
ratio is given both without and with start-up. It also checks all backends give identical
games.

    python bench/bench_balance_backends.py --rounds 6 -n 400 [--ray-worker-niceness 0]

On a machine others share, the load can change threefold within minutes, so long runs one
after the other compare the load as much as the backends. `--rounds R` therefore measures in
paired rounds: Ray starts once (start-up timed apart, then again twice more at the end), and
each round plays the study with `--workers 2` and on Ray back to back, in alternating order.
The ratio of each round's two times is paired against the load of that minute; the median
ratio over rounds is the figure, with the smallest and largest beside it, and a projection
for a 20,000-game study (start-up plus 20,000 games at the median rates).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
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
BACKENDS = ("workers-1", "workers-2", "ray")


def _noop(x: int) -> int:
    return x


def _pool_startup() -> float:
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    t0 = time.perf_counter()
    with multiprocessing.get_context(method).Pool(processes=2) as pool:
        pool.map(_noop, range(2))
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=sorted(VARIANTS), default="perils")
    parser.add_argument("-n", type=int, default=2000, help="games per variant")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--address", default=None)
    parser.add_argument("--backends", default=",".join(BACKENDS),
                        help="comma separated, from " + ", ".join(BACKENDS))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rounds", type=int, default=0,
                        help="paired rounds of workers-2 and Ray (see the module text)")
    parser.add_argument("--ray-worker-niceness", type=int, default=None,
                        help="a private Ray's worker niceness (default: as --backend ray, "
                        "0; Ray's own default is 15)")
    args = parser.parse_args()
    if args.rounds:
        rounds(args)
        return
    chosen = [b for b in args.backends.split(",") if b]
    if not chosen or any(b not in BACKENDS for b in chosen):
        parser.error(f"--backends: choose from {', '.join(BACKENDS)}")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    study = study_from_flags(args.game, VARIANTS[args.game], players=PLAYERS[args.game],
                             games=args.n, seed=1)
    total = args.n * len(study.variants)
    study_s: dict[str, list[float]] = {b: [] for b in chosen}
    startup_s: dict[str, list[float]] = {b: [] for b in chosen}
    outcomes: dict[str, Any] = {}
    for _ in range(args.repeat):
        for name in chosen:
            if name == "ray":
                import ray

                startup_s[name].append(_ray_start(args))
                t1 = time.perf_counter()
                run = run_study(study, backend="ray", address=args.address)
                study_s[name].append(time.perf_counter() - t1)
                ray.shutdown()
            else:
                workers = int(name[-1])
                startup_s[name].append(_pool_startup() if workers > 1 else 0.0)
                t1 = time.perf_counter()
                run = run_study(study, workers=workers)
                study_s[name].append(time.perf_counter() - t1)
            outcomes[name] = {v: [(r.seed, r.winners, r.length) for r in rs]
                              for v, rs in run.games.items()}
    same = all(outcomes[b] == outcomes[chosen[0]] for b in chosen)
    med = {b: statistics.median(v) for b, v in study_s.items()}
    up = {b: statistics.median(v) for b, v in startup_s.items()}
    report: dict[str, Any] = {
        "game": args.game, "games": total, "cpus": os.cpu_count(), "repeat": args.repeat,
        "games_per_s": {b: round(total / med[b], 1) for b in chosen},
        "games_per_s_with_startup": {b: round(total / (med[b] + up[b]), 1) for b in chosen},
        "startup_s": {b: round(up[b], 2) for b in chosen},
        "study_s_runs": {b: [round(x, 1) for x in v] for b, v in study_s.items()},
        "identical_games": same,
    }
    if "ray" in chosen and "workers-2" in chosen:
        report["ray_over_workers_2"] = round(med["workers-2"] / med["ray"], 3)
        report["ray_over_workers_2_with_startup"] = round(
            (med["workers-2"] + up["workers-2"]) / (med["ray"] + up["ray"]), 3)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    for b in chosen:
        print(f"{b:>10}: {report['games_per_s'][b]:8.1f} games/s  (with start-up "
              f"{report['games_per_s_with_startup'][b]:.1f}; start-up {up[b]:.2f} s)")
    if "ray_over_workers_2" in report:
        print(f"ray / workers-2 = {report['ray_over_workers_2']} "
              f"(with start-up {report['ray_over_workers_2_with_startup']})")
    print(f"identical games: {same}")


def _ray_start(args: argparse.Namespace) -> float:
    import ray

    from pocketgalaxy.sim.ray_runner import prestart_workers, private_niceness

    t0 = time.perf_counter()
    if args.address is None:
        # As `--backend ray` starts a private instance (sim/ray_runner.py), unless told.
        nice = private_niceness() if args.ray_worker_niceness is None else \
            args.ray_worker_niceness
        config = {"worker_niceness": nice}
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 _system_config=config)
    else:
        ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
    prestart_workers((args.game,))
    return time.perf_counter() - t0


def rounds(args: argparse.Namespace) -> None:
    import ray

    study = study_from_flags(args.game, VARIANTS[args.game], players=PLAYERS[args.game],
                             games=args.n, seed=1)
    total = args.n * len(study.variants)
    startups = [_ray_start(args)]
    local_s: list[float] = []
    ray_s: list[float] = []
    same = True
    restarts = 0
    r = 0
    while r < args.rounds:
        order = ("workers-2", "ray") if r % 2 == 0 else ("ray", "workers-2")
        got = {}
        times = {}
        try:
            for name in order:
                t0 = time.perf_counter()
                run = (run_study(study, workers=2) if name == "workers-2"
                       else run_study(study, backend="ray", address=args.address))
                times[name] = time.perf_counter() - t0
                got[name] = {v: [(g.seed, g.winners, g.length) for g in rs]
                             for v, rs in run.games.items()}
        except ray.exceptions.RayError as exc:
            # Something outside this bench stopped Ray (`ray stop` stops every instance on
            # the machine): start again and play the whole round again.
            restarts += 1
            if restarts > 5:
                raise
            print(f"round {r + 1}: Ray was stopped from outside ({type(exc).__name__}); "
                  "restarting it and playing the round again", flush=True)
            ray.shutdown()
            _ray_start(args)
            continue
        local_s.append(times["workers-2"])
        ray_s.append(times["ray"])
        r += 1
        same = same and got["ray"] == got["workers-2"]
        if not args.json:
            print(f"round {r}: workers-2 {local_s[-1]:.1f} s, ray {ray_s[-1]:.1f} s, "
                  f"ratio {local_s[-1] / ray_s[-1]:.3f}", flush=True)
    ray.shutdown()
    for _ in range(2):
        startups.append(_ray_start(args))
        ray.shutdown()
    ratios = [a / b for a, b in zip(local_s, ray_s, strict=True)]
    local_rate = total / statistics.median(local_s)
    ray_rate = total / statistics.median(ray_s)
    up = statistics.median(startups)
    big = 20_000
    report = {
        "game": args.game, "games_per_round": total, "rounds": args.rounds,
        "cpus": os.cpu_count(), "ray_worker_niceness": args.ray_worker_niceness,
        "games_per_s": {"workers-2": round(local_rate, 1), "ray": round(ray_rate, 1)},
        "ratio_median": round(statistics.median(ratios), 3),
        "ratio_min": round(min(ratios), 3), "ratio_max": round(max(ratios), 3),
        "ray_startup_s": [round(x, 2) for x in startups],
        "projected_20000_games_s": {"workers-2": round(big / local_rate, 1),
                                    "ray": round(up + big / ray_rate, 1)},
        "projected_20000_ratio_with_startup": round(
            (big / local_rate) / (up + big / ray_rate), 3),
        "round_s": {"workers-2": [round(x, 1) for x in local_s],
                    "ray": [round(x, 1) for x in ray_s]},
        "identical_games": same, "ray_restarts": restarts,
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
