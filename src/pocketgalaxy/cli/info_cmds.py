"""`pocketgalaxy rules GAME` (how to play; `--options` every option as a table; `--json`),
`pocketgalaxy players [GAME]` (the computer players by level, with their measured strength;
`--json`) and `pocketgalaxy serve`."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.markup import escape
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.table import Table

from pocketgalaxy.cli.cards import PACK_STYLE, SUIT_STYLE
from pocketgalaxy.cli.common import console, handle_errors
from pocketgalaxy.core.options import OptionInfo, describe_options
from pocketgalaxy.guides import CardPicture, card_pictures, load_guide
from pocketgalaxy.registry import get_game


def _picture_style(pic: CardPicture) -> Style:
    if pic.kind == "adventure":
        return Style.parse(PACK_STYLE[pic.code[0]])
    if pic.kind == "back":
        return Style.parse("blue")
    suit = pic.code[-1]
    return Style.parse(SUIT_STYLE[suit] if suit in SUIT_STYLE else "bold magenta")


class CardColours:
    """A renderable wrapper: the card pictures in its text (`[8♦]`, `[P5]`, `[▒▒▒]`) take the
    colours the game screens give those cards (cli/cards.py). Only styles change, never the
    text, so the layout is the wrapped renderable's own."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for seg in console.render(self.renderable, options):
            pictures = [] if seg.control or "[" not in seg.text else card_pictures(seg.text)
            if not pictures:
                yield seg
                continue
            pos = 0
            for pic in pictures:
                if pic.start > pos:
                    yield Segment(seg.text[pos : pic.start], seg.style)
                style = (seg.style or Style()) + _picture_style(pic)
                yield Segment(seg.text[pic.start : pic.end], style)
                pos = pic.end
            if pos < len(seg.text):
                yield Segment(seg.text[pos:], seg.style)


def _allowed(info: Any) -> str:
    if info.choices:
        return ", ".join(repr(c) if isinstance(c, str) else str(c) for c in info.choices)
    return str(info.type_name)


def rules_command(
    game: Annotated[str, typer.Argument(help="perils or adventure")],
    options: Annotated[
        bool, typer.Option("--options", help="Print every rule option instead of the guide.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="The guide's sections and the options as JSON.")
    ] = False,
) -> None:
    """How to play a game; --options lists every rule option (name, default, values, rule)."""
    if as_json:
        _rules_json(game)
    elif options:
        _rules(game)
    else:
        _guide(game)


@handle_errors
def _guide(game: str) -> None:
    from rich.markdown import Markdown  # here: Markdown and its parser load only for a guide

    get_game(game)  # an unknown game is refused with the list of games, like every command
    guide = CardColours(Markdown(load_guide(game).markdown, hyperlinks=False))
    out = console()
    if not out.is_terminal:
        out.print(guide)  # a pipe or a file gets the plain text
        return
    colours, extra_env = pager_colours(os.environ)
    with _environ(extra_env), out.pager(styles=colours):
        out.print(guide)


def pager_colours(env: Mapping[str, str]) -> tuple[bool, dict[str, str]]:
    """(send colours to the pager?, variables to set while it runs).

    The pager is the one Python's pydoc picks: `$MANPAGER` or `$PAGER`, else `less`. Plain
    `less` shows colour codes as junk unless told `-R`, so without a `$LESS` of their own
    people get `LESS=-R`; a pager of their own choosing gets colours only when it is `less`
    with `-R` or `-r`, and plain text otherwise.
    """
    pager = env.get("MANPAGER") or env.get("PAGER")
    if pager:
        return bool(re.search(r"\bless\b.*\s-[a-zA-Z]*[rR]", pager)), {}
    less = env.get("LESS")
    if less is None:
        return True, {"LESS": "-R"}
    return bool(re.search(r"[rR]", less)), {}


@contextmanager
def _environ(extra: Mapping[str, str]) -> Iterator[None]:
    saved = {key: os.environ.get(key) for key in extra}
    os.environ.update(extra)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _option_json(info: OptionInfo) -> dict[str, Any]:
    return {
        "name": info.name,
        "default": info.default,
        "choices": list(info.choices) if info.choices else None,
        "type": info.type_name,
        "rule": info.rule,
        "doc": info.doc,
    }


@handle_errors
def _rules_json(game: str) -> None:
    rules = get_game(game)
    data = load_guide(game).to_json()
    data["options"] = [_option_json(info) for info in describe_options(rules.options_type)]
    typer.echo(json.dumps(data, indent=1, ensure_ascii=False))


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


# -- pocketgalaxy players [GAME] ------------------------------------------------------------------

_GAMES_SHOWN = ("adventure", "perils")
_ROLE_TITLES = {"player": "computer players (any seat)", "hero": "computer Heroes (seat 1)",
                "teller": "computer Tellers (seat 2)"}


def players_command(
    game: Annotated[
        str | None, typer.Argument(help="perils or adventure (both if omitted)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="The catalogue as JSON.")] = False,
) -> None:
    """The computer players you can choose: level, how each plays, and its measured strength."""
    _players(game, as_json)


@handle_errors
def _players(game: str | None, as_json: bool) -> None:
    from pocketgalaxy.agents import catalogue  # lazily: only this command reads the data file

    games = [game] if game is not None else list(_GAMES_SHOWN)
    for name in games:
        catalogue.roles(name)  # an unknown game is refused with the list of games
    if as_json:
        data = [catalogue.catalogue_json(name) for name in games]
        typer.echo(json.dumps(data[0] if game is not None else data, indent=1,
                              ensure_ascii=False))
        return
    out = console()
    for name in games:
        title = get_game(name).title
        for role in catalogue.roles(name):
            table = Table(title=f"{title}: {_ROLE_TITLES[role]}", expand=True,
                          title_justify="left")
            # The spec is typed back (--hero, --bots, the web API): it never wraps.
            table.add_column("choose with", style="bold", no_wrap=True)
            table.add_column("level", no_wrap=True)
            table.add_column("how it plays; measured strength", ratio=1, min_width=24)
            for entry in catalogue.entries(name, role):
                level = f"{entry.level} (bot)" if entry.default else entry.level
                table.add_row(escape(entry.spec), escape(level),
                              f"{escape(entry.description)}\n"
                              f"[dim]{escape(entry.strength.describe())}[/]")
            out.print(table)
        out.print(f"[dim]{escape(_measured_note())}[/]\n")


def _measured_note() -> str:
    from pocketgalaxy.agents.catalogue import strength_data

    data = strength_data()
    return (f"bot means the level marked (bot). Measured {data.get('date')} with "
            f"`{data.get('command')}`; 95% intervals.")
