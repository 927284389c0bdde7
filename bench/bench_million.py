"""The product simulate path at scale: games/s and the projected time of a million games.

    python bench/bench_million.py [--games N] [--workers W] [--repeat R] [--compare OTHER_SRC]

Each run is the real command, `python -m pocketgalaxy simulate perils -n N --seed S
--workers W --json --no-timing`, in a fresh interpreter with this tree's `src` first on the
path, timed by the wall clock (and the CPU seconds of it and its worker processes, which on a
busy machine say what the code itself costs). `--compare DIR` runs the same command from
another source tree (for example `git worktree add /tmp/old <commit>` then `--compare
/tmp/old/src`), interleaved with this one, reports both side by side, and checks that the two
reports are the same bytes (the speed work must not change a result). Each tree's speed path
(compiled or pure, and why) is printed: set POCKETGALAXY_PURE=1 to measure the pure path of both.

`--instructions N` measures instead what a game costs in CPU instructions, which a machine
shared with other work does not change: under valgrind's callgrind (Debian: `apt-get install
valgrind`), one process plays W warm-up games, another the same W and then N more, and the
difference over N is the instructions of a warm game (the runner's `play_one`, with the simulate
command's default options, `teller_policy=approve_all`, parsed once, as `play_chunk` does).
About 50 times slower than a plain run: N of 30 is enough, the count varies by well under 1%
between runs. With `--functions K` it also prints the K
functions with the most inclusive instructions per warm game (callgrind_annotate, the warm-up
process's counts subtracted). Only compiled functions are listed, by their C names
(`CPyDef_module___name`): interpreted code shows in callgrind only as the interpreter's frames.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE_SRC = str(Path(__file__).resolve().parent.parent / "src")
MILLION = 1_000_000


def run_once(src: str, games: int, workers: int, seed: int, hero: str, teller: str
             ) -> dict[str, Any]:
    """One timed run of the simulate command from the tree `src`."""
    env = dict(os.environ, PYTHONPATH=src)
    cmd = [sys.executable, "-m", "pocketgalaxy", "simulate", "perils", "-n", str(games),
           "--seed", str(seed), "--workers", str(workers), "--hero", hero, "--teller", teller,
           "--json", "--no-timing"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "src": src,
        "games": games,
        "workers": workers,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "games_per_s": round(games / wall, 1),
        "projected_million_s": round(MILLION * wall / games),
        # What the wall clock would be on `workers` otherwise idle cores: a busy shared machine
        # stretches the wall clock, not the CPU seconds the games cost.
        "projected_million_cpu_s": round(MILLION * cpu / games / workers),
        "report": out.stdout,
    }


def speed_path(src: str) -> str:
    """The speed path a fresh interpreter uses from the tree `src` ("pure" for a tree from before
    the compiled path, which has no speedpath module)."""
    code = ("import pocketgalaxy.speedpath as s; i = s.status(); "
            "print(('compiled' if i['compiled'] else 'pure') + ' (' + i['reason'] + ')')")
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=src),
                         capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else "pure (no speedpath module)"


_GAMES = """
import sys
from pocketgalaxy.core.options import options_from_json
from pocketgalaxy.sim.runner import derive_seed, play_one, sim_rules
warm, n, seed, hero, teller = (int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]),
                               sys.argv[4], sys.argv[5])
rules = sim_rules("perils")
# The simulate command's own defaults (teller_policy=approve_all), as the timed runs play.
try:
    from pocketgalaxy.cli.simulate_cmd import PERILS_SIM_DEFAULTS as defaults
except ImportError:  # a tree from before that name: the same default, written out
    defaults = {"teller_policy": "approve_all"}
options = options_from_json(rules.options_type, dict(defaults))
for i in range(warm):
    play_one(rules, (hero, teller), derive_seed(seed + 1, i), options)
for i in range(n):
    play_one(rules, (hero, teller), derive_seed(seed, i), options)
"""


def _callgrind(src: str, warm: int, games: int, seed: int, hero: str, teller: str
               ) -> tuple[int, dict[str, int]]:
    """Instructions a process from the tree `src` runs for `warm` then `games` games, and the
    inclusive instructions of each function (callgrind_annotate's names)."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "games.py"
        script.write_text(_GAMES, encoding="utf-8")
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out",
             sys.executable, str(script), str(warm), str(games), str(seed), hero, teller],
            env=dict(os.environ, PYTHONPATH=src), capture_output=True, text=True, check=True)
        found = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
        if found is None:
            raise SystemExit(f"no instruction count in valgrind's output: {out.stderr[-500:]}")
        table = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100",
                                f"{tmp}/out"], capture_output=True, text=True, check=True).stdout
    functions: dict[str, int] = {}
    for line in table.splitlines():
        row = _ROW.match(line)
        if row:
            name = row.group(2).split(" [")[0].strip()
            functions[name] = functions.get(name, 0) + int(row.group(1).replace(",", ""))
    return int(found.group(1)), functions


_ROW = re.compile(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)")


