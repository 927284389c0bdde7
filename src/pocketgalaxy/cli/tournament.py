"""`pocketgalaxy tournament adventure|perils`: seat-balanced matches between computer players.

The statistics live in sim/tournament.py (win rates with 95% Wilson intervals, Elo-scale
ratings with bootstrap intervals, seconds per decision); this module reads the command line,
shows a progress bar and prints the report as tables or, with `--json`, as JSON.
"""

from __future__ import annotations

from typing import Annotated

import typer

from pocketgalaxy.cli.common import (
    check_counts,
    emit_report,
    fail,
    handle_errors,
    option_pairs,
    pick_seed,
    progress_bar,
)
from pocketgalaxy.cli.simulate_cmd import NO_TIMING_HELP
from pocketgalaxy.registry import get_game
from pocketgalaxy.sim.report import without_timing
from pocketgalaxy.sim.tournament import (
    adventure_tournament,
    perils_tournament,
    split_specs,
    tournament_tables,
)

tournament_app = typer.Typer(
    help="Tournaments between computer players: win rates with intervals, ratings, speed.",
    no_args_is_help=True,
)

_OPTION_HELP = "A rule option key=value (repeatable)."
_WORKERS_HELP = "Processes to use (the report is the same as with one)."


def _check(n: int, workers: int, bootstrap: int) -> None:
    check_counts(n, workers)
    if bootstrap < 0:
        raise fail(f"--bootstrap {bootstrap}: use 0 (none) or more resamples")


@tournament_app.command("adventure")
@handle_errors
def tournament_adventure(
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Computer players, comma separated; repeat a name to seat "
            "it twice (ismcts,memory,memory).",
        ),
    ] = "ismcts,memory,forgetful",
    players: Annotated[
        int | None, typer.Option("--players", help="Seats per game, 2-5 (default: one per bot).")
    ] = None,
    n: Annotated[int, typer.Option("-n", "--games", help="Number of games.")] = 600,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Master seed (printed if not given).")
    ] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=_OPTION_HELP)] = None,
    workers: Annotated[int, typer.Option("--workers", help=_WORKERS_HELP)] = 1,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", help="Resamples for the rating intervals.")
    ] = 200,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as JSON (no progress bar).")
    ] = False,
    no_timing: Annotated[bool, typer.Option("--no-timing", help=NO_TIMING_HELP)] = False,
) -> None:
    """Every bot in every seat equally often: win rates, ratings and seconds per decision."""
    _check(n, workers, bootstrap)
    options = option_pairs(get_game("adventure"), option or [])
    master = pick_seed(seed)
    with progress_bar(not as_json, "Adventure Cards tournament") as progress:
        report = adventure_tournament(
            split_specs(bots),
            n,
            players=players,
            seed=master,
            options=options,
            workers=workers,
            progress=progress,
            bootstrap=bootstrap,
        )
    emit_report(without_timing(report) if no_timing else report, as_json, tournament_tables)


@tournament_app.command("perils")
@handle_errors
def tournament_perils(
    heroes: Annotated[
        str, typer.Option("--heroes", help="Computer Heroes, comma separated.")
    ] = "planner,rulebased,random",
    tellers: Annotated[
        str,
        typer.Option(
            "--tellers",
            help="Teller styles (fair, generous, harsh, adaptive) or "
            "Teller specs, comma separated.",
        ),
    ] = "fair,adaptive",
    n: Annotated[int, typer.Option("-n", "--games", help="Games per Hero and Teller.")] = 1000,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Master seed (printed if not given).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help=_OPTION_HELP + " Styles set teller_policy=human."),
    ] = None,
    workers: Annotated[int, typer.Option("--workers", help=_WORKERS_HELP)] = 1,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", help="Resamples for the rating intervals.")
    ] = 200,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as JSON (no progress bar).")
    ] = False,
    no_timing: Annotated[bool, typer.Option("--no-timing", help=NO_TIMING_HELP)] = False,
) -> None:
    """Every Hero under every Teller on the same deals: win rates and ratings."""
    _check(n, workers, bootstrap)
    options = option_pairs(get_game("perils"), option or [])
    master = pick_seed(seed)
    with progress_bar(not as_json, "Perils & Pathways tournament") as progress:
        report = perils_tournament(
            split_specs(heroes),
            split_specs(tellers),
            n,
            seed=master,
            options=options,
            workers=workers,
            progress=progress,
            bootstrap=bootstrap,
        )
    emit_report(without_timing(report) if no_timing else report, as_json, tournament_tables)


def register(app: typer.Typer) -> None:
    """Add `tournament` to the `pocketgalaxy` command line."""
    app.add_typer(tournament_app, name="tournament")
