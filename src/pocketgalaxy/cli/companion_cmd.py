"""`pocketgalaxy companion perils`: the computer Teller runs a game played with real cards.

The table deals real cards; a dealer types them (hidden on a terminal), the companion tells the
Hero the pathways in the computer Teller's words (the same as `pocketgalaxy play` and
`pocketgalaxy tell`), reveals the chosen card, judges the Hero's typed plan with the engine's
plan judge, asks for the real die's result, and keeps skills, health, items and the round.

How it stays a real game record: the rules deal every round from their own shuffled pile. When
a round is dealt, the companion asks what the table really laid (checked by
games/perils/physical.py), adds it to the record's pinned deal as that round's cards
(`pinned["rounds"]`, read only when that round is dealt) and rebuilds the session by replaying
the record; typed die results go to `pinned["rolls"]` the same way. Neither changes the rounds
before, so the final record {options, seed, pinned, actions} replays to the same final state
with `pocketgalaxy replay`. Saves are ordinary saves marked `settings.companion`, resumed with
`pocketgalaxy resume NAME`.

What the screen shows comes from views and the Hero's events, as in `pocketgalaxy play`. Only
the checks of typed cards (physical.py) read the state: which cards are still unseen, a set the
people at the table can see for themselves; the order of the rules' own pile is never shown.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from pocketgalaxy.cli.common import (
    build_options,
    console,
    fail,
    handle_errors,
    help_table,
    pick_seed,
)
from pocketgalaxy.cli.companion_words import setup_steps, table_steps
from pocketgalaxy.cli.host import GameHost, InputFn, QuitGame, bot_agents, restore_session
from pocketgalaxy.cli.perils_screen import PerilsScreen
from pocketgalaxy.cli.perils_words import SENSE_WORDS
from pocketgalaxy.cli.saves import SavedGame, SaveStore, SeatInfo
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import Event
from pocketgalaxy.core.record import GameRecord
from pocketgalaxy.games.perils.actions import HERO, TELLER, Roll
from pocketgalaxy.games.perils.content import load_theme
from pocketgalaxy.games.perils.options import CLARITIES
from pocketgalaxy.games.perils.physical import (
    check_laid,
    check_rolls,
    round_to_lay,
    split_typed,
)
from pocketgalaxy.registry import perils_rules
from pocketgalaxy.session import Session
from pocketgalaxy.sim.runner import derive_seed

companion_app = typer.Typer(help="A computer Teller for a game played with real cards.",
                            no_args_is_help=True)

SETTING = "companion"
"""The save setting that marks a companion game (its value: the game, "perils")."""


HELP = help_table(
    "Perils & Pathways with real cards: how to answer",
    [
        ("cards", "the dealer types the cards laid, left to right: 8D 3C (10C, QS, JK1 and the "
                  "suit symbols work too); the screen hides them while they are typed"),
        ("archetype", "type its number (or id), then lay its cards before the Hero"),
        ("pathways", "type the pathway's number (1, 2, 3) or left / straight / right"),
        ("plan", "a skill to channel (D, C, S or its name, Enter for none), the items to use "
                 "(their numbers), then one line saying how: the computer Teller judges it"),
        ("roll", "roll the real die and type what it shows (two numbers with advantage)"),
        ("anytime", "? help · save [NAME] · quit (offers to save); resume with "
                    "pocketgalaxy resume NAME"),
        ("the rules", "[bold]pocketgalaxy rules perils[/] prints how to play"),
    ],
)


class CompanionScreen(PerilsScreen):
    """The Hero's screen plus the table's chores ("At the table") for the same events."""

    help_text: RenderableType = HELP

    def show(self, host: GameHost, seat: int) -> None:
        view = host.session.view(seat)
        events = self.new_events(host, seat)
        host.out.print(self.render(view, events))
        self.chores(host, events)

    def news(self, host: GameHost) -> None:
        """Only what happened since the Hero's screen was last drawn (no panels)."""
        events = self.new_events(host, HERO)
        theme = _theme_of(host)
        words = self.words([e for e in events if type(e).__name__ != "PathwaysLaid"], theme)
        if words:
            host.out.print(Panel(Text("\n".join(words)), title="What happened",
                                 border_style="dim"))
        self.chores(host, events)

    def chores(self, host: GameHost, events: list[Event]) -> None:
        order = str((host.session.view(HERO).options or {}).get("showdown_order"))
        steps = table_steps(events, _theme_of(host), showdown_order=order)
        if steps:
            host.out.print(Panel(Text("\n".join(f"• {s}" for s in steps)),
                                 title="At the table", border_style="green"))

    def finish(self, host: GameHost) -> None:
        self.show(host, HERO)


