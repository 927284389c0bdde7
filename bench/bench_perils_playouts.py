"""Perils & Pathways random playouts against OpenSpiel's go_fish(players=4), side by side.

    python bench/bench_perils_playouts.py [--seconds S] [--repeat R] [--anchor-python PY]

Perils is measured twice, with the full rules (`get_game("perils")`: the computer Teller's
sentences are written) and with the quiet rules a simulation or a search plays
(`perils_rules(narrate=False)`: the same decisions, no words), by the protocol of
bench/bench_playouts.py (uniform random legal actions, `legal_actions` + `apply_unchecked`,
fresh deals, games to the end). go_fish(players=4) runs in the anchor bench's own function
(../shared/anchor-bench/bench.py, `bench_openspiel_playouts`) in the anchor virtualenv
(`python3 -m venv /tmp/anchorvenv-sim && /tmp/anchorvenv-sim/bin/pip install open-spiel`).
The three are interleaved, R rounds; the ratios use wall-clock decisions per second, the
anchor's own measure, and their medians.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import anchor as _anchor  # noqa: E402

ANCHOR_GAME = _anchor.ANCHOR_GAME


def perils_playouts(seconds: float, narrate: bool, quiet_apply: bool = False) -> dict[str, Any]:
    """Uniform random Perils playouts for about `seconds` (at least one game). `quiet_apply`:
    apply with `apply_quiet` (no events returned, as go_fish's `apply_action`) instead of
    `apply_unchecked`."""
    from pocketgalaxy.core.rng import Rng
    from pocketgalaxy.registry import perils_rules

    rules = perils_rules(narrate=narrate)
    apply = rules.apply_quiet if quiet_apply else rules.apply_unchecked
    rng = Rng(1)
    steps = games = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall0 < seconds or games == 0:
        state = rules.new(None, games, players=2)
        seat = rules.to_act(state)
        while seat is not None:
            legal = rules.legal_actions(state, seat)
            apply(state, seat, legal[rng.below(len(legal))])
            steps += 1
            seat = rules.to_act(state)
        games += 1
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    name = "perils(2) " + ("full" if narrate else "quiet") + (", apply_quiet" if quiet_apply
                                                               else "")
    return {"game": name, "games": games,
            "decisions": steps, "decisions_per_s": round(steps / wall),
            "decisions_per_s_cpu": round(steps / cpu) if cpu > 0 else 0}


def anchor_playouts(python: str, seconds: float) -> dict[str, Any]:
    """The anchor's go_fish playouts in the anchor virtualenv (bench/anchor.py, its own code)."""
    return _anchor.anchor_playouts(python, seconds, 1, ANCHOR_GAME)


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per item and round")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds (medians)")
    parser.add_argument("--anchor-python", default="/tmp/anchorvenv-sim/bin/python",
                        help="a Python with open-spiel installed")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not Path(args.anchor_python).is_file():
        sys.exit(f"no anchor Python at {args.anchor_python}: make it with `python3 -m venv "
                 "/tmp/anchorvenv-sim && /tmp/anchorvenv-sim/bin/pip install open-spiel`, or "
                 "give --anchor-python")
    rows: dict[str, list[dict[str, Any]]] = {"anchor": [], "full": [], "quiet": [],
                                             "quiet_apply": []}
    for _ in range(max(1, args.repeat)):
        rows["anchor"].append(anchor_playouts(args.anchor_python, args.seconds))
        rows["full"].append(perils_playouts(args.seconds, True))
        rows["quiet"].append(perils_playouts(args.seconds, False))
        rows["quiet_apply"].append(perils_playouts(args.seconds, False, True))
    med = {k: {m: _median([r[m] for r in v]) for m in ("decisions_per_s", "decisions_per_s_cpu")}
           for k, v in rows.items()}
    result = {
        "anchor_game": ANCHOR_GAME,
        "medians": med,
        "ratio_full": round(med["full"]["decisions_per_s"] / med["anchor"]["decisions_per_s"], 3),
        "ratio_quiet": round(med["quiet"]["decisions_per_s"] / med["anchor"]["decisions_per_s"],
                             3),
        "ratio_quiet_cpu": round(med["quiet"]["decisions_per_s_cpu"]
                                 / med["anchor"]["decisions_per_s_cpu"], 3),
        "ratio_quiet_apply_cpu": round(med["quiet_apply"]["decisions_per_s_cpu"]
                                       / med["anchor"]["decisions_per_s_cpu"], 3),
        "runs": rows,
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"random playouts, {args.seconds:g} s per item, median of {args.repeat} interleaved"
          " rounds (decisions/s, wall and CPU)")
    for key, label in (("anchor", ANCHOR_GAME), ("full", "perils(2) full rules"),
                       ("quiet", "perils(2) quiet rules"),
                       ("quiet_apply", "quiet, apply_quiet")):
        print(f"  {label:24} {med[key]['decisions_per_s']:>9.0f} wall "
              f"{med[key]['decisions_per_s_cpu']:>9.0f} cpu")
    print(f"  ratio to {ANCHOR_GAME}: full x{result['ratio_full']}, quiet x{result['ratio_quiet']}"
          f" (by CPU time: quiet x{result['ratio_quiet_cpu']}, apply_quiet"
          f" x{result['ratio_quiet_apply_cpu']})")


if __name__ == "__main__":
    main()
