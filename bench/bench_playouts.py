"""Random-playout speed of every game: decisions per second, clone and step costs, one core.

    python bench/bench_playouts.py [--seconds S] [--json] [--compare OTHER_SRC]

Protocol (as the anchor bench in ../shared/anchor-bench): uniform random legal actions from
fresh deals, games run to the end, `legal_actions` + `apply_unchecked` (or, for the "quiet"
items, `apply_quiet`) per decision, over a
time budget per item. Both clocks are reported: wall time, and the process's CPU time (on a
busy machine the wall clock also counts the time other processes held the core; CPU time is
what the code itself costs). `--compare DIR` runs the same items from another source tree
(for example `git worktree add /tmp/old <commit>` then `--compare /tmp/old/src`), interleaved
with this one, and prints both: the before and after of speed work.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any

ITEMS: tuple[tuple[str, int, bool], ...] = (
    ("adventure", 2, False),
    ("adventure", 3, False),
    ("adventure", 4, False),
    ("adventure", 5, False),
    ("adventure", 2, True),
    ("adventure", 3, True),
    ("adventure", 4, True),
    ("adventure", 5, True),
    ("perils", 2, False),
)
"""(game, players, quiet): quiet items apply with `apply_quiet` (no events, no turn log: what
a simulation or a search needs), the others with the contract's `apply_unchecked`."""


def playouts(game: str, players: int, seconds: float, quiet: bool = False) -> dict[str, Any]:
    """Uniform random playouts of `game` for about `seconds` (at least one game)."""
    from pocketgalaxy.core.rng import Rng
    from pocketgalaxy.registry import get_game

    rules = get_game(game)
    apply = rules.apply_quiet if quiet else rules.apply_unchecked
    rng = Rng(1)
    steps = games = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall0 < seconds or games == 0:
        state = rules.new(None, games, players=players)
        seat = rules.to_act(state)
        while seat is not None:
            legal = rules.legal_actions(state, seat)
            apply(state, seat, legal[rng.below(len(legal))])
            steps += 1
            seat = rules.to_act(state)
        games += 1
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return {
        "game": f"{game}({players})" + (" quiet" if quiet else ""),
        "games": games,
        "decisions": steps,
        "decisions_per_s_wall": round(steps / wall),
        "decisions_per_s_cpu": round(steps / cpu) if cpu > 0 else 0,
        "games_per_s_cpu": round(games / cpu, 1) if cpu > 0 else 0.0,
        "clones_per_s_cpu": round(_clones(rules, players)),
    }


def _clones(rules: Any, players: int) -> float:
    state = rules.new(None, 3, players=players)
    n = 20000
    t0 = time.process_time()
    for _ in range(n):
        state.clone()
    spent = time.process_time() - t0
    return n / spent if spent > 0 else 0.0


def measure(seconds: float) -> list[dict[str, Any]]:
    return [playouts(game, players, seconds, quiet) for game, players, quiet in ITEMS]


def _other(src: str, seconds: float) -> list[dict[str, Any]]:
    """The same measurement from another source tree, in a fresh interpreter."""
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run(
        [sys.executable, __file__, "--seconds", str(seconds), "--json"],
        env=env, capture_output=True, text=True, check=True,
    )
    data: list[dict[str, Any]] = json.loads(out.stdout)["runs"][0]
    return data


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per item")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--compare", metavar="SRC", help="another source tree to measure too")
    parser.add_argument("--repeat", type=int, default=1, help="interleaved rounds (medians)")
    args = parser.parse_args(argv)
    runs: list[list[dict[str, Any]]] = []
    before: list[list[dict[str, Any]]] = []
    for _ in range(max(1, args.repeat)):
        if args.compare:
            before.append(_other(args.compare, args.seconds))
        runs.append(measure(args.seconds))
    if args.json:
        print(json.dumps({"runs": runs, "compare": before, "speed_path": speed_path()}, indent=1))
        return
    now = _median(runs)
    old = _median(before) if before else None
    print(f"random playouts ({args.seconds:g} s per item, median of {len(runs)}; "
          f"decisions/s by wall and by CPU clock; rules core: {speed_path()})")
    for i, row in enumerate(now):
        line = (f"  {row['game']:19} {row['decisions_per_s_wall']:>8} wall "
                f"{row['decisions_per_s_cpu']:>8} cpu  clone {row['clones_per_s_cpu']:>8}/s")
        if old:
            was = old[i]
            gain = row["decisions_per_s_cpu"] / max(1, was["decisions_per_s_cpu"])
            line += (f"   before: {was['decisions_per_s_cpu']:>7} cpu, "
                     f"clone {was['clones_per_s_cpu']:>7}/s  (x{gain:.2f})")
        print(line)


def speed_path() -> str:
    """"compiled" or "pure", as the rules core really loaded (docs/speed.md)."""
    try:
        from pocketgalaxy import speedpath
    except ImportError:  # a tree from before the compiled path (`--compare` of an old commit)
        return "pure"

    return "compiled" if speedpath.status()["compiled"] else "pure"


def _median(runs: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    out = []
    for i, first in enumerate(runs[0]):
        row = dict(first)
        for key in ("decisions_per_s_wall", "decisions_per_s_cpu", "clones_per_s_cpu"):
            values = sorted(r[i][key] for r in runs)
            row[key] = values[len(values) // 2]
        out.append(row)
    return out


if __name__ == "__main__":
    main()
