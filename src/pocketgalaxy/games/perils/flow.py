"""What the rules of Perils & Pathways read at every action, worked out once: the options'
rulings in native fields (`RuleFlow`, one per options object) and tables by card code.

Compiled with mypyc (scripts/compile_core.py). The options are a pure frozen dataclass, so each
of their attributes read by the compiled rules goes through the generic attribute path (about
200 instructions), and a game's ~67 actions read a dozen of them; options never change, so a
copy made once per options object stays true. Card facts come from tables here rather than
`card(code)`, a look-up and an object per question.
"""

from __future__ import annotations

from typing import Final

from pocketgalaxy.core.cards import DECK_54, card
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.state import PerilsState

BIG_BAD_DIFFICULTY: Final = 11

RANK: Final[dict[str, int]] = {code: card(code).rank for code in DECK_54}
"""A card's rank by its code (a base card's value)."""

DIFFICULTY: Final[dict[str, int]] = {
    code: BIG_BAD_DIFFICULTY if card(code).is_ace else card(code).rank for code in DECK_54}
"""What a card asks to pass: its rank, an ace (a Big Bad) 11."""

IS_ACE: Final[frozenset[str]] = frozenset(code for code in DECK_54 if card(code).is_ace)
IS_NUMBER: Final[frozenset[str]] = frozenset(code for code in DECK_54 if card(code).is_number)


class RuleFlow:
    """The rulings one options object gives, read once (see the module text). The rules keep
    the last one and compare its `options` by identity."""

    def __init__(self, options: PerilsOptions) -> None:
        self.options = options
        self.pathways_per_round: int = options.pathways_per_round
        self.discard_leftover: bool = options.final_short_round == "discard_leftover"
        self.all_big_bads_at_once: bool = options.showdown_order == "hero_chooses"
        self.shuffled_pathways: bool = options.pathway_order == "shuffled"
        self.reveal_unchosen: bool = bool(options.reveal_unchosen)
        self.max_health: int = options.max_health
        self.autopass_strict: bool = options.autopass_comparison == ">"
        self.success_at_least: bool = options.success_comparison == ">="
        self.skill_adds_to_roll: bool = bool(options.skill_adds_to_roll)
        self.showdown_zero_health_loses: bool = options.showdown_zero_health == "lose"
        self.hero_loses_levels: bool = options.lost_levels_chooser == "hero"
        self.free_showdown_sense: bool = options.showdown_sense == "free"
        self.clarity: str = options.clarity


def level_of(state: PerilsState, suit: str) -> int:
    """One skill's level (PP-R2, PP-R16): its base card value(s) plus its tucked cards; the
    `levels` entry of that suit without building the whole dict."""
    level = len(state.tucked[suit])
    for code in state.base:
        if code[-1] == suit:
            level += RANK[code]
    return level


def levels_of(state: PerilsState) -> dict[str, int]:
    """Skill level per suit (D, C, S, H). A base card is a number card, so its suit is its
    code's last letter; any other suit is refused with a KeyError, as a look-up by it was."""
    tucked = state.tucked
    d = len(tucked["D"])
    c = len(tucked["C"])
    s = len(tucked["S"])
    h = len(tucked["H"])
    for code in state.base:
        suit = code[-1]
        if suit == "D":
            d += RANK[code]
        elif suit == "C":
            c += RANK[code]
        elif suit == "S":
            s += RANK[code]
        elif suit == "H":
            h += RANK[code]
        else:
            raise KeyError(suit)
    return {"D": d, "C": c, "S": s, "H": h}