def _theme_of(host: GameHost) -> Any:
    return load_theme(host.session.view(HERO).theme)


class CompanionHost(GameHost):
    """The game loop of a companion game: asks for the real cards and the real die, and
    rebuilds the session from its record with them pinned (nothing else is ever changed)."""

    def __init__(self, *args: Any, secret_fn: InputFn | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._secret = secret_fn or self._input

    # -- input --------------------------------------------------------------------------
    def ask_hidden(self, prompt: str) -> str:
        """Like `ask` (with ?, save and quit), read without echo on a terminal."""
        shown = self._input
        self._input = self._secret
        try:
            return self.ask(prompt)
        finally:
            self._input = shown

    # -- the record ---------------------------------------------------------------------
    def pinned(self) -> dict[str, Any]:
        pin = copy.deepcopy(self.session.record.pinned or {})
        pin.setdefault("rounds", [])
        pin.setdefault("rolls", [])
        return dict(pin)

    def rebuild(self, pinned: dict[str, Any]) -> None:
        """Replay the record with a grown pinned deal; the earlier game is unchanged."""
        record = GameRecord.from_json(self.session.record.to_json())
        record.pinned = copy.deepcopy(pinned)
        agents = bot_agents("perils", self.seats, record.players)
        self.session = Session.from_record(self.rules, record, agents, rethink=True)

    # -- the loop -----------------------------------------------------------------------
    def play(self) -> int:
        screen = self.screen
        assert isinstance(screen, CompanionScreen)
        try:
            while not self.session.is_over:
                view = self.session.view(HERO)
                if view.phase == "describe" and len(self.pinned()["rounds"]) < view.round:
                    self.autosave_now()
                    screen.news(self)
                    self.lay_round()
                    continue
                if self.session.bot_to_act():
                    self.session.step_bot()
                    continue
                self.autosave_now()
                self.last_human = HERO
                screen.show(self, HERO)
                if self.session.view(HERO).phase == "roll":
                    self.roll()
                    continue
                while True:
                    action = screen.ask_action(self, HERO)
                    try:
                        self.session.act(HERO, action)
                    except PocketGalaxyError as exc:
                        self.say_error(exc)
                        continue
                    break
            self.autosave_now()
            screen.finish(self)
            return 0
        except QuitGame as q:
            return q.code
        except KeyboardInterrupt:
            self.out.print("\n[yellow]Interrupted.[/]")
            self.offer_save()
            return 130

    def lay_round(self) -> None:
        """Ask what the table laid for this round and pin it (the Big Bads left in a
        Hero-chooses showdown are known: they stay where they lie)."""
        todo = round_to_lay(self.session.state)
        pin = self.pinned()
        pin["rounds"] = pin["rounds"] + [[]] * (todo.round - 1 - len(pin["rounds"]))
        if not todo.must_type:
            self.out.print("[green]The Big Bads left stay where they lie.[/]")
            self.rebuild(pin | {"rounds": [*pin["rounds"], []]})
            return
        sense = SENSE_WORDS.get(self.session.view(HERO).sense, "")
        if todo.stage == "showdown":
            if todo.count > 1:
                text = (f"Round {todo.round}, the showdown ({sense}). Dealer: look at the "
                        f"{todo.count} Big Bads laid face down without showing the Hero, and "
                        "type them left to right (like AS AD AC): ")
            else:
                text = (f"Round {todo.round}, the showdown ({sense}). Dealer: take the top "
                        "Big Bad, look at it without showing the Hero, lay it face down and "
                        "type it (like AS): ")
        else:
            text = (f"Round {todo.round} ({sense}). Dealer: deal {todo.count} card(s) face down "
                    "from the maze, look without showing the Hero, and type them left to right "
                    "(like 8D 3C): ")
        while True:
            line = self.ask_hidden(text)
            try:
                cards = check_laid(self.session.state, split_typed(line))
            except PocketGalaxyError as exc:
                self.say_error(exc)
                continue
            break
        self.rebuild(pin | {"rounds": [*pin["rounds"], list(cards)]})
        laid = [p.face for p in self.session.view(TELLER).pathways]
        if laid != list(cards):  # pragma: no cover - physical.py checks every card
            raise PocketGalaxyError("the rules did not lay the typed cards",
                                    code="companion/internal")

    def roll(self) -> None:
        """Ask for the real die (two with advantage), pin it and roll."""
        plan = self.session.view(HERO).plan
        advantage = bool(plan is not None and plan.advantage)
        text = ("Roll two dice (advantage) and type both, like 3 5: " if advantage
                else "Roll the die and type what it shows (1-6): ")
        while True:
            line = self.ask(text)
            try:
                values = check_rolls(split_typed(line), advantage)
            except PocketGalaxyError as exc:
                self.say_error(exc)
                continue
            break
        pin = self.pinned()
        self.rebuild(pin | {"rolls": [*pin["rolls"], *values]})
        self.session.act(HERO, Roll())


# -- the commands ---------------------------------------------------------------------------


def _input_fn(out: Console) -> InputFn:
    def read(prompt: str) -> str:
        return out.input(prompt)

    return read


def _secret_fn(out: Console) -> InputFn | None:
    """Read the dealt cards without echo when a person types at a terminal."""
    if not sys.stdin.isatty():
        return None

    def read(prompt: str) -> str:
        return out.input(prompt, password=True)

    return read


@companion_app.command("perils")
@handle_errors
def companion_perils(
    theme: Annotated[str, typer.Option("--theme", help="Playsheet: cosmic, dungeon, or a path "
                                       "to a theme TOML file.")] = "cosmic",
    pathways: Annotated[int, typer.Option("--pathways", help="Pathways per round: 2 or 3.")
                        ] = 2,
    clarity: Annotated[str, typer.Option("--clarity", help="How much the Teller's words tell: "
                                         "plain, fair, subtle or cryptic.")] = "fair",
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the Teller's words "
                                             "(printed if not given).")] = None,
    record: Annotated[Path | None, typer.Option("--record", help="Write the game record here "
                                                "at the end.")] = None,
    save_name: Annotated[str | None, typer.Option("--save-as", help="Name for saves of this "
                                                  "game.")] = None,
) -> None:
    """Perils & Pathways with a real deck and die: the computer is the Teller."""
    out = console()
    if pathways not in (2, 3):
        raise fail(f"--pathways {pathways}: allowed 2 or 3")
    if clarity not in CLARITIES:
        raise fail(f"--clarity {clarity!r} is not known; allowed: {', '.join(CLARITIES)}")
    rules = perils_rules()
    options = build_options(rules, {"theme": theme, "pathways_per_round": pathways,
                                    "clarity": clarity})
    the_theme = rules.theme(options)
    game_seed = pick_seed(seed, out)
    seats = [SeatInfo(0, "Hero"),
             SeatInfo(1, "Teller", kind="bot", spec="teller", seed=derive_seed(game_seed, 2))]
    session = Session(rules, options, seed=game_seed, players=2,
                      pinned={"rounds": [], "rolls": []}, agents=bot_agents("perils", seats, 2))
    host = CompanionHost(session, seats, CompanionScreen(seed=game_seed), out,
                         input_fn=_input_fn(out), secret_fn=_secret_fn(out),
                         save_name=save_name or f"companion-perils-{game_seed}",
                         settings={SETTING: "perils"})
    out.print(f"[bold]Perils & Pathways with real cards[/] (seed {game_seed}). The computer is "
              "the Teller; type [bold]?[/] at any prompt for help.")
    out.print(Panel(Text("\n".join(f"• {s}" for s in setup_steps(the_theme))),
                    title="At the table", border_style="green"))
    _run(host, record, out)


