"""`pocketgalaxy balance perils|adventure`: a designer's study of rule variants.

Flags describe the study (`--variant NAME:key=value,...`, repeatable), or `--study FILE.toml`
does (flags given beside it override the file's games and seed). The study plays every variant
on the same deals, prints the headline table and writes its folder (`--out`, default
./studies/<game>-<seed>): report.html, plots, games.csv/jsonl and summary.json. Ctrl-C stops it
and writes a partial report of the games already played.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from pocketgalaxy.cli.common import console, fail, handle_errors, pick_seed, progress_bar

if TYPE_CHECKING:  # the studies (NumPy, SciPy, statsmodels) load when a balance command runs
    from pocketgalaxy.sim.balance.search import Axis, Trial
    from pocketgalaxy.sim.balance.study import Study
    from pocketgalaxy.sim.balance.tune import Target

balance_app = typer.Typer(
    help="Compare rule variants on the same deals: win rates, paired tests, plots, a report.",
    no_args_is_help=True,
)

MAX_WORKERS = 64

VariantOpt = Annotated[
    list[str] | None,
    typer.Option("--variant", "-v", help="NAME:key=value,key=value (repeatable); 'NAME:' alone "
                 "is the defaults. The first variant is the baseline."),
]
StudyOpt = Annotated[Path | None, typer.Option("--study", help="A TOML study file.")]
GamesOpt = Annotated[int | None, typer.Option("-n", "--games", help="Games per variant (the "
                                              "cap with --precision). Default 1000.")]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Master seed (printed if not "
                                             "given).")]
WorkersOpt = Annotated[int, typer.Option("--workers", help="Processes (same results as 1).")]
BackendOpt = Annotated[str, typer.Option(
    "--backend", help="processes (this machine, --workers) or ray (a Ray cluster).")]
AddressOpt = Annotated[str | None, typer.Option(
    "--address", help="With --backend ray: the cluster's HOST:PORT (default: a private Ray "
    "on this machine).")]
OutOpt = Annotated[Path | None, typer.Option("--out", help="The study's folder.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print summary.json (no progress bar).")]
PrecisionOpt = Annotated[float | None, typer.Option(
    "--precision", help="Stop once every win-rate interval is at most this wide (e.g. 0.02 = 2 "
    "points), or at -n.")]
BandOpt = Annotated[str | None, typer.Option("--band", help="Ideal game length LOW-HIGH "
                                             "(Perils rounds, Adventure turns).")]
DetectOpt = Annotated[float, typer.Option("--detect", help="The win-rate difference 'games "
                                          "needed' is computed for.")]
TuneOpt = Annotated[list[str] | None, typer.Option(
    "--tune", help="KEY=V1|V2|V3 (repeatable): one variant per combination, ranked toward "
    "--target.")]
TargetOpt = Annotated[list[str] | None, typer.Option(
    "--target", help="What --tune aims at: win_rate=0.5 and/or length=LOW-HIGH.")]
LadderOpt = Annotated[bool, typer.Option(
    "--ladder", help="Also play the skill ladder (random, rule-based, search, a player who "
    "sees the cards) on the baseline's rules and deals: skill versus luck.")]
LadderGamesOpt = Annotated[int | None, typer.Option(
    "--ladder-games", help="Games per ladder rung (default: -n, at most 100,000).")]
SearchOpt = Annotated[str, typer.Option(
    "--search", help="How --tune searches: grid (every combination) or optuna (a seeded TPE "
    "sampler over ranges like start_health=2..6).")]
TrialsOpt = Annotated[int, typer.Option("--trials", help="With --search optuna: settings to "
                                        "try (1..500).")]
OptionOpt = Annotated[list[str] | None, typer.Option("--option", "-o", help="A base rule option "
                                                     "key=value for every variant.")]


def _band(text: str | None) -> list[int] | None:
    if text is None:
        return None
    low, dash, high = text.partition("-")
    try:
        return [int(low), int(high)] if dash else [int(low), int(low)]
    except ValueError:
        raise fail(f"--band {text!r}: expected LOW-HIGH, e.g. 6-9") from None


def _variant_flags(game: str, variant: list[str] | None, tune: list[str] | None,
                   target: list[str] | None, search: str = "grid"
                   ) -> tuple[list[str], Target | None]:
    """The --variant flags, plus one per --tune combination (after the baseline); with
    --search optuna the trials are asked for later (`_run`)."""
    from pocketgalaxy.sim.balance.search import SEARCHES
    from pocketgalaxy.sim.balance.tune import grid_variants, parse_target

    flags = list(variant or [])
    if search not in SEARCHES:
        raise fail(f"--search {search!r}: use {' or '.join(SEARCHES)}")
    if not tune:
        if target:
            raise fail("--target needs --tune: the option values to search")
        if search != "grid":
            raise fail("--search optuna needs --tune: the option ranges to search")
        return flags, None
    aim = parse_target(target or [])
    if not flags:
        flags = ["defaults:"]
    if search == "optuna":
        if len(flags) > 1:
            raise fail("--search optuna compares its trials with one baseline: give at most one "
                       "--variant (the trials' starting point)")
        return flags, aim
    for name, overrides in grid_variants(game, tune):
        flags.append(name + ":" + ",".join(f"{k}={v}" for k, v in overrides.items()))
    return flags, aim


def _optuna(game: str, search: str, tune: list[str] | None, trials: int
            ) -> tuple[list[Axis], int] | None:
    if search != "optuna" or not tune:
        return None
    from pocketgalaxy.sim.balance.search import parse_axes

    return parse_axes(game, tune), trials


def _run(study: Study, workers: int, out: Path | None, as_json: bool,
         target: Target | None = None, backend: str = "processes",
         address: str | None = None, ladder: int | None = None,
         optuna: tuple[list[Axis], int] | None = None) -> None:
    from pocketgalaxy.sim.balance.measures import measure, precise_enough
    from pocketgalaxy.sim.balance.report import write_report
    from pocketgalaxy.sim.balance.run import run_study
    from pocketgalaxy.sim.balance.search import tune_with_optuna
    from pocketgalaxy.sim.balance.tune import rank

    if not 1 <= workers <= MAX_WORKERS:
        raise fail(f"--workers {workers}: use 1..{MAX_WORKERS}")
    if backend not in ("processes", "ray"):
        raise fail(f"--backend {backend!r}: use processes or ray")
    if address is not None and backend != "ray":
        raise fail("--address is for --backend ray")
    label = "Perils & Pathways" if study.game == "perils" else "Adventure Cards"
    trials: list[Trial] = []
    if optuna is not None:
        assert target is not None
        if study.precision is not None:
            raise fail("--precision and --search optuna do not mix: give -n games per trial")
        with progress_bar(not as_json, f"{label}: {optuna[1]} Optuna trials") as progress:
            run, trials = tune_with_optuna(study, optuna[0], target, optuna[1],
                                           workers=workers, backend=backend, address=address,
                                           progress=progress)
    else:
        with progress_bar(not as_json, f"{label}: {len(study.variants)} variants") as progress:
            run = run_study(study, workers=workers, progress=progress,
                            precise_enough=precise_enough if study.precision else None,
                            backend=backend, address=address)
    if not any(run.games.values()):
        raise fail("the study was stopped before any game finished: nothing to report")
    summary = measure(run)
    if target is not None:
        summary["tuning"] = {"target": target.to_json(), "ranking": rank(summary, target)}
        if optuna is not None:
            summary["tuning"]["search"] = {
                "method": "optuna TPESampler", "seed": study.seed, "trials": len(trials),
                "distinct": sum(1 for t in trials if t.repeat_of is None),
                "history": [t.to_json() for t in trials]}
    folder = out or Path("studies") / f"{study.game}-{study.seed}"
    if ladder is not None:
        summary["ladder"] = _ladder(study, ladder, workers, as_json, folder)
    report = write_report(run, summary, folder)
    if as_json:
        typer.echo(json.dumps(summary, indent=1))
        return
    console().print(_headline(summary))
    if target is not None:
        best = summary["tuning"]["ranking"][0]
        console().print(f"Closest to the target: [bold]{best['variant']}[/] "
                        f"{best['options'] or '(defaults)'}, distance {best['distance']:.3f}")
    if "ladder" in summary:
        console().print(_ladder_table(summary["ladder"]))
    if run.stopped == "interrupted":
        console().print("[yellow]Stopped by Ctrl-C: the report covers the games played.[/]")
    console().print(f"Report: {report}")


def _ladder(study: Study, games: int, workers: int, as_json: bool, folder: Path
            ) -> dict[str, Any]:
    """The skill ladder on the baseline's options and the study's deals (local processes);
    its games go to FOLDER/ladder.csv."""
    from pocketgalaxy.sim.balance.ladder import (
        ladder_jobs,
        ladder_measures,
        run_ladder,
        write_ladder_rows,
    )

    base = study.baseline
    teller = (base.players or study.players)[1] if study.game == "perils" else "teller"
    jobs = ladder_jobs(study.game, base.options, study.seed, games, teller=teller)
    with progress_bar(not as_json, "Skill ladder: 4 rungs") as progress:
        results = run_ladder(jobs, workers=workers, progress=progress)
    if not results:
        raise fail("the ladder was stopped before any game finished: nothing to report")
    write_ladder_rows(results, study.game, folder)
    return ladder_measures(study.game, results, study.seed)


def _ladder_table(ladder: dict[str, Any]) -> Table:
    table = Table(title=f"Skill ladder, {ladder['games']:,} games a rung on the same deals "
                  "(95% intervals)")
    for col in ("rung", "player", "wins", "interval", "skill share"):
        table.add_column(col)
    for r in ladder["rungs"]:
        share = ladder["skill_share"].get(r["rung"])
        w = r["win_rate"]
        table.add_row(r["rung"], r["player"], _pct(w["rate"]),
                      f"{_pct(w['ci_low'])}–{_pct(w['ci_high'])}",
                      "" if share is None or share["value"] is None else
                      f"{share['value']:.2f} ({share['ci_low']:.2f}–{share['ci_high']:.2f})")
    spread = ladder["spread"]
    if spread is not None:
        table.caption = (f"spread oracle − random {_pct(spread['diff'])} "
                         f"({_pct(spread['ci_low'])}–{_pct(spread['ci_high'])})")
    return table


def _pct(x: Any) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _headline(summary: dict[str, Any]) -> Table:
    game = summary["study"]["game"]
    table = Table(title="Balance study (95% intervals, same deals for every variant)")
    for col in ("variant", "games", "Hero wins" if game == "perils" else "first player wins",
                "interval", "vs baseline", "p (Holm)", "mean length"):
        table.add_column(col)
    diffs = {c["variant"]: c for c in summary["comparisons"]}
    for name, m in summary["variants"].items():
        w = m["win_rate"]
        c = diffs.get(name)
        vs = "baseline" if c is None else f"{100 * (c['win_rate']['diff'] or 0):+.1f} pts"
        p = "" if c is None else f"{c['win_rate'].get('p_holm', 1):.3g}"
        table.add_row(name, f"{m['games']:,}", _pct(w["rate"]),
                      f"{_pct(w['ci_low'])}–{_pct(w['ci_high'])}", vs, p,
                      f"{m['length']['mean'] or 0:.2f}")
    return table


@balance_app.command("perils")
@handle_errors
def balance_perils(
    variant: VariantOpt = None, study_file: StudyOpt = None, n: GamesOpt = None,
    seed: SeedOpt = None, workers: WorkersOpt = 1, out: OutOpt = None, as_json: JsonOpt = False,
    precision: PrecisionOpt = None, band: BandOpt = None, detect: DetectOpt = 0.02,
    option: OptionOpt = None, tune: TuneOpt = None, target: TargetOpt = None,
    backend: BackendOpt = "processes", address: AddressOpt = None,
    ladder: LadderOpt = False, ladder_games: LadderGamesOpt = None,
    search: SearchOpt = "grid", trials: TrialsOpt = 30,
    hero: Annotated[str, typer.Option("--hero", help="Computer Hero.")] = "rulebased",
    teller: Annotated[str, typer.Option("--teller", help="Computer Teller.")] = "teller",
) -> None:
    """Perils & Pathways: the Hero's win rate, survival by round, causes of loss, per variant."""
    from pocketgalaxy.sim.balance.study import load_study_file, study_from_flags

    flags, aim = _variant_flags("perils", variant, tune, target, search)
    if study_file is not None:
        study = load_study_file(study_file, game="perils", games=n, seed=seed)
    else:
        study = study_from_flags(
            "perils", flags, players=[hero, teller], games=n or 1000,
            seed=pick_seed(seed), precision=precision, length_band=_band(band), detect=detect,
            base_pairs=option or [])
    _run(study, workers, out, as_json, aim, backend, address,
         (ladder_games or study.games) if ladder or ladder_games else None,
         _optuna(study.game, search, tune, trials))


