"""Start-up time of the command line: importing the app, and `--help` of the commands.

    python bench/bench_startup.py [--repeat N] [--json] [--compare OTHER_SRC]

Each item runs in a fresh interpreter (what a person typing the command waits for), N rounds,
and the medians are printed: the wall time and the child's CPU time (user + system, from
`resource.getrusage(RUSAGE_CHILDREN)`; on a busy machine the wall clock also counts the time
other processes held the cores). `--compare DIR` runs the same items from another source tree
(for example `git worktree add /tmp/old <commit>` then `--compare /tmp/old/src`), interleaved
round by round with this one, and prints both side by side with the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

ITEMS: dict[str, list[str]] = {
    "import cli.app": ["-c", "import pocketgalaxy.cli.app"],
    "pocketgalaxy --help": ["-m", "pocketgalaxy", "--help"],
    "pocketgalaxy play --help": ["-m", "pocketgalaxy", "play", "--help"],
    "pocketgalaxy players": ["-m", "pocketgalaxy", "players", "adventure"],
}
"""What is timed: the arguments after the interpreter."""


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_one(args: list[str], src: str | None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh interpreter running `args`."""
    env = dict(os.environ, COLUMNS="100")
    if src:
        env["PYTHONPATH"] = src
    cpu0, wall0 = _child_cpu(), time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True, timeout=120)
    return time.perf_counter() - wall0, _child_cpu() - cpu0


def measure(repeat: int, compare: str | None) -> dict[str, Any]:
    """Medians per item for this tree (and `compare`), the rounds interleaved."""
    trees: dict[str, str | None] = {"now": None}
    if compare:
        trees["before"] = compare
    samples: dict[str, dict[str, list[tuple[float, float]]]] = {
        t: {item: [] for item in ITEMS} for t in trees}
    for _ in range(repeat):
        for item, args in ITEMS.items():
            for tree, src in trees.items():
                samples[tree][item].append(time_one(args, src))
    out: dict[str, Any] = {"repeat": repeat, "compare": compare, "items": {}}
    for item in ITEMS:
        row: dict[str, Any] = {}
        for tree in trees:
            values = samples[tree][item]
            row[tree] = {"wall_s": round(statistics.median(v[0] for v in values), 3),
                         "cpu_s": round(statistics.median(v[1] for v in values), 3)}
        out["items"][item] = row
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="rounds (medians)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--compare", metavar="SRC", help="another source tree to measure too")
    args = parser.parse_args(argv)
    result = measure(max(1, args.repeat), args.compare)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"start-up, fresh interpreter each time (median of {result['repeat']}; seconds)")
    for item, row in result["items"].items():
        now = row["now"]
        line = f"  {item:26} wall {now['wall_s']:6.3f}  cpu {now['cpu_s']:6.3f}"
        if "before" in row:
            was = row["before"]
            line += (f"   before: wall {was['wall_s']:6.3f}  cpu {was['cpu_s']:6.3f}"
                     f"  (x{was['wall_s'] / max(now['wall_s'], 1e-9):.2f} wall, "
                     f"x{was['cpu_s'] / max(now['cpu_s'], 1e-9):.2f} cpu)")
        print(line)


if __name__ == "__main__":
    main()
