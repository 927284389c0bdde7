"""`pocketgalaxy db check` and `pocketgalaxy db backup PATH`: the web table's database.

`check` opens the database the server would use (same flags and POCKETGALAXY_* variables), brings
its schema up to date as the server would, checks every game afresh (web/integrity.py) without
changing any game, compares the game count with the data folder's marker, and prints each game's
state: ok, over, abandoned, or damaged with the reason. Exit 0 when all is sound, 1 when a game is
damaged or the database has fewer games than the marker remembers, 2 when the database cannot
be opened.

`backup` copies a SQLite database consistently while the server runs (web/backup.py), then checks
the copy the same way. For PostgreSQL it prints how to use pg_dump and exits 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from pocketgalaxy.cli.common import console, fail, handle_errors
from pocketgalaxy.registry import get_game

if TYPE_CHECKING:  # the web package (FastAPI, SQLAlchemy) loads when a db command runs
    from pocketgalaxy.web.integrity import Verdict
    from pocketgalaxy.web.settings import Settings
    from pocketgalaxy.web.store import Store

db_app = typer.Typer(
    help="The web table's database: check every game, or make a backup while it runs.",
    no_args_is_help=True,
)

EXIT_DAMAGED = 1
EXIT_UNUSABLE = 2

_URL = typer.Option(
    "--database-url", envvar="POCKETGALAXY_DATABASE_URL",
    help="SQLAlchemy URL of the database (default: SQLite in the data folder).",
)
_DIR = typer.Option(
    "--data-dir", envvar="POCKETGALAXY_DATA_DIR", help="The web table's data folder."
)


def _settings(database_url: str | None, data_dir: str | None) -> Settings:
    from pocketgalaxy.web.settings import Settings

    return Settings.from_env(
        {}, database_url=database_url, data_dir=Path(data_dir) if data_dir else None
    )


def _open(url: str) -> Store:
    """The store, never creating a SQLite file that is not there."""
    from pocketgalaxy.web.store import Store, StoreOpenError, sqlite_path

    file = sqlite_path(url)
    if file is not None and not file.is_file():
        raise fail(f"there is no database file at {file}", EXIT_UNUSABLE)
    try:
        return Store(url)
    except StoreOpenError as exc:
        raise fail(str(exc), EXIT_UNUSABLE) from None


def check_report(store: Store, data_dir: Path | None) -> dict[str, Any]:
    """Every game's verdict, the counts by state and what the marker remembers."""
    from pocketgalaxy.web import marker
    from pocketgalaxy.web.integrity import check_all
    from pocketgalaxy.web.store import safe_url

    verdicts = check_all(store, get_game)
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[v.state] = counts.get(v.state, 0) + 1
    problems = [f"game {v.game_id} is damaged: {v.damage}" for v in verdicts if v.damage]
    expected = marker.read(marker.marker_path(data_dir)) if data_dir is not None else None
    if expected is not None and len(verdicts) < expected.games:
        problems.append(
            f"the database holds {len(verdicts)} game(s) but the data folder's marker "
            f"{expected.path} remembers {expected.games} (written {expected.written_at})"
        )
    return {
        "database": safe_url(store.url),
        "games": [v.to_json() for v in verdicts],
        "counts": dict(sorted(counts.items())),
        "marker_games": expected.games if expected is not None else None,
        "problems": problems,
        "ok": not problems,
    }


def _table(report: dict[str, Any]) -> Table:
    table = Table(title=f"games in {report['database']}", expand=True)
    table.add_column("game id", no_wrap=True)
    table.add_column("game", no_wrap=True)
    table.add_column("state", no_wrap=True)
    table.add_column("actions", justify="right")
    table.add_column("created", no_wrap=True)
    styles = {"damaged": "bold red", "ok": "green"}
    for g in report["games"]:
        state = g["state"]
        table.add_row(
            g["game_id"], g["game"], f"[{styles.get(state, 'default')}]{state}[/]",
            str(g["actions"]), g["created_at"][:19],
        )
    return table  # what is wrong with a damaged game follows the table, in full


def _summary(report: dict[str, Any]) -> str:
    counts = ", ".join(f"{n} {state}" for state, n in report["counts"].items()) or "none"
    return f"{len(report['games'])} game(s): {counts}"


@db_app.command("check")
@handle_errors
def check_command(
    database_url: Annotated[str | None, _URL] = None,
    data_dir: Annotated[str | None, _DIR] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Check every stored game: ok, over, abandoned, or damaged (exit 1 if any is damaged)."""
    settings = _settings(database_url, data_dir)
    store = _open(settings.resolved_database_url)
    try:
        report = check_report(store, Path(settings.data_dir))
    finally:
        store.dispose()
    if as_json:
        import json

        typer.echo(json.dumps(report, indent=1))
    else:
        out = console()
        if report["games"]:
            out.print(_table(report))
        out.print(_summary(report))
        for problem in report["problems"]:
            console(stderr=True).print(f"[bold red]damaged:[/] {escape(problem)}", soft_wrap=True)
    if not report["ok"]:
        raise typer.Exit(EXIT_DAMAGED)


@db_app.command("backup")
@handle_errors
def backup_command(
    path: Annotated[Path, typer.Argument(help="The file to write the copy to.")],
    database_url: Annotated[str | None, _URL] = None,
    data_dir: Annotated[str | None, _DIR] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace PATH if it exists.")] = False,
) -> None:
    """Copy the database consistently while the server runs (SQLite), then check the copy."""
    from pocketgalaxy.web.backup import BackupError, backup_sqlite, pg_dump_hint
    from pocketgalaxy.web.integrity import check_all
    from pocketgalaxy.web.store import safe_url, sqlite_path

    settings = _settings(database_url, data_dir)
    url = settings.resolved_database_url
    file = sqlite_path(url)
    if file is None:
        if url.startswith("postgresql"):
            console(stderr=True).print(escape(pg_dump_hint(url, str(path))), soft_wrap=True)
            raise typer.Exit(EXIT_UNUSABLE)
        raise fail(f"only SQLite databases are copied by this command, not {safe_url(url)}")
    try:
        backup_sqlite(file, path, overwrite=force)
    except BackupError as exc:
        raise fail(str(exc), EXIT_UNUSABLE) from None
    copy = _open(f"sqlite:///{path.resolve().as_posix()}")
    try:
        verdicts: list[Verdict] = check_all(copy, get_game)
    finally:
        copy.dispose()
    damaged = [v for v in verdicts if v.damage]
    actions = sum(v.actions for v in verdicts)
    console().print(
        f"Backed up {len(verdicts)} game(s) with {actions} action(s) from {escape(str(file))} "
        f"to {escape(str(path))}; "
        + (f"[bold red]{len(damaged)} damaged[/] (see `pocketgalaxy db check`)" if damaged
           else "every game checks out.")
    )
    if damaged:
        raise typer.Exit(EXIT_DAMAGED)


def register(app: typer.Typer) -> None:
    """Add `db check` and `db backup` to the main command line."""
    app.add_typer(db_app, name="db")
