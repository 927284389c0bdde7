"""`pocketgalaxy tutorial perils|adventure`: a guided first game in the terminal.

The lesson (pocketgalaxy/tutorial/) is a normal game with a pinned deal; the game's usual
screen draws it, and the coach speaks before each of the learner's moves and after each event.
Besides the game's own input, the learner may type `hint` (say the taught move again), `do` (let
the coach make it), `quit` (leave the lesson) or `new` (leave and start a real game). Nothing is
saved: a lesson can always be started again.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console, Group
from rich.markup import escape
from rich.text import Text

from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.cli import play
from pocketgalaxy.cli.adventure_screen import AdventureScreen
from pocketgalaxy.cli.common import console, fail, handle_errors
from pocketgalaxy.cli.host import GameHost, QuitGame, Screen
from pocketgalaxy.cli.perils_screen import PerilsScreen
from pocketgalaxy.cli.saves import SeatInfo
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.registry import get_game
from pocketgalaxy.session import Session
from pocketgalaxy.tutorial import GAMES, Lesson, lesson_for
from pocketgalaxy.tutorial.coach import Advice, Coach

COMMANDS_HELP = (
    "Lesson commands: [bold]hint[/] the coach's suggestion again, [bold]do[/] let the coach make "
    "it, [bold]quit[/] leave the lesson, [bold]new[/] leave and start a real game."
)


class _DoIt(Exception):
    """The learner typed `do`: make the coach's suggested move."""


class _NewGame(Exception):
    """The learner typed `new`: leave the lesson and start a real game."""


class TutorialHost(GameHost):
    """A GameHost whose loop lets the coach speak; never saves (a lesson starts again)."""

    def __init__(self, session: Session, seats: list[SeatInfo], screen: Screen, out: Console,
                 coach: Coach, **kwargs: Any) -> None:
        super().__init__(session, seats, screen, out, autosave=False, **kwargs)
        # `?` shows the game's help and then the lesson's own commands.
        self.screen.help_text = Group(screen.help_text, Text.from_markup(COMMANDS_HELP))
        self.coach = coach
        self.lesson: Lesson = coach.lesson
        self.advice: Advice | None = None
        self._asking_move = False

    # -- input ------------------------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        while True:
            text = super().ask(prompt)
            low = text.strip().lower()
            if low == "hint":
                self._say_advice()
                continue
            if low == "do":
                if not self._asking_move:
                    return ""  # at a "press Enter" prompt, `do` just goes on
                if self.advice is None or self.advice.expected is None:
                    self.say_error("there is no suggested move right now")
                    continue
                raise _DoIt()
            if low == "new":
                raise _NewGame()
            return text

    def offer_save(self) -> None:
        self.out.print("[yellow]You left the lesson.[/] Start it again with "
                       f"[bold]pocketgalaxy tutorial {self.lesson.game}[/], or play a real game "
                       f"with [bold]pocketgalaxy play {self.lesson.game}[/].")

    # -- the coach --------------------------------------------------------------------------
    def coach_says(self, text: str) -> None:
        if text:
            self.out.print(f"[bold magenta]Coach:[/] {escape(text)}", soft_wrap=True)

    def _say_advice(self) -> None:
        if self.advice is not None:
            keys = f" Type: {self.advice.keys}" if self.advice.keys else ""
            self.coach_says(self.advice.line + keys)

    def moves(self) -> list[Action]:
        hero = self.lesson.hero
        return [self.rules.parse_action(a) for s, a in self.session.record.actions if s == hero]

    def _narrate(self, before: int) -> None:
        hero = self.lesson.hero
        seen: list[Event] = self.session.events_for(hero)
        new = self.session.events_for(hero, before)
        earlier = seen[: len(seen) - len(new)]
        for line in self.coach.narrate(new, earlier):
            self.coach_says(line)

    def play(self) -> int:
        """The lesson to its end, or until the learner leaves (`new` returns 3)."""
        hero = self.lesson.hero
        for line in self.lesson.intro:
            self.coach_says(line)
        self.out.print(COMMANDS_HELP)
        try:
            while not self.session.is_over:
                if self.session.bot_to_act():
                    before = len(self.session.log)
                    self.session.step_bot()
                    self._narrate(before)
                    continue
                seat = self.session.to_act
                assert seat == hero
                self.screen.show(self, seat)
                self.advice = self.coach.advice(self.session.view(hero),
                                                self.session.events_for(hero), self.moves(),
                                                self.session.legal_actions(hero))
                self._say_advice()
                while True:
                    self._asking_move = True
                    try:
                        action = self.screen.ask_action(self, seat)
                    except _DoIt:
                        assert self.advice.expected is not None
                        action = self.advice.expected
                    finally:
                        self._asking_move = False
                    before = len(self.session.log)
                    try:
                        events = self.session.act(seat, action)
                    except PocketGalaxyError as exc:
                        self.say_error(exc)
                        self.coach_says("That move is not allowed here; " + self.advice.line)
                        continue
                    break
                self.coach_says(self.coach.react(self.advice, action,
                                                 self.session.events_for(hero)))
                self._narrate(before)
                self.screen.after_action(self, seat, events)
            self.screen.finish(self)
            self.coach_says(self.coach.closing(self.session.events_for(hero)))
            self.out.print(f"Play a real game: [bold]pocketgalaxy play {self.lesson.game}[/]")
            return 0
        except QuitGame as q:
            return q.code
        except _NewGame:
            self.out.print("[yellow]You left the lesson; a real game starts now.[/]")
            return 3
        except KeyboardInterrupt:
            self.out.print("\n[yellow]Interrupted.[/]")
            self.offer_save()
            return 130


