"""`pocketgalaxy rules GAME` (every option as a table) and `pocketgalaxy serve`."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table

from pocketgalaxy.cli.common import console, handle_errors
from pocketgalaxy.core.options import describe_options
from pocketgalaxy.registry import get_game


def _allowed(info: Any) -> str:
    if info.choices:
        return ", ".join(repr(c) if isinstance(c, str) else str(c) for c in info.choices)
    return str(info.type_name)


def rules_command(
    game: Annotated[str, typer.Argument(help="perils or adventure")],
) -> None:
    """Print every rule option of a game: name, default, allowed values, rule and meaning."""
    _rules(game)


@handle_errors
def _rules(game: str) -> None:
    rules = get_game(game)
    out = console()
    title = f"{rules.title}: rule options (set with --option key=value)"
    infos = describe_options(rules.options_type)
    if out.width < 110:
        # Too narrow for five columns: one short block per option, the meaning wrapped below.
        out.print(f"[bold]{escape(title)}[/]")
        for info in infos:
            out.print(
                f"\n[bold]{info.name}[/]  default {escape(repr(info.default))}"
                f"  ·  {escape(_allowed(info))}  ·  {info.rule}"
            )
            out.print(Padding(escape(info.doc), (0, 0, 0, 2)))
        return
    table = Table(title=title, expand=True)
    # Names and rule ids stay whole (they are typed back as --option key=value); the
    # description column takes what width is left and wraps.
    table.add_column("option", style="bold", no_wrap=True)
    table.add_column("default", overflow="fold", max_width=14)
    table.add_column("allowed", overflow="fold", max_width=22)
    table.add_column("rule", no_wrap=True)
    table.add_column("what it does", ratio=1, min_width=20)
    for info in infos:
        table.add_row(info.name, repr(info.default), _allowed(info), info.rule, info.doc)
    out.print(table)


def serve_command(
    host: Annotated[
        str, typer.Option("--host", envvar="POCKETGALAXY_HOST", help="Address to listen on.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", envvar="POCKETGALAXY_PORT", help="Port.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url", envvar="POCKETGALAXY_DATABASE_URL", help="SQLAlchemy database URL."
        ),
    ] = None,
    data_dir: Annotated[
        str | None,
        typer.Option(
            "--data-dir", envvar="POCKETGALAXY_DATA_DIR", help="Folder for the web table's data."
        ),
    ] = None,
    allow_empty: Annotated[
        bool,
        typer.Option(
            "--allow-empty",
            help="Start even if the data folder says games existed and the database has none.",
        ),
    ] = False,
) -> None:
    """Serve the web table (FastAPI) on HOST:PORT."""
    from pocketgalaxy.web.server import run  # lazily: the terminal does not need the web stack

    run(host=host, port=port, database_url=database_url, data_dir=data_dir,
        allow_empty=allow_empty)
