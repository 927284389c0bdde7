"""Tournaments between computer players: balanced seatings, win rates with intervals, ratings.

Adventure Cards (`adventure_tournament`): the bots sit in every distinct seating of the lineup
in turn (all orders of the seats: for three bots, six seatings), so over a multiple of that many
games every bot plays every seat, and every neighbour order, equally often. With more bots than
seats, every choice of `players` bots is seated in every order. Game i uses seating
i mod (number of seatings) and the deal seed `derive_seed(seed, i)`; its agents are seeded from
that (sim/runner.py), so a game can be rerun alone and `workers=N` gives the same report as one
worker.

Perils & Pathways (`perils_tournament`): every Hero plays `games` games under every Teller. The
j-th game of each pairing uses the same deal seed (common random numbers: the Heroes face the
same mazes, so their difference is measured with less noise). A Teller *style* (`fair`,
`adaptive`, ...) is the computer Teller with `style=`; styles judge plans through the Teller
seat, so those games set `teller_policy="human"` (agents/perils/styles.py).

Each report gives, per bot: games, win share (a shared win counts 1/k to each of its k winners)
with its 95% Wilson interval, seconds per decision, and an Elo-scale rating from the pairwise
places with a bootstrap interval (sim/rating.py). Pairwise places: winners first, then by score.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from pocketgalaxy.agents.catalogue import resolve_spec
from pocketgalaxy.agents.registry import agent_names, make_agent, parse_spec
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.options import options_from_json, options_to_json
from pocketgalaxy.registry import get_game
from pocketgalaxy.sim.rating import PairResult, pairwise, rate
from pocketgalaxy.sim.runner import GameResult, Job, ProgressFn, derive_seed, run_jobs
from pocketgalaxy.sim.stats import newcombe_diff, versus_constant, wilson

SHARED_WIN_NOTE = "a shared win counts as 1/k to each of its k winners"
STYLE_TELLERS = ("fair", "generous", "harsh", "adaptive")
"""Teller style names accepted on their own by `--tellers` (short for `teller:style=NAME`)."""


# -- scheduling -------------------------------------------------------------------------
def split_specs(text: str) -> list[str]:
    """A list of player specs from the command line. Specs are separated by commas (or
    semicolons); a part holding `key=value` without a name continues the spec before it.

    >>> split_specs("ismcts:iterations=200,c=0.5,memory, forgetful")
    ['ismcts:iterations=200,c=0.5', 'memory', 'forgetful']
    """
    out: list[str] = []
    for chunk in text.split(";"):
        for part in (p.strip() for p in chunk.split(",")):
            if not part:
                continue
            if "=" in part and ":" not in part and out and ":" in out[-1]:
                out[-1] += "," + part
            else:
                out.append(part)
    return out


def seatings(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every distinct seating of `players` of the bots, each order once.

    >>> seatings(["a", "b"], 2)
    [('a', 'b'), ('b', 'a')]
    >>> len(seatings(["a", "b", "c"], 3)), len(seatings(["x", "y", "y"], 3))
    (6, 3)
    """
    if len(bots) < players:
        raise PocketGalaxyError(
            f"{len(bots)} bots for {players} seats: name one bot per seat (repeat a name to "
            "seat it twice)",
            code="sim/bad_specs",
        )
    out: dict[tuple[str, ...], None] = {}
    for group in itertools.combinations(range(len(bots)), players):
        for order in itertools.permutations(group):
            out[tuple(bots[i] for i in order)] = None
    return list(out)


def _check_specs(game: str, specs: Sequence[str], seat_of: Callable[[int], int], n: int) -> None:
    """Build each spec once (in this process) so a bad name or setting fails before any game."""
    for i, spec in enumerate(specs):
        seat = seat_of(i)
        name, _ = parse_spec(spec)
        if name not in agent_names(game, seat, n):
            raise PocketGalaxyError(
                f"unknown computer player {name!r} for {game} seat {seat}",
                code="agent/unknown",
                allowed=agent_names(game, seat, n),
            )
        make_agent(game, spec, seat, n, seed=0)


