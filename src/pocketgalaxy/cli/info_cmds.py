"""`pocketgalaxy rules GAME` (every option as a table) and `pocketgalaxy serve`."""

from __future__ import annotations

from typing import Annotated, Any

import typer
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
    table = Table(
        title=f"{rules.title}: rule options (set with --option key=value)",
        expand=True,
    )
    # Ratios let the table fit any width: long option names fold, the meaning wraps.
    table.add_column("option", style="bold", overflow="fold", ratio=3)
    table.add_column("default", overflow="fold", ratio=2)
    table.add_column("allowed", overflow="fold", ratio=3)
    table.add_column("rule", overflow="fold", ratio=1)
    table.add_column("what it does", ratio=6)
    for info in describe_options(rules.options_type):
        table.add_row(info.name, repr(info.default), _allowed(info), info.rule, info.doc)
    console().print(table)


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
) -> None:
    """Serve the web table (FastAPI) on HOST:PORT."""
    from pocketgalaxy.web.server import run  # lazily: the terminal does not need the web stack

    run(host=host, port=port, database_url=database_url, data_dir=data_dir)
