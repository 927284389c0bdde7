"""Turn simulation results into reports: plain JSON-ready dicts, and Rich tables over them.

The dict is the report; the tables only render it, so `--json` and the screen always agree.
Shared wins: a game won jointly by k seats counts 1/k to each winner, so win shares of all seats
add up to the number of games that had a winner.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from pocketgalaxy.sim.runner import GameResult
from pocketgalaxy.sim.stats import summary, versus_constant, wilson

SHARED_WIN_NOTE = "a shared win counts as 1/k to each of its k winners"

TIMING_KEYS = ("seconds_in_games", "games_per_second", "ms_per_decision", "seconds_per_decision")
"""Report fields that measure time: the only ones that differ between runs of the same seed."""


def without_timing(report: Any) -> Any:
    """A copy of a report (simulate or tournament) without its timing fields, at any depth, so
    two runs of the same seed can be compared byte for byte (`--no-timing`)."""
    if isinstance(report, dict):
        return {k: without_timing(v) for k, v in report.items() if k not in TIMING_KEYS}
    if isinstance(report, list):
        return [without_timing(v) for v in report]
    return report


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(d: dict[str, Any]) -> str:
    return f"{_pct(d['ci_low'])} to {_pct(d['ci_high'])}"


def _timing(results: Sequence[GameResult]) -> dict[str, Any]:
    seconds = sum(r.seconds for r in results)
    decisions = sum(r.decisions for r in results)
    return {
        "seconds_in_games": seconds,
        "games_per_second": len(results) / seconds if seconds > 0 else 0.0,
        "decisions": decisions,
        "mean_decisions": decisions / len(results) if results else 0.0,
    }


# -- Perils & Pathways ------------------------------------------------------------------------


def perils_report(
    results: Sequence[GameResult], *, seed: int, options: dict[str, Any]
) -> dict[str, Any]:
    """The Hero's win rate (overall and by archetype) with 95% Wilson intervals, and game length."""
    n = len(results)
    wins = sum(1 for r in results if 0 in r.winners)
    by_arch: dict[str, list[GameResult]] = defaultdict(list)
    reasons: dict[str, int] = defaultdict(int)
    for r in results:
        by_arch[str(r.extras.get("archetype"))].append(r)
        reasons[r.reason] += 1
    return {
        "game": "perils",
        "games": n,
        "seed": seed,
        "hero": results[0].specs[0] if results else None,
        "teller": results[0].specs[1] if results else None,
        "options": options,
        "hero_win": wilson(wins, n).to_json(),
        "by_archetype": {
            arch: wilson(sum(1 for r in rs if 0 in r.winners), len(rs)).to_json()
            for arch, rs in sorted(by_arch.items())
        },
        "rounds": summary([r.length for r in results]).to_json(),
        "reasons": dict(sorted(reasons.items())),
        "timing": _timing(results),
    }