def resume_companion(saved: SavedGame, store: SaveStore, record: Path | None,
                     input_fn: InputFn | None = None) -> None:
    """Go on with a saved companion game (called by `pocketgalaxy resume NAME`)."""
    out = console()
    session = restore_session(perils_rules(), saved)
    if session.is_over:
        raise PocketGalaxyError(
            f"save {saved.name!r} holds a finished game; replay it with `pocketgalaxy replay`",
            code="save/finished",
        )
    seed = session.seed or 0
    screen = CompanionScreen(seed=seed)
    # The Hero is shown what happened since their own last move.
    last = max((i for i, (s, _) in enumerate(session.record.actions) if s == HERO), default=-1)
    screen.cursor[HERO] = next((j for j, (step, _) in enumerate(session.log) if step > last),
                               len(session.log))
    host = CompanionHost(session, saved.seats, screen, out, input_fn=input_fn or _input_fn(out),
                         secret_fn=None if input_fn else _secret_fn(out), store=store,
                         save_name=saved.name, settings=saved.settings)
    out.print(f"[bold]Resuming {escape(saved.name)}[/]: Perils & Pathways with real cards, "
              f"{len(saved.record.actions)} moves so far.")
    _run(host, record, out)


def _run(host: CompanionHost, record: Path | None, out: Console) -> None:
    from pocketgalaxy.cli.play import run_game

    run_game(host, record, out)


def register(app: typer.Typer) -> None:
    """Add `companion perils` to the `pocketgalaxy` command line."""
    app.add_typer(companion_app, name="companion")