def instructions(src: str, games: int, warm: int, seed: int, hero: str, teller: str,
                 functions: int = 0) -> dict[str, Any]:
    """Instructions of one warm game from the tree `src` (see the module text), and with
    `functions` the most costly functions' inclusive instructions per warm game."""
    base, base_fns = _callgrind(src, warm, 0, seed, hero, teller)
    total, total_fns = _callgrind(src, warm, games, seed, hero, teller)
    # The project's compiled functions (C names CPyDef_...): the interpreter's own frames and the
    # C library say little about which of our functions to change.
    per_fn = sorted(((v - base_fns.get(k, 0)) / games, k.removeprefix("???:"))
                    for k, v in total_fns.items() if "CPyDef_" in k)
    top = [{"function": k, "per_game": round(v)} for v, k in reversed(per_fn[-functions:])
           if functions]
    return {"src": src, "games": games, "warm": warm, "path": speed_path(src),
            "per_game": round((total - base) / games), "functions": top}


def _instructions_main(args: argparse.Namespace) -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (Debian: apt-get install valgrind)")
    trees = [HERE_SRC] + ([args.compare] if args.compare else [])
    rows = [instructions(t, args.instructions, args.warm, args.seed, args.hero, args.teller,
                         args.functions) for t in trees]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for row in rows:
        print(f"  {row['per_game'] / 1e6:7.2f} M instructions a warm game ({row['games']} after "
              f"{row['warm']} warm-up games; {row['src']}, {row['path']})")
        for fn in row["functions"]:
            print(f"    {fn['per_game'] / 1e6:7.3f} M  {fn['function'][:110]}")
    if len(rows) == 2:
        print(f"  x{rows[1]['per_game'] / rows[0]['per_game']:.2f} fewer than {args.compare}")


def _median(rows: list[dict[str, Any]]) -> dict[str, Any]:
    ordered = sorted(rows, key=lambda r: r["wall_s"])
    mid = dict(ordered[len(ordered) // 2])
    mid["walls"] = [r["wall_s"] for r in rows]
    mid["cpus"] = [r["cpu_s"] for r in rows]
    return mid


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not every platform has a load average
        return "unknown"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", "-n", type=int, default=20_000, help="games per run")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=1, help="master seed")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds (medians)")
    parser.add_argument("--hero", default="rulebased", help="computer Hero")
    parser.add_argument("--teller", default="teller", help="computer Teller")
    parser.add_argument("--compare", metavar="SRC", help="another source tree to measure too")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--instructions", type=int, metavar="N", default=0,
                        help="count the instructions of N warm games under callgrind instead")
    parser.add_argument("--warm", type=int, default=30, help="warm-up games (--instructions)")
    parser.add_argument("--functions", type=int, metavar="K", default=0,
                        help="with --instructions: the K costliest functions per warm game")
    args = parser.parse_args(argv)
    if args.instructions:
        if args.instructions < 1 or args.warm < 0:
            parser.error("--instructions must be at least 1 and --warm at least 0")
        _instructions_main(args)
        return
    if args.games < 1 or args.workers < 1 or args.repeat < 1:
        parser.error("--games, --workers and --repeat must be at least 1")
    load_before = _load()
    now: list[dict[str, Any]] = []
    old: list[dict[str, Any]] = []
    for _ in range(args.repeat):
        if args.compare:
            old.append(run_once(args.compare, args.games, args.workers, args.seed, args.hero,
                                args.teller))
        now.append(run_once(HERE_SRC, args.games, args.workers, args.seed, args.hero,
                            args.teller))
    reports = {r["report"] for r in now + old}
    result: dict[str, Any] = {
        "command": f"simulate perils -n {args.games} --seed {args.seed} --workers "
                   f"{args.workers} --hero {args.hero} --teller {args.teller}",
        "load_before": load_before,
        "load_after": _load(),
        "now": {k: v for k, v in _median(now).items() if k != "report"},
        "now_path": speed_path(HERE_SRC),
        "same_report": len(reports) == 1,
    }
    if old:
        result["before"] = {k: v for k, v in _median(old).items() if k != "report"}
        result["before_path"] = speed_path(args.compare)
        result["speedup_wall"] = round(result["before"]["wall_s"] / result["now"]["wall_s"], 2)
        result["speedup_cpu"] = round(result["before"]["cpu_s"] / max(result["now"]["cpu_s"],
                                                                     1e-9), 2)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"{result['command']}  (median of {args.repeat}; load {load_before} -> "
          f"{result['load_after']})")
    for label in ("before", "now"):
        row = result.get(label)
        if row is None:
            continue
        print(f"  {label:6} {row['games_per_s']:>8} games/s  wall {row['wall_s']:>7} s  "
              f"cpu {row['cpu_s']:>7} s  1M projected {row['projected_million_s'] / 60:6.1f} min"
              f" (by CPU on {args.workers} idle cores "
              f"{row['projected_million_cpu_s'] / 60:5.1f} min)"
              f"  (walls {row['walls']}, cpus {row['cpus']}; {result[label + '_path']})")
    if old:
        print(f"  speed-up x{result['speedup_wall']} by wall clock, x{result['speedup_cpu']} "
              "by CPU time")
    print(f"  same report bytes in every run: {'yes' if result['same_report'] else 'NO'}")
    if not result["same_report"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
