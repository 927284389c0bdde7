"""`pocketgalaxy play perils|adventure` and `pocketgalaxy resume [NAME]`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pocketgalaxy.agents.catalogue import help_line, options_for, resolve_spec, unknown_message
from pocketgalaxy.agents.registry import agent_names, parse_spec
from pocketgalaxy.cli.adventure_screen import NAMES, AdventureScreen
from pocketgalaxy.cli.common import (
    build_options,
    console,
    fail,
    handle_errors,
    option_pairs,
    parse_seats,
    pick_seed,
)
from pocketgalaxy.cli.host import GameHost, InputFn, Screen, bot_agents, restore_session
from pocketgalaxy.cli.perils_screen import PerilsScreen
from pocketgalaxy.cli.saves import SavedGame, SaveStore, SeatInfo
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.registry import get_game
from pocketgalaxy.session import Session
from pocketgalaxy.sim.runner import derive_seed
from pocketgalaxy.sim.tournament import split_specs

play_app = typer.Typer(help="Play a game in the terminal.", no_args_is_help=True)

DEFAULT_ADVENTURE_BOTS = ("memory", "forgetful", "random")

# The players named in --help come from the catalogue (agents/catalogue.py), so they cannot
# drift from what the registry builds (tests/cli/test_cli_players.py holds them together).
HERO_HELP = f"human, or a computer Hero: {help_line('perils', 'hero')}."
TELLER_HELP = (f"human, or a computer Teller: {help_line('perils', 'teller')}; "
               "a style alone (fair, generous, harsh, adaptive) works too.")
BOTS_HELP = ("Computer players for the other seats in seat order, comma separated (one name "
             f"for all): {help_line('adventure', 'player')}. See `pocketgalaxy players`.")


# -- shared ------------------------------------------------------------------------------------


def _bot_seat(seat: int, name: str, spec: str, game_seed: int) -> SeatInfo:
    return SeatInfo(
        seat=seat, name=name, kind="bot", spec=spec, seed=derive_seed(game_seed, 1 + seat)
    )


def _has_person(seats: list[SeatInfo]) -> bool:
    """Only a game with a person in it is saved: nobody would resume a game of computers, and
    a bot-only game (a demonstration, a test) must leave no file behind (docs/cli.md)."""
    return any(not s.is_bot for s in seats)


def computer_spec(game: str, role: str, seat: int, players: int, spec: str) -> str:
    """A computer player named on the command line: `bot` becomes the role's default (so a
    save names the real player); a name the registry lacks is refused with the catalogue."""
    spec = resolve_spec(game, spec.strip(), seat)
    if game == "perils" and role == "teller" and spec in _STYLES:
        spec = f"teller:style={spec}"
    name, _ = parse_spec(spec)
    if name not in agent_names(game, seat, players):
        raise fail(unknown_message(game, role, spec))
    return spec


_STYLES = ("fair", "generous", "harsh", "adaptive")


def _screen_for(game: str, seed: int, settings: dict[str, Any]) -> Screen:
    if game == "perils":
        return PerilsScreen(seed=seed)
    return AdventureScreen(assist=bool(settings.get("assist")))


def run_game(host: GameHost, record: Path | None, out: Console) -> None:
    """Play to the end, then write the record (to --record, or if the person asks for one)."""
    code = host.play()
    if code != 0 or not host.session.is_over:
        raise typer.Exit(code)
    path = record
    if path is None and host.humans:
        try:
            answer = host.read_line("Write a record of this game? File name, or Enter to skip: ")
        except (EOFError, KeyboardInterrupt):
            answer = ""
        path = Path(answer.strip()) if answer.strip() else None
    if path is not None:
        try:
            host.write_record(path)
        except OSError as exc:
            raise fail(f"cannot write the record to {path}: {exc}") from exc
    out.print(
        f"[dim]Seed {host.session.seed}: play the same deal again with --seed "
        f"{host.session.seed}[/]"
    )


# -- Perils ------------------------------------------------------------------------------------


@play_app.command("perils")
@handle_errors
def play_perils(
    theme: Annotated[
        str | None,
        typer.Option("--theme", help="Playsheet: cosmic, dungeon, or a path to a theme TOML file."),
    ] = None,
    archetype: Annotated[
        str | None, typer.Option("--archetype", help="Archetype id (otherwise the Hero chooses).")
    ] = None,
    pathways: Annotated[
        int | None, typer.Option("--pathways", help="Pathways per round: 2 or 3.")
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the deal (printed if not given).")
    ] = None,
    hero: Annotated[
        str, typer.Option("--hero", help=HERO_HELP)
    ] = "human",
    teller: Annotated[
        str,
        typer.Option("--teller", help=TELLER_HELP),
    ] = "bot",
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="A rule option key=value (repeatable; see `pocketgalaxy rules perils`).",
        ),
    ] = None,
    record: Annotated[
        Path | None, typer.Option("--record", help="Write the game record here at the end.")
    ] = None,
    save_name: Annotated[
        str | None, typer.Option("--save-as", help="Name for saves of this game.")
    ] = None,
) -> None:
    """Perils & Pathways: you are the Hero, the computer is the Teller (by default)."""
    out = console()
    rules = get_game("perils")
    data = option_pairs(rules, option or [])
    if theme is not None:
        data["theme"] = theme
    if archetype is not None:
        data["archetype"] = archetype
    if pathways is not None:
        data["pathways_per_round"] = pathways
    hero_spec = hero if hero == "human" else computer_spec("perils", "hero", 0, 2, hero)
    teller_spec = teller if teller == "human" else computer_spec(
        "perils", "teller", 1, 2, teller)
    if teller == "human" and "teller_policy" not in data:
        data["teller_policy"] = "human"  # a person judges plans at the table (PP-A7)
    for key, value in options_for("perils", teller_spec).items():
        data.setdefault(key, value)  # a Teller style judges through the Teller seat
    options = build_options(rules, data)
    game_seed = pick_seed(seed, out)
    seats = [
        SeatInfo(0, "Hero") if hero == "human" else _bot_seat(0, "Hero", hero_spec, game_seed),
        SeatInfo(1, "Teller")
        if teller == "human"
        else _bot_seat(1, "Teller", teller_spec, game_seed),
    ]
    session = Session(
        rules, options, seed=game_seed, players=2, agents=bot_agents("perils", seats, 2)
    )
    host = GameHost(
        session,
        seats,
        PerilsScreen(seed=game_seed),
        out,
        input_fn=_input_fn(out),
        save_name=save_name,
        autosave=_has_person(seats),
    )
    if host.humans:
        out.print(
            f"[bold]Perils & Pathways[/] (seed {game_seed}). Type [bold]?[/] at any prompt "
            "for help."
        )
    run_game(host, record, out)


# -- Adventure ---------------------------------------------------------------------------------


@play_app.command("adventure")
@handle_errors
def play_adventure(
    players: Annotated[int, typer.Option("--players", help="Number of players, 2-5.")] = 4,
    seat: Annotated[int, typer.Option("--seat", help="Your seat (0 .. players-1).")] = 0,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help=BOTS_HELP,
        ),
    ] = None,
    humans: Annotated[
        str | None,
        typer.Option(
            "--humans", help="Seats played by people sharing this screen, e.g. 0,2 (hot seat)."
        ),
    ] = None,
    assist: Annotated[
        bool,
        typer.Option("--assist", help="Memory aid: keep the table faces you have seen on screen."),
    ] = False,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the deal (printed if not given).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="A rule option key=value (repeatable; see `pocketgalaxy rules adventure`).",
        ),
    ] = None,
    record: Annotated[
        Path | None, typer.Option("--record", help="Write the game record here at the end.")
    ] = None,
    save_name: Annotated[
        str | None, typer.Option("--save-as", help="Name for saves of this game.")
    ] = None,
) -> None:
    """Adventure Cards: you and computer players (or friends, hot seat) race for missions."""
    out = console()
    rules = get_game("adventure")
    if not rules.min_players <= players <= rules.max_players:
        raise fail(
            f"--players {players}: Adventure Cards is for "
            f"{rules.min_players}-{rules.max_players} players"
        )
    people = (
        parse_seats(humans, players, "--humans")
        if humans
        else parse_seats(str(seat), players, "--seat")
    )
    bot_seats = [s for s in range(players) if s not in people]
    specs = split_specs(bots) if bots else []
    if not specs:
        specs = [
            DEFAULT_ADVENTURE_BOTS[i % len(DEFAULT_ADVENTURE_BOTS)] for i in range(len(bot_seats))
        ]
    elif len(specs) == 1:
        specs = specs * len(bot_seats)
    if len(specs) != len(bot_seats):
        raise fail(
            f"--bots names {len(specs)} computer players but {len(bot_seats)} seats "
            f"are computer seats ({', '.join(map(str, bot_seats)) or 'none'})"
        )
    specs = [computer_spec("adventure", "player", s, players, spec)
             for s, spec in zip(bot_seats, specs, strict=True)]
    options = build_options(rules, option_pairs(rules, option or []))
    game_seed = pick_seed(seed, out)
    names = list(NAMES[:players])
    seats: list[SeatInfo] = []
    spec_iter = iter(specs)
    for s in range(players):
        if s in people:
            seats.append(SeatInfo(s, names[s]))
        else:
            seats.append(_bot_seat(s, names[s], next(spec_iter), game_seed))
    session = Session(
        rules,
        options,
        seed=game_seed,
        players=players,
        agents=bot_agents("adventure", seats, players),
    )
    settings = {"assist": assist}
    host = GameHost(
        session,
        seats,
        AdventureScreen(assist=assist),
        out,
        input_fn=_input_fn(out),
        save_name=save_name,
        settings=settings,
        autosave=_has_person(seats),
    )
    if host.humans:
        who = ", ".join(f"{seats[s].name} (player {s + 1})" for s in people)
        out.print(
            f"[bold]Adventure Cards[/] (seed {game_seed}): you play {who}. Type "
            "[bold]?[/] for help."
        )
    run_game(host, record, out)


# -- resume ------------------------------------------------------------------------------------


def _list_saves(out: Console, store: SaveStore) -> None:
    listing = store.listing()
    if not listing:
        out.print(f"No saved games in {escape(str(store.root))}.")
        return
    table = Table(title=f"Saved games in {store.root}")
    for col in ("name", "game", "saved at", "moves", "seats"):
        table.add_column(col)
    for name, item in listing:
        if isinstance(item, SavedGame):
            seats = ", ".join(f"{s.name} ({s.spec if s.is_bot else 'person'})" for s in item.seats)
            table.add_row(name, item.game, item.saved_at, str(len(item.record.actions)), seats)
        else:
            table.add_row(name, "[red]unreadable[/]", "", "", escape(item.message))
    out.print(table)
    out.print("Resume one with: pocketgalaxy resume NAME")


def resume(
    name: Annotated[
        str | None, typer.Argument(help="The save to resume (lists saves if omitted).")
    ] = None,
    record: Annotated[
        Path | None, typer.Option("--record", help="Write the game record here at the end.")
    ] = None,
) -> None:
    """List saved games, or resume one."""
    _resume(name, record)


@handle_errors
def _resume(name: str | None, record: Path | None, input_fn: InputFn | None = None) -> None:
    out = console()
    store = SaveStore()
    if name is None:
        _list_saves(out, store)
        return
    saved = store.load(name)
    if saved.settings.get("companion"):  # a game played with real cards (cli/companion_cmd.py)
        from pocketgalaxy.cli.companion_cmd import resume_companion

        resume_companion(saved, store, record, input_fn)
        return
    rules = get_game(saved.game)
    session = restore_session(rules, saved)
    if session.is_over:
        raise PocketGalaxyError(
            f"save {name!r} holds a finished game; replay it with `pocketgalaxy replay`",
            code="save/finished",
        )
    host = GameHost(
        session,
        saved.seats,
        _screen_for(saved.game, session.seed or 0, saved.settings),
        out,
        input_fn=input_fn or _input_fn(out),
        store=store,
        save_name=saved.name,
        settings=saved.settings,
    )
    _catch_up(host)
    out.print(
        f"[bold]Resuming {escape(saved.name)}[/]: {rules.title}, "
        f"{len(saved.record.actions)} moves so far."
    )
    run_game(host, record, out)


def _catch_up(host: GameHost) -> None:
    """On resume, each person is shown what happened since their own last move."""
    cursor = getattr(host.screen, "cursor", None)
    if cursor is None:
        return
    log = host.session.log
    for seat in host.humans:
        last = max(
            (i for i, (s, _) in enumerate(host.session.record.actions) if s == seat), default=-1
        )
        cursor[seat] = next((j for j, (step, _) in enumerate(log) if step > last), len(log))


def _input_fn(out: Console) -> InputFn:
    def read(prompt: str) -> str:
        return out.input(prompt)

    return read
