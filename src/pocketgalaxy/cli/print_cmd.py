"""`pocketgalaxy print GAME`: print-and-play PDFs (the work is done by pocketgalaxy.printing).

`pocketgalaxy print perils --theme cosmic -o playsheet.pdf` writes a theme's playsheet and a
one-page rules summary; `pocketgalaxy print adventure -o cards.pdf --paper letter` writes the 48
cards, fronts and backs, for cutting. Bad input (unknown game, theme, paper, an unwritable
path) is one line on stderr, exit code 2, and no file is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pocketgalaxy.cli.common import console, fail, handle_errors

GAMES = ("perils", "adventure")
PAPER_NAMES = ("a4", "letter")
DEFAULT_OUT = {"perils": "playsheet-{theme}.pdf", "adventure": "adventure-cards.pdf"}


def print_command(
    game: Annotated[str, typer.Argument(metavar="GAME", help="perils or adventure")],
    out: Annotated[Path | None, typer.Option(
        "-o", "--output", help="the PDF to write (default playsheet-THEME.pdf or "
        "adventure-cards.pdf)")] = None,
    theme: Annotated[str | None, typer.Option(
        "--theme", help="perils only: cosmic, dungeon or a .toml file")] = None,
    paper: Annotated[str, typer.Option("--paper", help="a4 or letter")] = "a4",
) -> None:
    """Write a print-and-play PDF: a Perils playsheet, or the Adventure Cards to cut out."""
    _print(game, out, theme, paper)


@handle_errors
def _print(game: str, out: Path | None, theme: str | None, paper: str) -> None:
    if game not in GAMES:
        raise fail(f"unknown game {game!r}; allowed: {', '.join(GAMES)}")
    if paper.strip().lower() not in PAPER_NAMES:
        raise fail(f"unknown paper {paper!r}; allowed: {', '.join(PAPER_NAMES)}")
    if game == "adventure" and theme is not None:
        raise fail("--theme is for perils only; allowed for adventure: -o and --paper")
    # Imported here: ReportLab is needed only by this command.
    from pocketgalaxy.printing import print_adventure, print_perils

    if game == "perils":
        chosen = theme or "cosmic"
        name = Path(chosen).stem if chosen.endswith(".toml") else chosen
        target = out or Path(DEFAULT_OUT["perils"].format(theme=name))
        written = print_perils(chosen, target, paper=paper)
    else:
        written = print_adventure(out or Path(DEFAULT_OUT["adventure"]), paper=paper)
    console().print(f"wrote {written} ({paper.strip().lower()})", soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add `print` to the `pocketgalaxy` command line."""
    app.command("print")(print_command)