def lesson_session(lesson: Lesson) -> tuple[Session, Coach]:
    """The lesson's game (its pinned deal, its deterministic computer seats) and its coach."""
    rules = get_game(lesson.game)
    coach = Coach(lesson, rules)
    agents = {seat: make_agent(lesson.game, spec, seat, lesson.players, seed=seed)
              for seat, (spec, seed) in lesson.opponents.items()}
    session = Session(rules, coach.options, seed=lesson.seed, players=lesson.players,
                      pinned=lesson.pinned, agents=agents, meta={"lesson": lesson.game})
    return session, coach


def _seats(lesson: Lesson) -> list[SeatInfo]:
    names = lesson.seat_names or tuple(f"Seat {s + 1}" for s in range(lesson.players))
    return [
        SeatInfo(s, names[s], "bot", lesson.opponents[s][0], lesson.opponents[s][1])
        if s in lesson.opponents else SeatInfo(s, names[s])
        for s in range(lesson.players)
    ]


def _real_game(game: str) -> None:
    if game == "perils":
        play.play_perils(theme=None, archetype=None, pathways=None, seed=None, hero="human",
                         teller="bot", option=None, record=None, save_name=None)
    else:
        play.play_adventure(players=2, seat=0, bots="memory", humans=None, assist=False,
                            seed=None, option=None, record=None, save_name=None)


@handle_errors
def tutorial_command(
    game: Annotated[str, typer.Argument(help="perils or adventure")],
) -> None:
    """A guided first game: a pinned deal, and a coach who explains every step."""
    if game not in GAMES:
        raise fail(f"there is no lesson for {game!r}: choose {' or '.join(GAMES)}")
    out = console()
    lesson = lesson_for(game)
    session, coach = lesson_session(lesson)
    screen: Screen = PerilsScreen(seed=lesson.seed) if game == "perils" else AdventureScreen()
    host = TutorialHost(session, _seats(lesson), screen, out, coach,
                        input_fn=play._input_fn(out), save_name=f"lesson-{game}")
    out.print(f"[bold]{escape(lesson.title)}[/]")
    code = host.play()
    if code == 3:
        _real_game(game)
        return
    if code != 0:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command("tutorial")(tutorial_command)
