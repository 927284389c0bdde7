"""The terminal's game loop, shared by both games: seats, prompts, hand-over, save and resume.

`GameHost` drives a `Session`: computer seats move through `session.step_bot()`, people answer
prompts. A game's `Screen` (cli/perils_screen.py, cli/adventure_screen.py) draws views and turns
typed lines into actions; the host owns everything else:

- `?` prints the screen's help, `save [NAME]` saves and goes on, `quit` offers to save and leaves;
- bad input and refused actions print one line and ask again (nothing changes);
- Ctrl-C offers to save (never silently loses a game);
- with two or more people at one screen, a hand-over prompt hides the screen between them.

Resuming replays the saved record and lets each computer player decide again at its own seats
before the recorded action is applied, so its random source and memory are exactly where they
were: a resumed game continues identically.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from rich.console import Console, RenderableType
from rich.markup import escape

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.cli.saves import SavedGame, SaveStore, SeatInfo, check_name
from pocketgalaxy.core.errors import IllegalActionError, PocketGalaxyError, RecordError
from pocketgalaxy.core.game import Action, Event, GameRules
from pocketgalaxy.core.record import GameRecord
from pocketgalaxy.refusals import explain_refusal
from pocketgalaxy.session import Session

InputFn = Callable[[str], str]


class QuitGame(Exception):
    """The player left the game (after being offered a save)."""

    def __init__(self, code: int = 0) -> None:
        super().__init__(code)
        self.code = code


class Screen(Protocol):
    """What a game's terminal screen provides to the host."""

    help_text: RenderableType

    def show(self, host: GameHost, seat: int) -> None:
        """Draw everything `seat` may see now (from `host.session.view(seat)` and events)."""

    def ask_action(self, host: GameHost, seat: int) -> Action:
        """Prompt `seat` until a well-formed action is typed (the host checks legality)."""

    def after_action(self, host: GameHost, seat: int, events: list[Event]) -> None:
        """React to a person's own action (for example show a peeked card for a moment)."""

    def finish(self, host: GameHost) -> None:
        """Draw the end of the game."""