def perils_tables(report: dict[str, Any]) -> RenderableType:
    """Rich tables for a Perils report."""
    head = Text(
        f"Perils & Pathways: {report['games']} games, seed {report['seed']}, "
        f"Hero {report['hero']} with Teller {report['teller']}",
        style="bold",
    )
    table = Table(title="Hero win rate (95% Wilson interval)")
    table.add_column("archetype")
    table.add_column("games", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI", justify="right")
    for arch, d in report["by_archetype"].items():
        table.add_row(arch, str(d["n"]), f"{d['successes']:g}", _pct(d["rate"]), _ci(d))
    d = report["hero_win"]
    table.add_row(
        Text("all", style="bold"),
        str(d["n"]),
        f"{d['successes']:g}",
        _pct(d["rate"]),
        _ci(d),
        end_section=True,
    )
    r = report["rounds"]
    length = Text(
        f"rounds per game: mean {r['mean']:.2f}, sd {r['sd']:.2f}, median {r['median']:g}, "
        f"p90 {r['p90']:g}"
    )
    reasons = Text("endings: " + ", ".join(f"{k} {v}" for k, v in report["reasons"].items()))
    t = report["timing"]
    rate = f"{t['games_per_second']:.0f} games/s per worker, " if "games_per_second" in t else ""
    speed = Text(f"{rate}{t['mean_decisions']:.1f} decisions per game", style="dim")
    return Group(head, table, length, reasons, speed)


# -- Adventure Cards --------------------------------------------------------------------------


def adventure_report(
    results: Sequence[GameResult],
    *,
    seed: int,
    options: dict[str, Any],
    specs: Sequence[str],
    rotate: bool,
) -> dict[str, Any]:
    """Win shares per seat and per bot kind, game length, cap endings and the first-player edge."""
    n = len(results)
    players = len(specs)
    seat_share = [0.0] * players
    kind_share: dict[str, float] = defaultdict(float)
    kind_games: dict[str, int] = defaultdict(int)
    kind_time: dict[str, float] = defaultdict(float)
    kind_decisions: dict[str, int] = defaultdict(int)
    first_share = 0.0
    first_known = 0
    shared = 0
    no_winner = 0
    for r in results:
        share = 1.0 / len(r.winners) if r.winners else 0.0
        if len(r.winners) > 1:
            shared += 1
        if not r.winners:
            no_winner += 1
        for seat in r.winners:
            seat_share[seat] += share
            kind_share[r.specs[seat]] += share
        for seat, spec in enumerate(r.specs):
            kind_games[spec] += 1
            if r.decision_seconds:
                kind_time[spec] += r.decision_seconds[seat]
            if r.seat_decisions:
                kind_decisions[spec] += r.seat_decisions[seat]
        if r.first_player is not None:
            first_known += 1
            if r.first_player in r.winners:
                first_share += share
    first = wilson(first_share, first_known)
    lengths = [r.length for r in results]
    return {
        "game": "adventure",
        "games": n,
        "players": players,
        "seed": seed,
        "specs": list(specs),
        "rotate": rotate,
        "options": options,
        "shared_win_rule": SHARED_WIN_NOTE,
        "shared_wins": shared,
        "games_without_winner": no_winner,
        "by_seat": [
            {
                "seat": seat,
                "spec": None if rotate else specs[seat],
                **wilson(seat_share[seat], n).to_json(),
            }
            for seat in range(players)
        ],
        "by_kind": {
            kind: {
                "seats_played": kind_games[kind],
                "ms_per_decision": (
                    1000 * kind_time[kind] / kind_decisions[kind] if kind_decisions[kind] else 0.0
                ),
                **wilson(kind_share[kind], kind_games[kind]).to_json(),
            }
            for kind in sorted(kind_games)
        },
        "turns": summary(lengths).to_json(),
        "ended_by_cap": sum(1 for r in results if r.ended_by_cap),
        "first_player": {
            "win": first.to_json(),
            "fair_share": 1.0 / players if players else 0.0,
            "advantage": versus_constant(first, 1.0 / players if players else 0.0).to_json(),
        },
        "timing": _timing(results),
    }


def adventure_tables(report: dict[str, Any]) -> RenderableType:
    """Rich tables for an Adventure Cards report."""
    head = Text(
        f"Adventure Cards: {report['games']} games, {report['players']} players, seed "
        f"{report['seed']}, seats {', '.join(report['specs'])}"
        f"{' (rotated each game)' if report['rotate'] else ''}",
        style="bold",
    )
    seats = Table(title="Win share by seat (95% Wilson interval)")
    for col in ("seat", "player", "wins", "win rate", "95% CI"):
        seats.add_column(col, justify="left" if col in ("seat", "player") else "right")
    for d in report["by_seat"]:
        seats.add_row(
            str(d["seat"]),
            d["spec"] or "rotated",
            f"{d['successes']:.1f}",
            _pct(d["rate"]),
            _ci(d),
        )
    kinds = Table(title="Win share by computer player (per seat played)")
    timed = all("ms_per_decision" in d for d in report["by_kind"].values())
    columns = ("player", "seats played", "wins", "win rate", "95% CI")
    for col in (*columns, "ms/decision") if timed else columns:
        kinds.add_column(col, justify="left" if col == "player" else "right")
    for kind, d in report["by_kind"].items():
        cells = [kind, str(d["seats_played"]), f"{d['successes']:.1f}", _pct(d["rate"]), _ci(d)]
        if timed:
            cells.append(f"{d['ms_per_decision']:.3f}")
        kinds.add_row(*cells)
    t = report["turns"]
    fp = report["first_player"]
    lines = Text.assemble(
        f"Game length in turns: mean {t['mean']:.1f}, sd {t['sd']:.1f}, median {t['median']:g}, "
        f"p90 {t['p90']:g}, max {t['max']:g}\n",
        f"Games ended by the turn cap: {report['ended_by_cap']}; shared wins: "
        f"{report['shared_wins']} ({report['shared_win_rule']})\n",
        f"First player won {_pct(fp['win']['rate'])} (95% CI {_ci(fp['win'])}) against a fair "
        f"share of {_pct(fp['fair_share'])}: advantage {100 * fp['advantage']['diff']:+.1f} "
        f"points (95% CI {100 * fp['advantage']['ci_low']:+.1f} to "
        f"{100 * fp['advantage']['ci_high']:+.1f})",
    )
    tm = report["timing"]
    if "games_per_second" not in tm:
        return Group(head, seats, kinds, lines)
    speed = Text(f"{tm['games_per_second']:.1f} games/s per worker", style="dim")
    return Group(head, seats, kinds, lines, speed)
