"""`pocketgalaxy simulate perils|adventure`: many computer-only games, summarised."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import typer

from pocketgalaxy.cli.common import (
    build_options,
    check_counts,
    emit_report,
    fail,
    handle_errors,
    option_pairs,
    pick_seed,
    progress_bar,
    split_list,
)
from pocketgalaxy.core.options import options_to_json
from pocketgalaxy.registry import get_game
from pocketgalaxy.sim.report import (
    adventure_report,
    adventure_tables,
    perils_report,
    perils_tables,
    without_timing,
)
from pocketgalaxy.sim.runner import run_many

simulate_app = typer.Typer(
    help="Simulate many computer-only games and report win rates.", no_args_is_help=True
)

PERILS_SIM_DEFAULTS = {"teller_policy": "approve_all"}
"""Bot against bot there is no plan text worth judging, so plans are approved (rules.md, PP-A7)."""

NO_TIMING_HELP = (
    "Leave out the timing fields (seconds, games/s, ms per decision): the report of a seed is"
    " then the same bytes in every run, with any --workers."
)


@simulate_app.command("perils")
@handle_errors
def simulate_perils(
    n: Annotated[int, typer.Option("-n", "--games", help="Number of games.")] = 1000,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Master seed (printed if not given).")
    ] = None,
    hero: Annotated[
        str, typer.Option("--hero", help="Computer Hero: rulebased, planner or random.")
    ] = "rulebased",
    teller: Annotated[str, typer.Option("--teller", help="Computer Teller.")] = "teller",
    archetype: Annotated[
        str | None,
        typer.Option(
            "--archetype",
            help="An archetype id for every game, or 'each' to play the theme's archetypes in"
            " turn (so each one is measured). Default: the Hero chooses.",
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="A rule option key=value (repeatable). Default here: teller_policy=approve_all.",
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", help="Processes to use (same results as 1).")
    ] = 1,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as JSON (no progress bar).")
    ] = False,
    no_timing: Annotated[bool, typer.Option("--no-timing", help=NO_TIMING_HELP)] = False,
) -> None:
    """The Hero's win rate with 95% Wilson intervals, overall and by archetype."""
    check_counts(n, workers)
    rules = get_game("perils")
    options = build_options(rules, option_pairs(rules, option or [], PERILS_SIM_DEFAULTS))
    vary = None
    if archetype == "each":
        ids = [a.id for a in rules.theme(options).archetypes]  # type: ignore[attr-defined]

        def vary(i: int) -> dict[str, Any]:
            return {"archetype": ids[i % len(ids)]}

    elif archetype is not None:
        options = build_options(rules, {**options_to_json(options), "archetype": archetype})
    master = pick_seed(seed)
    with progress_bar(not as_json, "Perils & Pathways") as progress:
        results = run_many(
            "perils", [hero, teller], n, master, options, 2, workers=workers, progress=progress,
            vary=vary,
        )
    report = perils_report(results, seed=master, options=options_to_json(options))
    emit_report(without_timing(report) if no_timing else report, as_json, perils_tables)


@simulate_app.command("adventure")
@handle_errors
def simulate_adventure(
    n: Annotated[int, typer.Option("-n", "--games", help="Number of games.")] = 1000,
    players: Annotated[int, typer.Option("--players", help="Players per game, 2-5.")] = 4,
    bots: Annotated[
        str, typer.Option("--bots", help="One computer player per seat, comma separated.")
    ] = "memory,memory,forgetful,random",
    seed: Annotated[
        int | None, typer.Option("--seed", help="Master seed (printed if not given).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A rule option key=value (repeatable)."),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", help="Processes to use (same results as 1).")
    ] = 1,
    rotate: Annotated[
        bool,
        typer.Option(
            "--rotate/--no-rotate",
            help="Shift the players one seat each game, so each sits everywhere equally.",
        ),
    ] = True,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as JSON (no progress bar).")
    ] = False,
    no_timing: Annotated[bool, typer.Option("--no-timing", help=NO_TIMING_HELP)] = False,
) -> None:
    """Win shares by seat and by computer player, game length and the first-player edge."""
    check_counts(n, workers)
    rules = get_game("adventure")
    specs: Sequence[str] = split_list(bots)
    if len(specs) == 1:
        specs = list(specs) * players
    if len(specs) != players:
        raise fail(
            f"--bots names {len(specs)} players for --players {players}: give one per "
            "seat, or one for all"
        )
    options = build_options(rules, option_pairs(rules, option or []))
    master = pick_seed(seed)
    with progress_bar(not as_json, "Adventure Cards") as progress:
        results = run_many(
            "adventure",
            specs,
            n,
            master,
            options,
            players,
            workers=workers,
            rotate=rotate,
            progress=progress,
        )
    report = adventure_report(
        results, seed=master, options=options_to_json(options), specs=specs, rotate=rotate
    )
    emit_report(without_timing(report) if no_timing else report, as_json, adventure_tables)
