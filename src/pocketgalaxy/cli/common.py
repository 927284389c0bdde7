"""Helpers shared by every command: consoles, `--option key=value`, seeds, and the one place
where typed errors become a single line on stderr and exit code 2."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from pocketgalaxy.core.errors import OptionsError, PocketGalaxyError
from pocketgalaxy.core.game import GameRules
from pocketgalaxy.core.options import options_from_json, parse_option_value
from pocketgalaxy.core.rng import new_seed
from pocketgalaxy.sim.runner import ProgressFn

F = TypeVar("F", bound=Callable[..., Any])

EXIT_USAGE = 2
"""Exit code for bad input: a broken record or save, a bad option, an unknown player."""


def console(*, stderr: bool = False) -> Console:
    """A console bound to the current stdout/stderr (made per command, so test runners that
    swap the streams see the output)."""
    return Console(stderr=stderr, highlight=False)


def fail(message: str, code: int = EXIT_USAGE) -> typer.Exit:
    """Print one clear line to stderr and return the Exit to raise."""
    console(stderr=True).print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


def error_line(exc: PocketGalaxyError) -> str:
    """One line for a typed error: its message and, when short, what is allowed."""
    text = exc.message
    if exc.allowed and len(exc.allowed) <= 12:
        text += f" (allowed: {', '.join(exc.allowed)})"
    return text


def handle_errors(fn: F) -> F:
    """Translate typed errors from a command into one line on stderr and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PocketGalaxyError as exc:
            raise fail(error_line(exc)) from None

    return wrapper  # type: ignore[return-value]


def option_pairs(
    rules: GameRules[Any, Any], pairs: Sequence[str], base: dict[str, Any] | None = None
) -> dict[str, Any]:
    """`["key=value", ...]` from the command line into an options dict (checked, not built).

    >>> # option_pairs(get_game("perils"), ["pathways_per_round=3"]) == {"pathways_per_round": 3}
    """
    data = dict(base or {})
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise OptionsError(f"bad --option {pair!r}: expected key=value")
        key = key.strip()
        data[key] = parse_option_value(rules.options_type, key, value)
    return data


def build_options(rules: GameRules[Any, Any], data: dict[str, Any]) -> Any:
    """The game's options object from a dict; a bad key or value raises OptionsError."""
    return options_from_json(rules.options_type, data)


def pick_seed(seed: int | None, out: Console | None = None) -> int:
    """The given seed, or a fresh one that is printed so the deal can be played again."""
    if seed is not None:
        return seed
    chosen = new_seed()
    (out or console(stderr=True)).print(
        f"[dim]seed {chosen} (use --seed {chosen} to get this deal again)[/]"
    )
    return chosen


def split_list(text: str | None) -> list[str]:
    """`"memory, forgetful,random"` -> ["memory", "forgetful", "random"]."""
    if not text:
        return []
    return [p.strip() for p in text.split(",") if p.strip()]


def parse_seats(text: str | None, players: int, flag: str) -> list[int]:
    """A comma-separated list of seat numbers, each within 0..players-1."""
    seats: list[int] = []
    for part in split_list(text):
        try:
            seat = int(part)
        except ValueError:
            raise PocketGalaxyError(
                f"{flag}: {part!r} is not a seat number",
                code="cli/bad_seat",
                allowed=[str(s) for s in range(players)],
            ) from None
        if not 0 <= seat < players:
            raise PocketGalaxyError(
                f"{flag}: seat {seat} does not exist with {players} players",
                code="cli/bad_seat",
                allowed=[str(s) for s in range(players)],
            )
        if seat not in seats:
            seats.append(seat)
    return seats


def help_table(title: str, rows: Sequence[tuple[str, str]]) -> Table:
    """The `?` help as a two-column grid, so Rich wraps each answer within its own column."""
    grid = Table.grid(padding=(0, 2))
    grid.title = title
    grid.title_justify = "left"
    grid.title_style = "bold"
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    for key, text in rows:
        grid.add_row(key, text)
    return grid


@contextmanager
def progress_bar(enabled: bool, label: str) -> Iterator[ProgressFn | None]:
    """A Rich progress bar on stderr for long runs (None when off, e.g. with --json)."""
    if not enabled:
        yield None
        return
    bar = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console(stderr=True),
        transient=True,
    )
    task = bar.add_task(label, total=None)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        yield update


def emit_report(report: dict[str, Any], as_json: bool, tables: Callable[[Any], Any]) -> None:
    """Print a report as JSON (for machines) or as Rich tables (for people)."""
    if as_json:
        typer.echo(json.dumps(report, indent=1))
    else:
        console().print(tables(report))


def check_counts(n: int, workers: int) -> None:
    """Refuse a run of no games or no worker processes, with one clear line."""
    if n < 1:
        raise fail(f"-n {n}: play at least one game")
    if workers < 1:
        raise fail(f"--workers {workers}: use at least one worker")
