"""Measure every catalogued computer player's strength and write agents/strength.json.

    python bench/measure_opponents.py [-n 300] [--search-n 100] [--seed 20261201]
        [--workers 2] [--only SPEC ...] [--out PATH]

What each figure is (agents/catalogue.py shows it; docs/agents.md, *The catalogue*):

- Adventure Cards: the player's win share in 4-player games against three Normal players
  (`forgetful:level=normal`, the yardstick), the lineup seated in all 4 orders in turn (a shared
  win counts 1/k to each of its k winners). Normal itself is the reference: its share against
  itself is 1/4 by construction, so it is not played.
- Perils & Pathways Heroes: the share of mazes won under the Fair Teller (the default rules).
- Perils Tellers: the share of mazes the Steady computer Hero (`rulebased`) wins under each
  style, with the options the style needs (`teller_policy=human`).

Game i of every measurement uses the deal seed `derive_seed(seed, i)` (common random numbers:
every candidate meets the same deals), and seat agents are seeded from it (sim/runner.py), so
any game can be replayed alone. Each row keeps its first `SAMPLE` games (seed, seats, winners):
tests/agents/test_catalogue.py replays them and runs this script with a small -n.
Intervals are 95% Wilson intervals (sim/stats.py). `--search-n` is the count for the searching
players (`ismcts`), about ten times slower per game than the others.

Cost: the defaults (-n 300, --search-n 100) take about 6 minutes of one idle core (from the
per-game times). The committed figures were measured with `-n 400 --search-n 160 --workers 2`
(the `command` in the file): 32 minutes on the 2-core build machine at a load average of about
20. `--workers` changes the speed, never the figures.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from pathlib import Path
from typing import Any

from pocketgalaxy.agents.catalogue import STRENGTH_FILE, Entry, entries
from pocketgalaxy.core.options import options_from_json, options_to_json
from pocketgalaxy.registry import get_game
from pocketgalaxy.sim.runner import GameResult, Job, derive_seed, run_jobs
from pocketgalaxy.sim.stats import wilson
from pocketgalaxy.sim.tournament import seatings

FORMAT = 1
SEED = 20261201
SAMPLE = 4
ADVENTURE_REFERENCE = "forgetful:level=normal"
PERILS_TELLER = "teller:style=fair"
PERILS_HERO = "rulebased"
SEARCHING = frozenset({("adventure", "ismcts")})
"""Players measured with `--search-n` games (about ten times slower per game than the rest)."""
OUT = Path(__file__).resolve().parents[1] / "src" / "pocketgalaxy" / "agents" / STRENGTH_FILE


def plan(entry: Entry) -> dict[str, Any]:
    """How one entry is measured: the lineup, its players, options, and the words."""
    if entry.game == "adventure":
        return {"lineup": [entry.spec] + [ADVENTURE_REFERENCE] * 3, "players": 4,
                "options": {}, "seat_of": None, "lead": "wins",
                "against": "of 4-player games against three Normal players",
                "reference": entry.spec == ADVENTURE_REFERENCE}
    if entry.role == "hero":
        return {"lineup": [entry.spec, PERILS_TELLER], "players": 2, "options": {},
                "seat_of": 0, "lead": "wins", "against": "of mazes under the Fair Teller",
                "reference": False}
    return {"lineup": [PERILS_HERO, entry.spec], "players": 2, "options": dict(entry.options),
            "seat_of": 1, "lead": "the Steady computer Hero wins",
            "against": "of mazes under this Teller", "reference": False}


def jobs_for(entry: Entry, games: int, seed: int) -> list[Job]:
    """The scheduled games of one entry (Adventure: every seating in turn)."""
    p = plan(entry)
    rules = get_game(entry.game)
    opts = options_to_json(options_from_json(rules.options_type, p["options"]))
    order = seatings(p["lineup"], p["players"]) if entry.game == "adventure" else [
        tuple(p["lineup"])]
    return [Job(entry.game, order[i % len(order)], derive_seed(seed, i), opts, p["players"], i)
            for i in range(games)]


def share(entry: Entry, result: GameResult) -> float:
    """The entry's share of one game's win (Perils: the Hero's win, whoever is measured)."""
    if entry.game == "perils":
        return 1.0 if 0 in result.winners else 0.0
    seats = [s for s, spec in enumerate(result.specs) if spec == entry.spec]
    return sum(1.0 / len(result.winners) for s in seats if s in result.winners)


def measure_entry(entry: Entry, games: int, seed: int, workers: int = 1) -> dict[str, Any]:
    """Play one entry's games and return its row for the data file."""
    p = plan(entry)
    jobs = jobs_for(entry, games, seed)
    row: dict[str, Any] = {"lead": p["lead"], "against": p["against"],
                           "lineup": p["lineup"], "players": p["players"],
                           "options": p["options"], "seed": seed}
    if p["reference"]:
        even = 1.0 / p["players"]
        row.update({"reference": True, "rate": even, "low": even, "high": even, "games": 0,
                    "sample": [], "seconds": 0.0})
        return row
    started = time.perf_counter()
    results = run_jobs(jobs, workers=workers)
    w = wilson(sum(share(entry, r) for r in results), len(results))
    row.update({
        "reference": False, "rate": round(w.p, 4), "low": round(w.low, 4),
        "high": round(w.high, 4), "games": len(results),
        "seconds": round(time.perf_counter() - started, 1),
        "sample": [{"index": r.index, "seed": r.seed, "specs": list(r.specs),
                    "winners": list(r.winners)} for r in results[:SAMPLE]],
    })
    return row


def measure(games: int, search_games: int, seed: int, *, workers: int = 1,
            only: list[str] | None = None, command: str = "",
            log: Any = None) -> dict[str, Any]:
    """The whole data file's content (only the `only` specs, when given)."""
    players: dict[str, dict[str, Any]] = {}
    for game in ("adventure", "perils"):
        for entry in entries(game):
            if only and entry.spec not in only:
                continue
            n = search_games if (game, entry.name) in SEARCHING else games
            row = measure_entry(entry, n, seed, workers)
            players.setdefault(game, {})[entry.spec] = row
            if log is not None:
                print(f"{game:9} {entry.spec:24} {row['rate']:.3f} "
                      f"[{row['low']:.3f}, {row['high']:.3f}] n={row['games']} "
                      f"{row['seconds']} s", file=log, flush=True)
    return {
        "format": FORMAT,
        "command": command,
        "seed": seed,
        "date": dt.date.today().isoformat(),
        "references": {"adventure": ADVENTURE_REFERENCE, "perils_teller": PERILS_TELLER,
                       "perils_hero": PERILS_HERO},
        "players": players,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=300, help="games per player (default 300)")
    parser.add_argument("--search-n", type=int, default=100,
                        help="games per searching player (ismcts; default 100)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", nargs="*", default=None, help="measure only these specs")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.n < 1 or args.search_n < 1:
        parser.error("-n and --search-n must be at least 1")
    command = (f"python bench/measure_opponents.py -n {args.n} --search-n {args.search_n} "
               f"--seed {args.seed}")
    data = measure(args.n, args.search_n, args.seed, workers=args.workers, only=args.only,
                   command=command, log=sys.stderr)
    if args.only and args.out.exists():
        # A partial run updates its rows in the existing file and keeps the others.
        old = json.loads(args.out.read_text("utf-8"))
        for game, rows in data["players"].items():
            old.setdefault("players", {}).setdefault(game, {}).update(rows)
        data = old
    args.out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