# -- Adventure Cards --------------------------------------------------------------------
def adventure_tournament(
    bots: Sequence[str],
    games: int,
    *,
    players: int | None = None,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    workers: int = 1,
    progress: ProgressFn | None = None,
    bootstrap: int = 200,
) -> dict[str, Any]:
    """Play `games` seat-balanced Adventure Cards games between `bots`; the report dict."""
    if games < 1:
        raise PocketGalaxyError(f"play at least one game, not {games}", code="sim/bad_count")
    bots = [b.strip() for b in bots if b.strip()]
    n = players if players is not None else len(bots)
    rules = get_game("adventure")
    if not rules.min_players <= n <= rules.max_players:
        raise PocketGalaxyError(
            f"Adventure Cards is for {rules.min_players} to {rules.max_players} players, not {n}",
            code="sim/bad_players",
        )
    bots = [resolve_spec("adventure", b, 0) for b in bots]  # `bot`: the documented default
    order = seatings(bots, n)
    _check_specs("adventure", list(dict.fromkeys(bots)), lambda i: 0, n)
    opts = options_to_json(options_from_json(rules.options_type, options or {}))
    jobs: list[Job] = [
        Job("adventure", order[i % len(order)], derive_seed(seed, i), opts, n, i)
        for i in range(games)
    ]
    results = run_jobs(jobs, workers=workers, progress=progress)
    report = _report(results, list(dict.fromkeys(bots)), bootstrap=bootstrap, seed=seed)
    report.update(
        {
            "game": "adventure",
            "players": n,
            "games": games,
            "seed": seed,
            "options": opts,
            "seatings": len(order),
            "balanced": games % len(order) == 0,
            "mean_turns": sum(r.length for r in results) / len(results),
            "ended_by_cap": sum(1 for r in results if r.ended_by_cap),
            "shared_win_rule": SHARED_WIN_NOTE,
        }
    )
    return report


# -- Perils & Pathways ------------------------------------------------------------------
def teller_spec(name: str) -> str:
    """`fair` -> `teller:style=fair`; full specs (`teller`, `random`, `x:k=v`) stay as given."""
    name = name.strip()
    return f"teller:style={name}" if name in STYLE_TELLERS else name


def perils_tournament(
    heroes: Sequence[str],
    tellers: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    workers: int = 1,
    progress: ProgressFn | None = None,
    bootstrap: int = 200,
) -> dict[str, Any]:
    """Every Hero plays `games` games under every Teller; the report dict (per Teller too)."""
    if games < 1:
        raise PocketGalaxyError(f"play at least one game, not {games}", code="sim/bad_count")
    # `bot` is the role's documented default (agents/catalogue.py), named as what it is.
    heroes = list(dict.fromkeys(resolve_spec("perils", h.strip(), 0) for h in heroes
                                if h.strip()))
    tellers = list(dict.fromkeys(teller_spec(resolve_spec("perils", t.strip(), 1))
                                 for t in tellers if t.strip()))
    if not heroes or not tellers:
        raise PocketGalaxyError("name at least one Hero and one Teller", code="sim/bad_specs")
    _check_specs("perils", heroes, lambda i: 0, 2)
    _check_specs("perils", tellers, lambda i: 1, 2)
    rules = get_game("perils")
    jobs: list[Job] = []
    cells: list[tuple[str, str]] = []
    for t in tellers:
        base = dict(options or {})
        if "style=" in t and "teller_policy" not in base:
            base["teller_policy"] = "human"  # styles judge through the Teller seat
        elif "teller_policy" not in base:
            base["teller_policy"] = "approve_all"  # bot against bot: no plan text to judge
        opts = options_to_json(options_from_json(rules.options_type, base))
        for h in heroes:
            cells.append((h, t))
            for j in range(games):
                jobs.append(Job("perils", (h, t), derive_seed(seed, j), opts, 2, len(jobs)))
    results = run_jobs(jobs, workers=workers, progress=progress)
    by_teller: dict[str, list[GameResult]] = defaultdict(list)
    for r in results:
        by_teller[r.specs[1]].append(r)
    per_teller = []
    for t in tellers:
        cell = _report(by_teller[t], heroes, bootstrap=0, seed=seed, perils=True, rated=[])
        per_teller.append({"teller": t, "heroes": cell["bots"], "differences": cell["differences"]})
    overall = _report(
        results, heroes, bootstrap=bootstrap, seed=seed, perils=True, rated=heroes + tellers
    )
    return {
        "game": "perils",
        "games_per_pairing": games,
        "games": len(results),
        "seed": seed,
        "options": options or {},
        "heroes": heroes,
        "tellers": tellers,
        "by_teller": per_teller,
        "ratings": overall["ratings"],
        "bots": overall["bots"],
        "shared_win_rule": SHARED_WIN_NOTE,
        "note": "a Hero's rating is against the Tellers' difficulty, on one Elo scale",
    }


# -- the statistics ---------------------------------------------------------------------
def _places(r: GameResult) -> list[float]:
    """Seat standings for pairwise results: winners first, then by score."""
    scores = list(r.scores) if r.scores else [0.0] * len(r.specs)
    if r.specs and len(scores) < len(r.specs):
        scores += [0.0] * (len(r.specs) - len(scores))
    return [(1000.0 if s in r.winners else 0.0) + scores[s] for s in range(len(r.specs))]


