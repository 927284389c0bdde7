"""Random playouts side by side with OpenSpiel's C++ go_fish(players=4), pure and compiled.

    python bench/bench_anchor.py [--seconds S] [--rounds N] [--anchor-python PY] [--json]

Each round runs, one after the other and each in a fresh interpreter: go_fish(players=4)
through the anchor bench (bench/anchor.py runs ../shared/anchor-bench/bench.py, its own
protocol, in the anchor venv's python), our playouts on the pure-Python path
(`POCKETGALAXY_PURE=1`) and on the compiled path (bench/bench_playouts.py: adventure(2..5)
applied with the contract's `apply_unchecked` and, as "quiet", with `apply_quiet`; perils(2));
the order turns each round so drift on a shared machine does not favour one side. A ratio is
ours / go_fish(4) within one round; the table prints the median over rounds of each ratio, by
CPU clock (what the code costs) and by wall clock (what the anchor bench itself reports). Set
up the anchor venv once, as its README says: `python3 -m venv /tmp/anchorvenv &&
/tmp/anchorvenv/bin/pip install open-spiel "pettingzoo[classic]"`. The compiled path needs
`make compile`; without it that column is left out and the reason printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from anchor import ANCHOR_GAME, DEFAULT_PYTHON, anchor_playouts  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def anchor(python: str, seconds: float, seed: int) -> dict[str, Any]:
    """One go_fish(4) measurement: decisions per second by wall (the anchor's) and by CPU."""
    row = anchor_playouts(python, seconds, seed)
    return {"wall": row["wall"], "cpu": row["cpu"]}


def ours(seconds: float, pure: bool) -> dict[str, Any]:
    """Our playouts in a fresh interpreter on one speed path: {"path": ..., "items": {...}}."""
    env = dict(os.environ)
    env.pop("POCKETGALAXY_PURE", None)
    if pure:
        env["POCKETGALAXY_PURE"] = "1"
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_playouts.py"), "--seconds", str(seconds),
         "--json"],
        env=env, capture_output=True, text=True, check=True,
    )
    data = json.loads(out.stdout)
    items = {r["game"]: {"wall": r["decisions_per_s_wall"], "cpu": r["decisions_per_s_cpu"]}
             for r in data["runs"][0]}
    items.update(quiet_perils(seconds, env))
    return {"path": data["speed_path"], "items": items}


# -- Perils on the quiet rules (added by the Perils speed work) ------------------------------
_QUIET_CODE = """
import json, sys
sys.path.insert(0, {bench!r})
from bench_perils_playouts import perils_playouts
print(json.dumps(perils_playouts({seconds}, False, {quiet_apply})))
"""


def quiet_perils(seconds: float, env: dict[str, str]) -> dict[str, dict[str, float]]:
    """Perils random playouts on the quiet rules (`perils_rules(narrate=False)`), in a fresh
    interpreter on the same speed path as `ours`. A random playout reads no narration, so the
    quiet rules are the honest fast path; bench_playouts.py's perils(2) row keeps the full rules.
    Two rows: applied with `apply_unchecked` (events returned) and with `apply_quiet` (nothing
    returned, like go_fish's `apply_action` and the Adventure quiet rows).
    """
    rows = []
    for quiet_apply in (False, True):  # each in its own fresh interpreter: the same cold memos
        code = _QUIET_CODE.format(bench=str(ROOT / "bench"), seconds=seconds,
                                  quiet_apply=quiet_apply)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True)
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
    unchecked, quiet = rows
    return {"perils(2) quiet": {"wall": unchecked["decisions_per_s"],
                                "cpu": unchecked["decisions_per_s_cpu"]},
            "perils(2) quiet, apply_quiet": {"wall": quiet["decisions_per_s"],
                                             "cpu": quiet["decisions_per_s_cpu"]}}


def measure(seconds: float, rounds: int, python: str) -> dict[str, Any]:
    """Interleaved rounds; each round's ratios are to that round's go_fish(4)."""
    compiled_ok = _compiled_available()
    out: dict[str, Any] = {"anchor": ANCHOR_GAME, "seconds": seconds, "rounds": []}
    for r in range(rounds):
        jobs = ["anchor", "pure"] + (["compiled"] if compiled_ok is None else [])
        if r % 2:
            jobs.reverse()
        row: dict[str, Any] = {}
        for job in jobs:
            if job == "anchor":
                row["anchor"] = anchor(python, seconds, 1234 + r)
            else:
                row[job] = ours(seconds, pure=job == "pure")
        out["rounds"].append(row)
    out["compiled_missing"] = compiled_ok
    return out


def _compiled_available() -> str | None:
    """None when a fresh interpreter runs the compiled path, else the reason it does not."""
    env = dict(os.environ)
    env.pop("POCKETGALAXY_PURE", None)
    code = "import json, pocketgalaxy.speedpath as s; print(json.dumps(s.status()))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    info = json.loads(out.stdout)
    return None if info["compiled"] else str(info["reason"])


def summary(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Per path and item: median decisions/s and median ratio to go_fish(4), CPU and wall."""
    rows = []
    rounds = data["rounds"]
    anchors = [r["anchor"] for r in rounds]
    rows.append({"path": "openspiel", "game": ANCHOR_GAME,
                 "cpu": statistics.median(a["cpu"] for a in anchors),
                 "wall": statistics.median(a["wall"] for a in anchors),
                 "ratio_cpu": 1.0, "ratio_wall": 1.0})
    for path in ("pure", "compiled"):
        if path not in rounds[0]:
            continue
        for game in rounds[0][path]["items"]:
            got = [r[path]["items"][game] for r in rounds]
            rows.append({
                "path": path, "game": game,
                "cpu": statistics.median(g["cpu"] for g in got),
                "wall": statistics.median(g["wall"] for g in got),
                "ratio_cpu": statistics.median(
                    g["cpu"] / max(1, r["anchor"]["cpu"]) for g, r in zip(got, rounds, strict=True)
                ),
                "ratio_wall": statistics.median(
                    g["wall"] / max(1, r["anchor"]["wall"])
                    for g, r in zip(got, rounds, strict=True)
                ),
            })
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per item")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (medians)")
    parser.add_argument("--anchor-python", default=DEFAULT_PYTHON,
                        help="a python with open-spiel installed")
    parser.add_argument("--json", action="store_true", help="print the raw rounds as JSON")
    args = parser.parse_args(argv)
    if not Path(args.anchor_python).exists():
        sys.exit(f"no anchor python at {args.anchor_python}: see this file's docstring")
    data = measure(args.seconds, max(1, args.rounds), args.anchor_python)
    rows = summary(data)
    if args.json:
        print(json.dumps({**data, "summary": rows}, indent=1))
        return
    print(f"random playouts vs {ANCHOR_GAME}: {args.seconds:g} s per item, median of "
          f"{len(data['rounds'])} interleaved rounds")
    if data["compiled_missing"]:
        print(f"  (no compiled column: {data['compiled_missing']})")
    print(f"  {'path':9} {'game':28} {'cpu dec/s':>10} {'x cpu':>6} "
          f"{'wall dec/s':>11} {'x wall':>7}")
    for row in rows:
        print(f"  {row['path']:9} {row['game']:28} {row['cpu']:>10.0f} {row['ratio_cpu']:>6.2f} "
              f"{row['wall']:>11.0f} {row['ratio_wall']:>7.2f}")


if __name__ == "__main__":
    main()
