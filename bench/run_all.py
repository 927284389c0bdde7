"""Run every benchmark script in bench/ and print their output (`make bench`).

    python bench/run_all.py [--only NAME[,NAME]] [--timeout S]

Each script runs in its own interpreter, one after another (benchmarks should not share the
cores), with the arguments in ARGS when it needs some; a script that fails or times out is
reported and the rest still run. The exit status is non-zero if any failed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

ARGS: dict[str, list[str]] = {
    "bench_million.py": ["--games", "2000", "--repeat", "1"],
    "bench_perils_planner.py": ["speed"],
    "bench_teller_reader.py": ["--train", "100", "--test", "40", "--games", "150"],
    "load_ws.py": ["--games", "20"],
}
"""Arguments for scripts that need some (every other script runs with its defaults)."""


def scripts() -> list[Path]:
    """The benchmark scripts: every .py file in bench/ except this one."""
    return sorted(p for p in HERE.glob("*.py") if p.name != Path(__file__).name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated script names to run")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per script")
    args = parser.parse_args(argv)
    chosen = scripts()
    if args.only:
        wanted = {n if n.endswith(".py") else n + ".py" for n in args.only.split(",")}
        chosen = [p for p in chosen if p.name in wanted]
    failed = []
    for path in chosen:
        cmd = [sys.executable, str(path), *ARGS.get(path.name, [])]
        print(f"== {path.name} {' '.join(ARGS.get(path.name, []))}".rstrip(), flush=True)
        started = time.perf_counter()
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            print(f"   timed out after {args.timeout:g} s", flush=True)
            failed.append(path.name)
            continue
        sys.stdout.write(done.stdout)
        if done.returncode != 0:
            sys.stdout.write(done.stderr)
            failed.append(path.name)
        print(f"   ({time.perf_counter() - started:.1f} s, exit {done.returncode})", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
