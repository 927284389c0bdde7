"""`pocketgalaxy tell CARD`: the computer Teller's words for one card, for people who play
Perils & Pathways with a real deck and want a description to read out.

`pocketgalaxy tell 8D --sense sound --theme cosmic --clarity fair -n 5 --seed 1 --reveal`
prints five pathway descriptions of the 8♦ by sound (each as in a game of its own), and with
`--reveal` what the Hero finds and how a success and a failure end. `--json` prints a list of
objects: card, sense, theme, clarity, text, hint (and with --reveal: thing, reveal, success,
failure).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.markup import escape

from pocketgalaxy.cli.common import console, fail, handle_errors, pick_seed
from pocketgalaxy.core.cards import card, parse_card
from pocketgalaxy.core.errors import CardCodeError
from pocketgalaxy.games.perils import story
from pocketgalaxy.games.perils.content import SENSES, load_theme
from pocketgalaxy.games.perils.narration import card_kind, tell
from pocketgalaxy.games.perils.options import CLARITIES, DISGUISES, PerilsOptions

MAX_COUNT = 50
"""At most this many descriptions per call (-n)."""


def tell_command(
    card_code: Annotated[str, typer.Argument(metavar="CARD", help="a card code: 8D, 10C, QS, "
                                             "AC, JK1 (not AH, the Prize)")],
    sense: Annotated[str, typer.Option("--sense", help="sight, sound or smell")] = "sight",
    theme: Annotated[str, typer.Option("--theme", help="cosmic, dungeon or a .toml file")
                     ] = "cosmic",
    clarity: Annotated[str, typer.Option("--clarity", help="plain, fair, subtle or cryptic")
                       ] = "fair",
    disguise: Annotated[str, typer.Option("--disguise", help="never, sometimes or often")
                        ] = "sometimes",
    count: Annotated[int, typer.Option("-n", "--count", help=f"descriptions (1..{MAX_COUNT})")
                     ] = 3,
    seed: Annotated[int | None, typer.Option("--seed", help="the same seed, the same words")
                    ] = None,
    reveal: Annotated[bool, typer.Option("--reveal", help="also the reveal and both outcomes")
                      ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Print the computer Teller's pathway descriptions of one card."""
    _tell(card_code, sense, theme, clarity, disguise, count, seed, reveal, as_json)


@handle_errors
def _tell(card_code: str, sense: str, theme_id: str, clarity: str, disguise: str, count: int,
          seed: int | None, reveal: bool, as_json: bool) -> None:
    try:
        code = parse_card(card_code.strip()).code
    except CardCodeError as exc:
        raise fail(f"card {card_code!r} is not a card code ({exc.message}); "
                   "allowed: 2-10, J, Q, K, A with D, C, H or S (8D, 10C, QS), JK1, JK2") from None
    if code == "AH":
        raise fail("card AH is the Prize and is never described; allowed: any other card")
    if sense not in SENSES:
        raise fail(f"sense {sense!r} is not known; allowed: {', '.join(SENSES)}")
    if clarity not in CLARITIES:
        raise fail(f"clarity {clarity!r} is not known; allowed: {', '.join(CLARITIES)}")
    if disguise not in DISGUISES:
        raise fail(f"disguise {disguise!r} is not known; allowed: {', '.join(DISGUISES)}")
    if not 1 <= count <= MAX_COUNT:
        raise fail(f"-n {count} is out of range; allowed: 1..{MAX_COUNT}")
    the_theme = load_theme(theme_id)
    options = PerilsOptions(theme=theme_id, clarity=clarity, disguise=disguise)
    chosen = pick_seed(seed)
    rows: list[dict[str, Any]] = []
    for k, (text, hint, thing) in enumerate(tell(the_theme, code, sense, options, chosen,
                                                  count)):
        row: dict[str, Any] = {"card": code, "sense": sense, "theme": the_theme.id,
                               "clarity": clarity, "text": text, "hint": hint}
        if reveal:
            row.update(_reveal(the_theme, thing, code, chosen + k))
        rows.append(row)
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    out = console()
    out.print(f"[bold]{escape(card(code).label)}[/] by {sense} ({the_theme.title}, "
              f"clarity {clarity}):")
    for i, row in enumerate(rows, 1):
        out.print(f"{i}. {escape(row['text'])}", soft_wrap=True)
        if reveal:
            out.print(f"   [bold]Revealed:[/] {escape(row['reveal'])}", soft_wrap=True)
            out.print(f"   [green]If it goes well:[/] {escape(row['success'])}", soft_wrap=True)
            out.print(f"   [red]If it goes badly:[/] {escape(row['failure'])}", soft_wrap=True)


def _reveal(theme: Any, thing: Any, code: str, seed: int) -> dict[str, str]:
    kind = card_kind(code)
    difficulty = 11 if kind == "big_bad" else card(code).rank if kind == "peril" else 0
    out = {"thing": thing.id,
           "reveal": story.reveal_story(theme, thing, code, kind, difficulty, seed)}
    if kind == "gift":
        out["success"] = story.gift_story(thing, code, seed, healed=True, health=3)
        out["failure"] = story.gift_story(thing, code, seed, healed=False, health=3)
    elif kind == "item":
        out["success"] = story.item_story(theme, thing, code, seed)
        out["failure"] = thing.failure[0]
    else:
        suit = code[-1]
        out["success"] = story.success_story(
            theme, thing, code, seed, skill=suit, level=4, spent=(),
            numbers=story.roll_words((5,), max(0, difficulty - 5), max(5, difficulty),
                                     difficulty, False))
        out["failure"] = story.failure_story(
            theme, thing, code, seed, health=2, spent=(),
            numbers=story.roll_words((1,), 0, 1, difficulty, False))
    return out


def register(app: typer.Typer) -> None:
    """Add `tell` to the `pocketgalaxy` command line."""
    app.command("tell")(tell_command)