class GameHost:
    """One game in the terminal: a session, who sits where, and the console to talk through."""

    def __init__(
        self,
        session: Session,
        seats: Sequence[SeatInfo],
        screen: Screen,
        out: Console,
        *,
        input_fn: InputFn | None = None,
        store: SaveStore | None = None,
        save_name: str | None = None,
        settings: dict[str, Any] | None = None,
        autosave: bool = True,
    ) -> None:
        self.session = session
        self.rules: GameRules[Any, Any] = session.rules
        self.seats = list(seats)
        self.screen = screen
        self.out = out
        self._input = input_fn or (lambda prompt: out.input(prompt))
        self.store = store or SaveStore()
        self.save_name = save_name or f"{self.rules.name}-{session.seed}"
        self.settings = dict(settings or {})
        self.last_human: int | None = None
        # Saved quietly whenever a person is about to move, and at the end, so closing the
        # terminal or losing the connection never loses a move.
        self.autosave = autosave

    # -- seats -----------------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        return [s.seat for s in self.seats if not s.is_bot]

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return self.seats[seat].name

    # -- input -------------------------------------------------------------------------------
    def read_line(self, prompt: str) -> str:
        """One raw line, with no commands handled (for questions outside the game)."""
        return self._input(prompt)

    def ask(self, prompt: str) -> str:
        """Read one line. Handles `?`, `save [NAME]` and `quit` itself and asks again."""
        while True:
            try:
                line = self._input(prompt)
            except EOFError:
                self.out.print()
                self.out.print("[yellow]Input ended; leaving the game.[/]")
                raise QuitGame(1) from None
            text = line.strip()
            low = text.lower()
            if low in ("?", "help", "h"):
                self.out.print(self.screen.help_text)
                continue
            if low == "save" or low.startswith("save "):
                self.save(text[4:].strip() or None)
                continue
            if low in ("quit", "exit", "q"):
                self.offer_save()
                raise QuitGame(0)
            return text

    def confirm(self, prompt: str, default: bool = False) -> bool:
        """A yes/no question; Enter gives the default."""
        while True:
            try:
                answer = self._input(f"{prompt} [{'Y/n' if default else 'y/N'}] ").strip().lower()
            except EOFError:
                return default
            if not answer:
                return default
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            self.out.print("[red]Please answer y or n.[/]")

    def say_error(self, exc: PocketGalaxyError | str) -> None:
        """One line for bad input; the caller asks again. A refused move is said in the
        player's words (refusals.py); Rich wraps it at word boundaries."""
        text = exc if isinstance(exc, str) else self.explain(exc)
        self.out.print(f"[red]✗ {escape(text)}[/]  [dim](type ? for help)[/]")

    def explain(self, exc: PocketGalaxyError) -> str:
        """The sentence for an error: a refusal by the rules explained for the seat that was
        refused (its view only), any other error by its own message."""
        if isinstance(exc, IllegalActionError) and isinstance(exc.seat, int):
            if 0 <= exc.seat < len(self.seats):
                view = self.session.view(exc.seat)
                names = [s.name for s in self.seats]
                said = explain_refusal(self.rules.name, exc, view, names)
                if said:
                    return said
        return exc.message

    # -- saving ------------------------------------------------------------------------------
    def saved_game(self, name: str | None = None) -> SavedGame:
        record = self.session.record
        record.meta = dict(record.meta) | {"names": [s.name for s in self.seats]}
        return SavedGame(
            name=check_name(name or self.save_name),
            record=GameRecord.from_json(record.to_json()),
            seats=list(self.seats),
            settings=dict(self.settings),
        )

    def save(self, name: str | None = None) -> Path | None:
        try:
            saved = self.saved_game(name)
            path = self.store.write(saved)
        except PocketGalaxyError as exc:
            self.say_error(exc)
            return None
        self.save_name = saved.name
        self.out.print(
            f"[green]Saved as {escape(saved.name)}[/] ({escape(str(path))}); "
            f"continue later with: pocketgalaxy resume {escape(saved.name)}"
        )
        return path

    def autosave_now(self) -> None:
        """Write the game under its save name without a word; stop trying after a refusal."""
        if not self.autosave:
            return
        try:
            self.store.write(self.saved_game())
        except (PocketGalaxyError, OSError) as exc:
            self.autosave = False
            text = exc.message if isinstance(exc, PocketGalaxyError) else str(exc)
            self.out.print(f"[yellow]Autosave is off for this game: {escape(text)}[/]")

    def offer_save(self) -> None:
        if self.session.is_over:
            return
        try:
            if self.confirm("Save this game before leaving?", default=True):
                self.save()
                return
        except KeyboardInterrupt:
            self.out.print()
        if self.autosave:
            self.out.print(
                f"[yellow]Not saved under a new name; the autosave is kept:[/] "
                f"pocketgalaxy resume {escape(self.save_name)}"
            )
        else:
            self.out.print("[yellow]Not saved.[/]")

    # -- the loop ----------------------------------------------------------------------------
    def handover(self, seat: int) -> None:
        """Hide the screen and wait for the next person when several people share it."""
        if len(self.humans) < 2 or self.last_human == seat:
            return
        self.out.clear()
        self.out.rule(f"Pass the screen to {escape(self.name(seat))}")
        self.ask(f"{self.name(seat)}, press Enter when only you can see the screen. ")
        self.out.clear()

    def play(self) -> int:
        """Play to the end (or until the person quits). Returns an exit code."""
        try:
            while not self.session.is_over:
                if self.session.bot_to_act():
                    self.session.step_bot()
                    continue
                seat = self.session.to_act
                assert seat is not None
                self.autosave_now()
                self.handover(seat)
                self.last_human = seat
                self.screen.show(self, seat)
                while True:
                    action = self.screen.ask_action(self, seat)
                    try:
                        events = self.session.act(seat, action)
                    except PocketGalaxyError as exc:
                        self.say_error(exc)
                        continue
                    break
                self.screen.after_action(self, seat, events)
            self.autosave_now()  # the finished game stays in the saves folder as its record
            self.screen.finish(self)
            return 0
        except QuitGame as q:
            return q.code
        except KeyboardInterrupt:
            self.out.print("\n[yellow]Interrupted.[/]")
            self.offer_save()
            return 130

    def write_record(self, path: Path) -> None:
        record = self.session.record
        record.meta = dict(record.meta) | {"names": [s.name for s in self.seats]}
        path.write_text(record.dumps(), encoding="utf-8")
        self.out.print(f"[green]Record written to {escape(str(path))}[/]")


def bot_agents(game: str, seats: Sequence[SeatInfo], players: int) -> dict[int, Agent]:
    """The computer players for the bot seats, each with its saved seed."""
    return {
        s.seat: make_agent(game, s.spec or "", s.seat, players, seed=s.seed or 0)
        for s in seats
        if s.is_bot
    }


def restore_session(rules: GameRules[Any, Any], saved: SavedGame) -> Session:
    """Rebuild a saved game from its record; computer players decide again at their turns, so
    their random sources and memories match the original game."""
    record = saved.record
    if record.game != rules.name:
        raise RecordError(f"save {saved.name!r} is for {record.game!r}, not {rules.name!r}")
    agents = bot_agents(rules.name, saved.seats, record.players)
    try:
        return Session.from_record(rules, record, agents, rethink=True)
    except RecordError as exc:
        raise RecordError(f"save {saved.name!r}: {exc.message}") from exc