@balance_app.command("adventure")
@handle_errors
def balance_adventure(
    variant: VariantOpt = None, study_file: StudyOpt = None, n: GamesOpt = None,
    seed: SeedOpt = None, workers: WorkersOpt = 1, out: OutOpt = None, as_json: JsonOpt = False,
    precision: PrecisionOpt = None, band: BandOpt = None, detect: DetectOpt = 0.02,
    option: OptionOpt = None, tune: TuneOpt = None, target: TargetOpt = None,
    backend: BackendOpt = "processes", address: AddressOpt = None,
    ladder: LadderOpt = False, ladder_games: LadderGamesOpt = None,
    search: SearchOpt = "grid", trials: TrialsOpt = 30,
    players: Annotated[str, typer.Option("--players", help="One computer player per seat, "
                                         "comma separated.")] = "memory,memory,forgetful,random",
) -> None:
    """Adventure Cards: seat and player win shares, first-player edge, balance, lead changes."""
    from pocketgalaxy.sim.balance.study import load_study_file, study_from_flags

    flags, aim = _variant_flags("adventure", variant, tune, target, search)
    if study_file is not None:
        study = load_study_file(study_file, game="adventure", games=n, seed=seed)
    else:
        specs = [p.strip() for p in players.split(",") if p.strip()]
        study = study_from_flags(
            "adventure", flags, players=specs, games=n or 1000, seed=pick_seed(seed),
            precision=precision, length_band=_band(band), detect=detect,
            base_pairs=option or [])
    _run(study, workers, out, as_json, aim, backend, address,
         (ladder_games or study.games) if ladder or ladder_games else None,
         _optuna(study.game, search, tune, trials))


def register(app: typer.Typer) -> None:
    app.add_typer(balance_app, name="balance")
