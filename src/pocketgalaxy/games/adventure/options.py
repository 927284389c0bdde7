"""Every Adventure Cards ruling as a named option with its default (rules.md section 3.4).

The defaults follow the rule text as the project reads it; each alternative is one field away.
`describe_options(AdventureOptions)` prints the table that docs/rules/adventure.md mirrors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pocketgalaxy.core.options import option

FirstPlayer = Literal["random", "seat0"]
NextAfterFailedRequest = Literal["left", "asked_player"]
TiebreakScope = Literal["all_mission_cards", "marvels_only"]
FinalTie = Literal["shared", "marvel_sum"]
Deal = Literal["printed", "even"]


@dataclass(frozen=True, kw_only=True)
class AdventureOptions:
    """The rulings of Adventure Cards. Frozen: a game keeps its options from start to end."""

    require_mission_card_to_request: bool = option(
        False,
        "A request must name a card of a mission the requester already holds a card of.",
        rule="AC-A1",
    )
    peek_after_failed_request: bool = option(
        True,
        "After a refused request the requester may privately peek at one face-down table card.",
        rule="AC-A3",
    )
    auto_claim: bool = option(
        True,
        "Solved missions are claimed automatically at the start of the turn and after each gain.",
        rule="AC-A5",
    )
    first_player: FirstPlayer = option(
        "random",
        "Who takes the first turn: a seeded random seat, or seat 0.",
        choices=("random", "seat0"),
        rule="AC-A9",
    )
    next_after_failed_request: NextAfterFailedRequest = option(
        "left",
        "Who plays after a refused request: the requester's left neighbour or the asked player.",
        choices=("left", "asked_player"),
        rule="AC-A11",
    )
    forbid_empty_targets: bool = option(
        False,
        "Refuse requests aimed at a player who holds no test-cards.",
        rule="AC-A12",
    )
    forbid_known_misses: bool = option(
        False,
        "Refuse asking a player for a card everyone saw them lack (refused or handed it over).",
        rule="AC-A2",
    )
    allow_any_declaration: bool = option(
        False,
        "Allow declaring an identity from one's own hand or the discard (a guaranteed miss).",
        rule="AC-A13",
    )
    tiebreak_scope: TiebreakScope = option(
        "all_mission_cards",
        "Equal mission counts are broken by the sum of all claimed mission-card numbers, "
        "or only of the marvels.",
        choices=("all_mission_cards", "marvels_only"),
        rule="AC-A7",
    )
    final_tie: FinalTie = option(
        "shared",
        "If the tie-break sum is also equal: a shared win, or compare marvel numbers first.",
        choices=("shared", "marvel_sum"),
        rule="AC-A7",
    )
    max_turns: int = option(
        10000,
        "Safety cap: after this many turns the game ends and is scored as it stands.",
        rule="AC-R14",
    )
    deal: Deal = option(
        "printed",
        "Deal as printed (2: 8+8 table, 3: 6+6, 4: 4+8, 5: 4+4) or share all cards evenly.",
        choices=("printed", "even"),
        rule="AC-A8",
    )

    def __post_init__(self) -> None:
        # Bad values are refused here too, so code that builds options directly is as safe
        # as options_from_json.
        from pocketgalaxy.core.errors import OptionsError

        if isinstance(self.max_turns, bool) or not isinstance(self.max_turns, int):
            raise OptionsError(f"option max_turns={self.max_turns!r} should be a whole number")
        if self.max_turns < 1:
            raise OptionsError(
                f"option max_turns={self.max_turns!r} must be at least 1 (AC-R14)",
                allowed=["any whole number >= 1"],
            )
        for name, allowed in (
            ("first_player", ("random", "seat0")),
            ("next_after_failed_request", ("left", "asked_player")),
            ("tiebreak_scope", ("all_mission_cards", "marvels_only")),
            ("final_tie", ("shared", "marvel_sum")),
            ("deal", ("printed", "even")),
        ):
            value = getattr(self, name)
            if value not in allowed:
                raise OptionsError(
                    f"option {name}={value!r} is not allowed", allowed=[repr(a) for a in allowed]
                )
