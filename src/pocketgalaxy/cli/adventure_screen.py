"""The Adventure Cards terminal screen: drawn from `AdventureView`s and filtered events only.

A person sees the six missions as coloured cards, their own hand, the table as a numbered
grid of face-down slots, everyone's hand size and missions, and what each player did since
their last turn, in words. A peek is shown to the peeker alone until they press Enter, then
the screen is cleared; only with `--assist` (a memory aid) does the grid keep the faces this
seat has seen. People count players, table slots and missions from 1 (player 1 is seat 0 of
the command line's --seat and --humans, which keep the API's numbers); a refused move is said in
the player's words (games/adventure/explain.py).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from pocketgalaxy.cli.cards import mission_card
from pocketgalaxy.cli.common import help_table
from pocketgalaxy.cli.host import GameHost
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.games.adventure import actions as A
from pocketgalaxy.games.adventure.identities import parse_identity
from pocketgalaxy.games.adventure.recap import card_name as card_name  # shared with the web
from pocketgalaxy.games.adventure.recap import event_text as event_text

NAMES = ("Ada", "Bo", "Cyd", "Dee", "Eli")
GRID_COLUMNS = 8

HELP = help_table(
    "Adventure Cards: how to play a move",
    [
        ("ask PLAYER CARD", "ask a player (number or name) for a test-card: [bold]ask 3 P4[/] or"
                            " [bold]ask Cyd P4[/]"),
        ("declare SLOT CARD", "name the face-down card in a slot, e.g. [bold]declare 6 A2[/]"),
        ("peek SLOT / skip", "after a refused request, look at one table card (or not)"),
        ("claim MISSION", "claim a finished mission (only when claims are not automatic)"),
        ("pass", "only when there is nothing else you may do"),
        ("cards", "S ship (blue), P planet (black), A alien (green), M marvel (yellow), 1-6"),
        ("numbers", "players, table slots and missions are numbered from 1; short forms: a, d,"
                    " p"),
        ("anytime", "? help · save [NAME] · quit (offers to save) · Ctrl-C (offers to save)"),
        ("the rules", "[bold]pocketgalaxy rules adventure[/] prints how to play; on the web table:"
                      " /rules/adventure"),
    ],
)


class AdventureScreen:
    """Screens and prompts for Adventure Cards, for any number of people at one screen."""

    help_text: RenderableType = HELP

    def __init__(self, *, assist: bool = False) -> None:
        self.assist = assist
        self.cursor: dict[int, int] = {}

    # -- drawing ---------------------------------------------------------------------------
    def render(self, view: Any, events: Sequence[Event], names: Sequence[str]) -> RenderableType:
        parts: list[RenderableType] = [
            self._header(view, names),
            self._missions(view, names),
            self._players(view, names),
            self._table(view),
        ]
        if view.seat is not None:
            parts.append(self._hand(view))
        words = [t for t in (event_text(e, names, view.seat) for e in events) if t]
        if words:
            parts.append(
                Panel(Text("\n".join(words[-40:])), title="What happened", border_style="dim")
            )
        if view.outcome is not None:
            parts.append(self._outcome(view, names))
        return Group(*parts)

    def _header(self, view: Any, names: Sequence[str]) -> Text:
        t = Text("Adventure Cards", style="bold magenta")
        t.append(f"  ·  turn {view.turn}")
        if view.to_act is not None:
            t.append(f"  ·  {names[view.to_act]} to play", style="bold")
        if view.seat is not None:
            t.append(f"  ·  you are {names[view.seat]} (player {view.seat + 1})")
        if self.assist:
            t.append("  ·  memory aid on", style="yellow")
        return t

    def _missions(self, view: Any, names: Sequence[str]) -> Panel:
        table = Table(box=None, show_header=False, pad_edge=False)
        for m, group in enumerate(view.missions):
            owner = view.claimed_by[m]
            cards = Text(" ").join([mission_card(c) for c in group])
            status = (
                Text(f"claimed by {names[owner]}", style="dim")
                if owner is not None
                else Text("open", style="green")
            )
            table.add_row(Text(f"{m + 1}.", style="bold"), cards, status)
        return Panel(table, title="Missions (ship, planet, alien, marvel)", border_style="cyan")

    def _players(self, view: Any, names: Sequence[str]) -> Table:
        table = Table(title=None, box=None, pad_edge=False)
        for col in ("no.", "player", "cards in hand", "missions"):
            table.add_column(col)
        for seat in range(view.players):
            mark = "▶ " if seat == view.to_act else "  "
            name = names[seat] + (" (you)" if seat == view.seat else "")
            missions = [str(m + 1) for m, s in enumerate(view.claimed_by) if s == seat]
            table.add_row(
                f"{mark}{seat + 1}",
                name,
                str(view.hand_sizes[seat]),
                f"{view.scores[seat]}" + (f" (#{', #'.join(missions)})" if missions else ""),
            )
        return table

    def _table(self, view: Any) -> Panel:
        grid = Table(box=None, show_header=False, pad_edge=False)
        for _ in range(GRID_COLUMNS):
            grid.add_column()
        cells: list[Text] = []
        for slot, full in enumerate(view.table):
            label = Text(f"{slot + 1:>2} ", style="bold")
            if not full:
                label.append(" ·· ", style="dim")
            elif self.assist and view.known[slot] is not None:
                label.append(mission_card(view.known[slot]))
            else:
                label.append("▒▒▒▒", style="blue")
            cells.append(label)
        for i in range(0, len(cells), GRID_COLUMNS):
            row = cells[i : i + GRID_COLUMNS]
            grid.add_row(*row, *[Text("")] * (GRID_COLUMNS - len(row)))
        if not cells:
            grid.add_row(Text("(no cards on the table)", style="dim"))
        return Panel(grid, title="Table (face-down test-cards, by slot)", border_style="blue")

    def _hand(self, view: Any) -> Panel:
        if not view.hand:
            return Panel(Text("no test-cards", style="dim"), title="Your hand")
        table = Table(box=None, show_header=False, pad_edge=False)
        for c in view.hand:
            table.add_row(mission_card(c), Text(card_name(c)))
        return Panel(table, title=f"Your hand ({len(view.hand)})", border_style="green")

    def _outcome(self, view: Any, names: Sequence[str]) -> Panel:
        winners = view.outcome.winners
        text = Text(
            ("Winner: " if len(winners) == 1 else "Shared win: ")
            + " and ".join(names[s] for s in winners)
            if winners
            else "No winner",
            style="bold green",
        )
        text.append(
            "\nMissions: " + ", ".join(f"{names[s]} {view.scores[s]}" for s in range(view.players))
        )
        if view.outcome.ended_by_cap:
            text.append("\nThe game was stopped by the turn cap.", style="yellow")
        return Panel(text, title="The end", border_style="magenta")

    # -- the host's hooks --------------------------------------------------------------------
    def new_events(self, host: GameHost, seat: int) -> list[Event]:
        since = self.cursor.get(seat, 0)
        self.cursor[seat] = len(host.session.log)
        return host.session.events_for(seat, since)

    def names(self, host: GameHost) -> list[str]:
        return [s.name for s in host.seats]

    def show(self, host: GameHost, seat: int) -> None:
        view = host.session.view(seat)
        events: list[Event] = self.new_events(host, seat)
        if not host.session.record.actions and not events:
            events = list(view.recent)
        host.out.print(self.render(view, events, self.names(host)))

    def after_action(self, host: GameHost, seat: int, events: list[Event]) -> None:
        for e in events:
            if type(e).__name__ == "PeekSeen" and getattr(e, "seat", None) == seat:
                slot, card = e.slot, e.card  # type: ignore[attr-defined]
                host.out.print(
                    Panel(
                        Text.assemble(
                            f"Slot {slot + 1} holds ", mission_card(card), " ", card_name(card)
                        ),
                        title="Only you can see this",
                        border_style="yellow",
                    )
                )
                host.ask("Remember it, then press Enter to hide it. ")
                if not self.assist:
                    host.out.clear()

    def finish(self, host: GameHost) -> None:
        seat = host.humans[0] if host.humans else None
        view = host.session.view(seat)
        events = self.new_events(host, seat) if seat is not None else []
        host.out.print(self.render(view, events, self.names(host)))

    def ask_action(self, host: GameHost, seat: int) -> Action:
        view = host.session.view(seat)
        names = self.names(host)
        if view.phase == "peek":
            prompt = "Peek at a table slot? (peek SLOT or skip): "
        elif tuple(view.legal.kinds) == ("PassTurn",):
            prompt = f"{names[seat]}, there is nothing you may do: type pass: "
        else:
            prompt = f"{names[seat]}, your move (ask PLAYER CARD, declare SLOT CARD; ? for help): "
            if view.legal.claimable_missions:
                ready = ", ".join(str(m + 1) for m in view.legal.claimable_missions)
                prompt = f"Mission {ready} is complete (claim N). " + prompt
        while True:
            line = host.ask(prompt)
            try:
                return parse_move(line, view, names)
            except (_BadMove, PocketGalaxyError) as exc:
                host.say_error(exc if isinstance(exc, PocketGalaxyError) else str(exc))


class _BadMove(Exception):
    """A typed line that is not a move; the prompt is asked again."""


def _seat(word: str, view: Any, names: Sequence[str]) -> int:
    low = word.lower()
    for seat, name in enumerate(names):
        if name.lower() == low:
            return seat
    if word.isdigit() and 1 <= int(word) <= view.players:
        return int(word) - 1
    listed = ", ".join(f"{s + 1} {n}" for s, n in enumerate(names[: view.players]))
    raise _BadMove(f"{word!r} is not a player: type a number 1-{view.players} or a name ({listed})")


def _slot(word: str, view: Any) -> int:
    if not word.isdigit() or not 1 <= int(word) <= len(view.table):
        raise _BadMove(f"{word!r} is not a table slot: use 1-{len(view.table)}")
    return int(word) - 1


def _card(word: str) -> str:
    try:
        return parse_identity(word)
    except PocketGalaxyError:
        raise _BadMove(
            f"{word!r} is not a test-card: type its pack letter (S ship, P planet, A alien, "
            "M marvel) and number 1-6, like P4"
        ) from None


def parse_move(line: str, view: Any, names: Sequence[str]) -> Action:
    """A typed move into an action (`ask 2 P4`, `declare 6 A2`, `peek 3`, `skip`, `claim 1`,
    `pass`). Raises on a line that is not a move; the rules judge legality afterwards."""
    words = line.split()
    if not words:
        raise _BadMove("type a move (ask, declare, peek, skip, claim or pass), or ? for help")
    verb, args = words[0].lower(), words[1:]
    if verb in ("ask", "a", "request", "r"):
        if len(args) != 2:
            raise _BadMove("ask needs a player and a card, like: ask 2 P4")
        return A.RequestCard(target=_seat(args[0], view, names), card=_card(args[1]))
    if verb in ("declare", "d"):
        if len(args) != 2:
            raise _BadMove("declare needs a slot and a card, like: declare 6 A2")
        return A.DeclareCard(slot=_slot(args[0], view), card=_card(args[1]))
    if verb in ("peek", "p"):
        if len(args) != 1:
            raise _BadMove("peek needs a slot, like: peek 3")
        return A.Peek(slot=_slot(args[0], view))
    if verb in ("skip", "s", "no"):
        return A.SkipPeek()
    if verb in ("claim", "c"):
        if len(args) != 1 or not args[0].isdigit():
            raise _BadMove("claim needs a mission number 1-6, like: claim 2")
        return A.ClaimMission(mission=int(args[0]) - 1)
    if verb == "pass":
        return A.PassTurn()
    raise _BadMove(f"{verb!r} is not a move: ask, declare, peek, skip, claim or pass")


def render_text(
    view: Any,
    events: Sequence[Event],
    names: Sequence[str] = NAMES,
    *,
    assist: bool = False,
    width: int = 110,
) -> str:
    """The screen as plain text (for tests and docs)."""
    out = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    out.print(AdventureScreen(assist=assist).render(view, events, names))
    return out.export_text()
