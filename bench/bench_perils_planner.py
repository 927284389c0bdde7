"""Perils & Pathways: rules speed, the planner's strength and cost, and the Teller styles.

    python bench/bench_perils_planner.py speed [--seconds S] [--profile]
    python bench/bench_perils_planner.py strength [-n 5000] [--workers 2] [--samples 24]
    python bench/bench_perils_planner.py styles [-n 2000] [--workers 2] [--heroes planner,...]

- `speed`: uniform-random playouts from fresh deals on one core, counting `legal_actions` +
  `apply_unchecked` steps (decisions per second of wall-clock time, and per second of this
  process's CPU time, which a busy machine disturbs less); clone, legal_actions, apply and view
  costs; `--profile` prints a cProfile of the playouts.
- `strength`: planner, rulebased and random Heroes against the computer Teller under the
  default options (rubric judging), the same game seeds for each Hero; win rates with 95%
  Wilson intervals and the planner's seconds per game.
- `styles`: each Hero against `teller:style=fair` and `teller:style=adaptive` (and any other
  styles given) with teller_policy="human", so the Teller seat judges every plan; win rates,
  intervals and the distance from one half.

Every run is reproducible: game i has the seed derive_seed(--seed, i) whatever --workers is.
Add --json for machine-readable output.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import time
from typing import Any

from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.registry import perils_rules
from pocketgalaxy.sim.runner import run_many
from pocketgalaxy.sim.stats import wilson


def _playouts(seconds: float, seed: int = 1) -> dict[str, Any]:
    rules = perils_rules()
    opts = PerilsOptions()
    rng = Rng(seed)
    decisions = games = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - start < seconds or games == 0:
        state = rules.new(opts, seed + games)
        while (seat := rules.to_act(state)) is not None:
            rules.apply_unchecked(state, seat, rng.choice(rules.legal_actions(state, seat)))
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {"games": games, "decisions": decisions,
            "decisions_per_second": round(decisions / elapsed),
            "decisions_per_cpu_second": round(decisions / cpu),
            "games_per_second": round(games / elapsed, 1),
            "decisions_per_game": round(decisions / games, 1)}


def _micro(n: int = 2000) -> dict[str, float]:
    """Microseconds per clone, legal_actions, apply (checked) and view on mid-game states."""
    rules = perils_rules()
    rng = Rng(3)
    states = []
    state = rules.new(PerilsOptions(), 3)
    while (seat := rules.to_act(state)) is not None and len(states) < 60:
        states.append((state.clone(), seat))
        rules.apply_unchecked(state, seat, rng.choice(rules.legal_actions(state, seat)))
    out: dict[str, float] = {}
    for name, fn in (
        ("clone", lambda s, seat: s.clone()),
        ("legal_actions", lambda s, seat: rules.legal_actions(s, seat)),
        ("apply", lambda s, seat: rules.apply(s, seat, rules.legal_actions(s, seat)[0])),
        ("view", lambda s, seat: rules.view(s, seat)),
    ):
        t0 = time.process_time()
        for i in range(n):
            s, seat = states[i % len(states)]
            fn(s, seat)
        out[name + "_cpu_us"] = round(1e6 * (time.process_time() - t0) / n, 2)
    return out


def speed(args: argparse.Namespace) -> dict[str, Any]:
    result = {"playouts": _playouts(args.seconds), "micro": _micro()}
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        _playouts(args.seconds)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
    return result


def _rate(results: list[Any]) -> dict[str, Any]:
    wins = sum(1 for r in results if r.winners)
    w = wilson(wins, len(results))
    hero_seconds = sum(r.decision_seconds[0] for r in results) / max(1, len(results))
    return {"games": len(results), "wins": wins, "rate": round(w.p, 4),
            "ci95": [round(w.low, 4), round(w.high, 4)],
            "hero_seconds_per_game": round(hero_seconds, 4),
            "seconds_per_game": round(sum(r.seconds for r in results) / max(1, len(results)), 4)}


def _hero_spec(name: str, samples: int) -> str:
    return f"planner:samples={samples}" if name == "planner" else name


def strength(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {"n": args.n, "seed": args.seed, "options": "defaults (rubric)"}
    for hero in args.heroes.split(","):
        specs = (_hero_spec(hero, args.samples), "teller")
        t0 = time.perf_counter()
        results = run_many("perils", specs, args.n, args.seed, None, workers=args.workers)
        out[hero] = _rate(results) | {"spec": specs[0],
                                      "wall_seconds": round(time.perf_counter() - t0, 1)}
        _print_row(hero, "rubric", out[hero], args)
    return out


def styles(args: argparse.Namespace) -> dict[str, Any]:
    opts = {"teller_policy": "human"}
    out: dict[str, Any] = {"n": args.n, "seed": args.seed, "options": opts}
    for hero in args.heroes.split(","):
        for style in args.styles.split(","):
            specs = (_hero_spec(hero, args.samples), f"teller:style={style}")
            results = run_many("perils", specs, args.n, args.seed, dict(opts),
                               workers=args.workers)
            row = _rate(results)
            row["distance_from_half"] = round(abs(row["rate"] - 0.5), 4)
            out[f"{hero}/{style}"] = row
            _print_row(hero, style, row, args)
    return out


def _print_row(hero: str, teller: str, row: dict[str, Any], args: argparse.Namespace) -> None:
    if not args.json:
        low, high = row["ci95"]
        print(f"{hero:>10} vs {teller:<9} {row['wins']:>5}/{row['games']:<5} "
              f"{row['rate']:.3f} [{low:.3f}, {high:.3f}]  "
              f"hero {1000 * row['hero_seconds_per_game']:.1f} ms/game", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("speed", "strength", "styles"))
    parser.add_argument("-n", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--samples", type=int, default=24)
    parser.add_argument("--heroes", default="planner,rulebased,random")
    parser.add_argument("--styles", default="fair,adaptive")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = {"speed": speed, "strength": strength, "styles": styles}[args.what](args)
    if args.json:
        print(json.dumps(result, indent=2))
    elif args.what == "speed":
        print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
