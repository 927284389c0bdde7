"""Perils & Pathways with a real deck: which cards may be typed as a round's pathways, and die
results typed from a real die.

The companion (cli/companion_cmd.py) lets the rules run a game dealt by hand. The rules deal
each round from their own shuffled pile; the companion asks what was really laid, checks it
here against the state, and pins it as that round's cards (the pinned deal's "rounds",
penalty.validate_pinned), so the record replays to the same game. Pure: reads a state, never
changes one. Refusals say what was wrong and what may be typed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pocketgalaxy.core.cards import DECK_54, card, parse_card
from pocketgalaxy.core.errors import CardCodeError, PocketGalaxyError
from pocketgalaxy.games.perils.state import PerilsState

MAX_TYPED = 200
"""A typed line longer than this many characters is refused before it is read."""

PLACE_WORDS = {
    "base": "is one of the Hero's archetype cards",
    "tucked_D": "is tucked under a skill as a gained level",
    "tucked_C": "is tucked under a skill as a gained level",
    "tucked_S": "is tucked under a skill as a gained level",
    "tucked_H": "is tucked under a skill as a gained level",
    "damage": "is in the Hero's damage pile",
    "inventory": "is one of the Hero's items",
    "prize": "is the Prize, set aside until the end",
    "current": "is the card being met now",
    "unchosen": "was an unchosen pathway and is set aside",
    "spent": "was met already and is set aside",
    "discarded": "was discarded",
    "limbo": "was lost at zero health",
    "big_bads": "is a Big Bad: the aces wait until the maze is empty",
    "pathways": "is already laid this round",
}


class TypedCardError(PocketGalaxyError):
    """A typed card or die result that cannot be what lies on the table now."""

    def __init__(self, message: str, *, code: str, allowed: Sequence[str] = ()) -> None:
        super().__init__(message, code=f"companion/{code}", allowed=allowed)


@dataclass(frozen=True)
class RoundToLay:
    """What the table lays for the round being dealt: `count` cards, chosen from `allowed`."""

    round: int
    stage: str
    count: int
    allowed: tuple[str, ...]
    must_type: bool
    """False when the cards are already known (the Big Bads left in a Hero-chooses showdown:
    they stay where they lie)."""


def round_to_lay(state: PerilsState) -> RoundToLay:
    """The round whose pathways were just dealt (phase "describe")."""
    if state.phase != "describe":
        raise PocketGalaxyError(f"no round is being laid (phase {state.phase})",
                                code="companion/not_dealing")
    pile = state.big_bads if state.stage == "showdown" else state.draw
    allowed = tuple(sorted([*pile, *state.pathways], key=DECK_54.index))
    must_type = True
    if state.stage == "showdown" and state.options.showdown_order == "hero_chooses":
        # Every Big Bad is laid in the first showdown round; later rounds lay those left.
        must_type = not (state.defeated or state.failed)
    return RoundToLay(state.round, state.stage, len(state.pathways), allowed, must_type)


def check_laid(state: PerilsState, words: Sequence[str]) -> tuple[str, ...]:
    """The typed cards of the round being laid, in position order, as canonical codes.

    Refuses (TypedCardError, naming what may be typed) a code that does not parse, the wrong
    number of cards, a card typed twice, the Prize, an ace before the showdown, a card that is
    not an ace in the showdown, and a card already used (saying where it is).
    """
    todo = round_to_lay(state)
    where = state.place_of_each()
    showdown = todo.stage == "showdown"
    hint = (f"type the {todo.count} Big Bad(s) laid, left to right, from "
            f"{', '.join(todo.allowed)}" if showdown else
            f"type the {todo.count} card(s) dealt from the maze, left to right, like 8D 3C")
    codes: list[str] = []
    for word in words:
        try:
            code = parse_card(word).code
        except CardCodeError:
            raise TypedCardError(
                f"{word!r} is not a card: a rank A, 2-10, J, Q, K and a suit D, C, H, S "
                f"(8D, 10C, QS), or JK1 / JK2; {hint}", code="not_a_card") from None
        if code in codes:
            raise TypedCardError(f"{code} is typed twice; {hint}", code="typed_twice",
                                 allowed=todo.allowed)
        codes.append(code)
    if len(codes) != todo.count:
        raise TypedCardError(f"this round lays {todo.count} pathway(s), not {len(codes)}; "
                             f"{hint}", code="wrong_count", allowed=todo.allowed)
    for code in codes:
        if code in todo.allowed:
            continue
        if code == "AH":
            why = "AH is the Prize: it stays aside until the Hero wins"
        elif showdown and not card(code).is_ace:
            why = f"{code} is not a Big Bad: the showdown lays only the aces AD, AC and AS"
        elif not showdown and card(code).is_ace:
            why = f"{code} is a Big Bad: the aces wait until the maze is empty"
        else:
            why = f"{code} {PLACE_WORDS.get(where[code], 'is not in the maze')}"
        raise TypedCardError(f"{why}; {hint}", code="not_on_the_table", allowed=todo.allowed)
    return tuple(codes)


def split_typed(line: str) -> list[str]:
    """A typed line of cards or dice: words split at spaces and commas (bounded length)."""
    if len(line) > MAX_TYPED:
        raise TypedCardError(f"the line is {len(line)} characters long; at most {MAX_TYPED}",
                             code="too_long")
    return line.replace(",", " ").split()


def check_rolls(words: Sequence[str], advantage: bool) -> tuple[int, ...]:
    """Die results typed from a real die: one (two with advantage), each 1 to 6."""
    need = 2 if advantage else 1
    what = "two dice (advantage: the higher counts), like 3 5" if advantage else "one die"
    values: list[int] = []
    for word in words:
        if not word.isdigit() or not 1 <= int(word) <= 6:
            raise TypedCardError(f"{word!r} is not a die result: a die shows 1 to 6; type "
                                 f"{what}", code="bad_roll", allowed=[str(v) for v in range(1, 7)])
        values.append(int(word))
    if len(values) != need:
        raise TypedCardError(f"type {what}, not {len(values)} number(s)", code="wrong_count",
                             allowed=[str(v) for v in range(1, 7)])
    return tuple(values)
