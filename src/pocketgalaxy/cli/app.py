"""The `pocketgalaxy` command line (Typer + Rich).

Commands: `play perils|adventure`, `resume [NAME]`, `replay RECORD`, `rules GAME`, `players`,
`simulate perils|adventure`, `serve`, `tell CARD`. Each command group lives in its own module
under cli/; to add one (say `tournament`), write cli/tournament.py with a `register(app)`
function and add its module name to `COMMAND_MODULES`.
"""

from __future__ import annotations

import importlib

import typer

from pocketgalaxy import __version__
from pocketgalaxy.cli.info_cmds import players_command, rules_command, serve_command
from pocketgalaxy.cli.play import play_app, resume
from pocketgalaxy.cli.replay_cmd import replay_command
from pocketgalaxy.cli.simulate_cmd import simulate_app

app = typer.Typer(
    name="pocketgalaxy",
    help="Pocket Galaxy: Perils & Pathways and Adventure Cards in your terminal.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

app.add_typer(play_app, name="play")
app.command("resume")(resume)
app.command("replay")(replay_command)
app.command("rules")(rules_command)
app.command("players")(players_command)
app.add_typer(simulate_app, name="simulate")
app.command("serve")(serve_command)

COMMAND_MODULES: tuple[str, ...] = (
    "pocketgalaxy.cli.tournament",  # tournament GAME: round-robin of computer players
    "pocketgalaxy.cli.db_cmd",  # db check, db backup
    "pocketgalaxy.cli.tell_cmd",  # tell CARD: the computer Teller's words for a real deck
    "pocketgalaxy.cli.balance_cmd",  # balance GAME: a designer's study of rule variants
    "pocketgalaxy.cli.print_cmd",  # print GAME: print-and-play PDFs
    "pocketgalaxy.cli.tutorial_cmd",  # tutorial GAME: a guided first game with a coach
    "pocketgalaxy.cli.companion_cmd",  # companion perils: the computer Teller for real cards
)
"""Command modules: each exposes `register(app)`. A missing one is an error, not a command that
quietly disappears from --help."""


def _register_commands() -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(app)


_register_commands()


def _version(value: bool) -> None:
    if value:
        typer.echo(f"pocketgalaxy {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Pocket Galaxy: Perils & Pathways and Adventure Cards in your terminal."""


def main() -> None:
    """Entry point of the `pocketgalaxy` console script and `python -m pocketgalaxy`."""
    app()
