"""`pocketgalaxy replay RECORD.json [--json] [--seat N]`: a record's game, told again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from pocketgalaxy.cli.adventure_screen import NAMES, AdventureScreen
from pocketgalaxy.cli.adventure_screen import event_text as adventure_words
from pocketgalaxy.cli.common import console, fail, handle_errors
from pocketgalaxy.cli.perils_screen import PerilsScreen
from pocketgalaxy.cli.perils_words import event_text as perils_words
from pocketgalaxy.core.errors import PocketGalaxyError, RecordError
from pocketgalaxy.core.game import Event, GameRules, visible_events
from pocketgalaxy.core.record import GameRecord, replay, start_state
from pocketgalaxy.games.perils.content import load_theme
from pocketgalaxy.registry import get_game


def _generic(event: Event) -> str:
    data = event.to_json()
    kind = data.pop("type")
    data.pop("audience", None)
    return f"{kind} " + ", ".join(f"{k}={v}" for k, v in data.items())


class _Words:
    """Events of one game in words."""

    def __init__(self, rules: GameRules[Any, Any], record: GameRecord, viewer: int | None):
        self.game = rules.name
        self.viewer = viewer
        self.seed = record.seed or 0
        names = record.meta.get("names")
        self.names = (
            [str(n) for n in names]
            if isinstance(names, list) and len(names) == record.players
            else list(NAMES[: record.players])
        )
        if self.game == "perils" and not isinstance(names, list):
            self.names = ["Hero", "Teller"]
        self.theme: Any = None
        if self.game == "perils":
            try:
                self.theme = load_theme(str(record.options.get("theme", "cosmic")))
            except PocketGalaxyError:
                self.theme = None
        self.count = 2

    def __call__(self, event: Event) -> str:
        text: str | None = None
        if self.game == "perils":
            if type(event).__name__ == "PathwaysLaid":
                self.count = getattr(event, "count", 2)
            text = perils_words(event, self.theme, count=self.count, seed=self.seed)
        elif self.game == "adventure":
            e: Any = event
            if type(event).__name__ == "PeekSeen":  # the live screen shows it only for a moment
                text = f"({self.names[e.seat]} saw {e.card} in slot {e.slot + 1})"
            else:
                text = adventure_words(event, self.names, self.viewer)
        return text or _generic(event)


def replay_command(
    record_file: Annotated[
        Path, typer.Argument(help="A game record (JSON), as written by --record.")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print machine JSON: the events and the final state.")
    ] = False,
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat",
            help="Show only what this seat could see (and its final view instead of the state).",
        ),
    ] = None,
) -> None:
    """Replay a game record: its events in words and the final position."""
    _replay(record_file, as_json, seat)


@handle_errors
def _replay(record_file: Path, as_json: bool, seat: int | None) -> None:
    try:
        text = record_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise fail(f"cannot read {record_file}: {exc}") from None
    try:
        record = GameRecord.loads(text)
        rules = get_game(record.game)
        if seat is not None and not 0 <= seat < record.players:
            raise fail(f"--seat {seat}: the record has seats 0-{record.players - 1}")
        final, steps = replay(rules, record)
        opening = rules.opening_events(start_state(rules, record))
        if seat is not None:
            opening = visible_events(opening, seat)
    except RecordError as exc:
        raise fail(f"{record_file}: {exc.message}") from None
    except PocketGalaxyError as exc:
        raise fail(f"{record_file}: broken record: {exc.message}") from None
    outcome = rules.outcome(final)
    if as_json:
        payload: dict[str, Any] = {
            "game": record.game,
            "seed": record.seed,
            "players": record.players,
            "options": record.options,
            "seat": seat,
            "opening_events": [e.to_json() for e in opening],
            "steps": [
                {
                    "index": i,
                    "seat": s,
                    "action": action.to_json(),
                    "events": [e.to_json() for e in visible_events(events, seat)]
                    if seat is not None
                    else [e.to_json() for e in events],
                }
                for i, (s, action, events) in enumerate(steps)
            ],
            "outcome": outcome.to_json() if outcome else None,
        }
        if seat is None:
            payload["final_state"] = final.to_json()
        else:
            payload["final_view"] = rules.view(final, seat).to_json()
        typer.echo(json.dumps(payload, indent=1, ensure_ascii=False))
        return
    out = console()
    words = _Words(rules, record, seat)
    out.print(
        Text(
            f"{rules.title}: seed {record.seed}, {record.players} players, {len(steps)} moves",
            style="bold",
        )
    )
    for line in filter(None, (words(e) for e in opening)):
        out.print(Text(f"setup  {line}"))
    for i, (s, _action, events) in enumerate(steps):
        shown = visible_events(events, seat) if seat is not None else events
        lines = [words(e) for e in shown]
        out.print(Text(f"{i + 1:>4}. {words.names[s]}: ", style="bold"), end="")
        out.print(Text(lines[0] if lines else "(nothing visible)"))
        for line in lines[1:]:
            out.print(Text("      " + line))
    out.rule("Final position")
    view = rules.view(final, seat)
    if rules.name == "perils":
        out.print(PerilsScreen(seed=record.seed or 0).render(view, []))
    else:
        out.print(AdventureScreen().render(view, [], words.names))
    if outcome is not None:
        winners = ", ".join(words.names[w] for w in outcome.winners) or "nobody"
        out.print(Text(f"Outcome: {winners} won ({outcome.reason})", style="bold"))
    else:
        out.print(Text("The record ends before the game does.", style="yellow"))