def _report(
    results: Sequence[GameResult],
    bots: Sequence[str],
    *,
    bootstrap: int,
    seed: int,
    perils: bool = False,
    rated: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Rows per bot, ratings and differences. `perils`: count the Hero seat only, and rate
    each game as the Hero against its Teller (the Hero wins or the maze does)."""
    share: dict[str, float] = defaultdict(float)
    seats: dict[str, int] = defaultdict(int)
    spent: dict[str, float] = defaultdict(float)
    decided: dict[str, int] = defaultdict(int)
    pairs: list[list[PairResult]] = []
    for r in results:
        for s, spec in enumerate(r.specs):
            if perils and s != 0:
                continue
            seats[spec] += 1
            if s in r.winners:  # Perils is cooperative: a Hero's win is the Teller's too
                share[spec] += 1.0 if perils else 1.0 / len(r.winners)
            if r.decision_seconds:
                spent[spec] += r.decision_seconds[s]
            if r.seat_decisions:
                decided[spec] += r.seat_decisions[s]
        if perils:
            pairs.append([(r.specs[0], r.specs[1], 1.0 if 0 in r.winners else 0.0)])
        else:
            pairs.append(pairwise(list(r.specs), _places(r)))
    players = len(results[0].specs) if results else 0
    rows = []
    for b in bots:
        if seats[b] == 0:
            continue
        w = wilson(share[b], seats[b])
        row: dict[str, Any] = {
            "bot": b,
            "seat_games": seats[b],
            "wins": round(share[b], 4),
            **w.to_json(),
            "seconds_per_decision": spent[b] / decided[b] if decided[b] else 0.0,
            "decisions": decided[b],
        }
        if not perils:
            row["vs_even_share"] = versus_constant(w, 1.0 / max(1, players)).to_json()
        rows.append(row)
    names = list(rated if rated is not None else bots)
    ratings = (
        [x.to_json() for x in rate(names, pairs, bootstrap=bootstrap, seed=seed)]
        if results and names
        else []
    )
    return {
        "bots": rows,
        "ratings": ratings,
        "differences": _head_to_head(rows, share, seats),
    }


def _head_to_head(
    rows: list[dict[str, Any]], share: dict[str, float], seats: dict[str, int]
) -> list[dict[str, Any]]:
    """Win-rate differences between every two bots, with Newcombe 95% intervals."""
    out = []
    present = [r["bot"] for r in rows]
    for a, b in itertools.combinations(present, 2):
        d = newcombe_diff(share[a], seats[a], share[b], seats[b])
        out.append({"a": a, "b": b, **d.to_json()})
    return out


# -- rendering --------------------------------------------------------------------------
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _bot_table(title: str, rows: list[dict[str, Any]], ratings: list[dict[str, Any]]) -> Table:
    rated = {r["name"]: r for r in ratings}
    table = Table(title=title)
    timed = all("seconds_per_decision" in row for row in rows)
    columns = ["bot", "games", "win rate", "95% CI"]
    if rated:
        columns.append("Elo (95% bootstrap)")
    if timed:
        columns.append("ms/decision")
    for col in columns:
        table.add_column(col, justify="left" if col == "bot" else "right")
    for row in rows:
        cells = [
            row["bot"],
            str(row["seat_games"]),
            _pct(row["rate"]),
            f"{_pct(row['ci_low'])} to {_pct(row['ci_high'])}",
        ]
        if rated:
            r = rated[row["bot"]]
            cells.append(f"{r['elo']:.0f} ({r['ci_low']:.0f} to {r['ci_high']:.0f})")
        if timed:
            cells.append(f"{1000 * row['seconds_per_decision']:.2f}")
        table.add_row(*cells)
    return table


def tournament_tables(report: dict[str, Any]) -> RenderableType:
    """Rich tables over a tournament report (the dict is the report; this only renders it)."""
    parts: list[RenderableType] = []
    if report["game"] == "adventure":
        parts.append(
            _bot_table(
                f"Adventure Cards, {report['players']} players, {report['games']} games "
                f"(seed {report['seed']})",
                report["bots"],
                report["ratings"],
            )
        )
        balance = "balanced" if report["balanced"] else "not a multiple: seats slightly uneven"
        parts.append(
            Text(
                f"{report['seatings']} seatings ({balance}); mean {report['mean_turns']:.1f} "
                f"turns; {report['ended_by_cap']} games hit the turn cap; {SHARED_WIN_NOTE}."
            )
        )
    else:
        for cell in report["by_teller"]:
            parts.append(_bot_table(f"Heroes under {cell['teller']}", cell["heroes"], []))
        rated = Table(title="Ratings (Heroes against Teller difficulty, one Elo scale)")
        for col in ("player", "Elo", "95% bootstrap", "sd"):
            rated.add_column(col, justify="left" if col == "player" else "right")
        for r in report["ratings"]:
            rated.add_row(
                r["name"],
                f"{r['elo']:.0f}",
                f"{r['ci_low']:.0f} to {r['ci_high']:.0f}",
                f"{r['sd']:.0f}",
            )
        parts.append(rated)
        parts.append(
            Text(
                f"{report['games_per_pairing']} games per pairing, same deals for "
                f"every Hero (seed {report['seed']})."
            )
        )
    return Group(*parts)
