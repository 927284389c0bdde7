"""Every ruling of Perils & Pathways as a named option with its default (docs/rules/perils.md).

The rule tags refer to /work/shared/rules.md section 1: PP-R* are the numbered rules, PP-A* the
rulings where the rule text is silent or contradicts itself. `PerilsOptions()` is the faithful
game; `EASY` is the suggested easier preset.
"""

from __future__ import annotations

from dataclasses import dataclass

from pocketgalaxy.core.errors import OptionsError
from pocketgalaxy.core.options import option

HINT_FIDELITIES = ("suit+band", "band_only", "kind_only", "none")
CLARITIES = ("plain", "fair", "subtle", "cryptic")
DISGUISES = ("never", "sometimes", "often")
TELLER_POLICIES = ("rubric", "approve_all", "human")
SHUFFLE_BACK_RULES = ("random_half_up", "teller_chooses", "items_only", "all", "none")
LOST_LEVELS_CHOOSERS = ("hero", "teller", "random", "most_recent")


@dataclass(frozen=True, kw_only=True)
class PerilsOptions:
    """The rulings of Perils & Pathways. The defaults are the faithful reading of the rule text."""

    pathways_per_round: int = option(
        2, "pathways laid out each round (3 is the quicker game)", choices=(2, 3), rule="PP-R7"
    )
    success_comparison: str = option(
        ">=", "a roll succeeds when total >= difficulty, or only when total > difficulty",
        choices=(">=", ">"), rule="PP-A1",
    )
    autopass_comparison: str = option(
        ">", "automatic pass when skill level > difficulty (or >=)", choices=(">", ">="),
        rule="PP-A3",
    )
    skill_adds_to_roll: bool = option(
        False, "add the tested skill's level to the roll (a much easier house rule)", rule="PP-A2"
    )
    start_health: int | str = option(
        3, "starting health: a number 1..10, or 'heart_card_value' (the archetype's heart card)",
        rule="PP-A4",
    )
    max_health: int = option(
        3, "healing gifts heal only while health is below this", rule="PP-A4"
    )
    reset_health: int | None = option(
        None, "health after the zero-health penalty (None: the starting health)", rule="PP-A10"
    )
    heart_is_skill: bool = option(
        False, "the heart card is a fourth skill that may be channelled", rule="PP-A4"
    )
    channel_bonus: str = option(
        "flat1", "a channelled skill gives +1, or its whole level", choices=("flat1", "level"),
        rule="PP-A6",
    )
    teller_policy: str = option(
        "rubric", "who judges plans: the documented rubric, approve everything, or the Teller seat",
        choices=TELLER_POLICIES, rule="PP-A7",
    )
    advantage_threshold: int | None = option(
        3, "approved bonus sources needed for advantage (None: never)", rule="PP-A7"
    )
    item_suit_restriction: bool = option(
        False, "an item helps only with its own suit or the channelled suit (jokers wild)",
        rule="PP-A8",
    )
    half_scope: str = option(
        "total", "at zero health lose half of all gained levels, or half in each skill",
        choices=("total", "per_skill"), rule="PP-A9",
    )
    half_rounding: str = option(
        "down", "round the half of the gained levels down or up", choices=("down", "up"),
        rule="PP-A9",
    )
    lost_levels_chooser: str = option(
        "hero", "who picks the lost levels at zero health", choices=LOST_LEVELS_CHOOSERS,
        rule="PP-A9",
    )
    shuffle_back_rule: str = option(
        "random_half_up", "which lost cards go back into the draw pile at zero health",
        choices=SHUFFLE_BACK_RULES, rule="PP-A10",
    )
    reveal_unchosen: bool = option(
        False, "flip the unchosen pathways face up after each choice", rule="PP-A11"
    )
    final_short_round: str = option(
        "present_remaining", "when fewer cards than pathways remain: lay them out, or discard them",
        choices=("present_remaining", "discard_leftover"), rule="PP-A12",
    )
    archetype_schema: str = option(
        "one_per_suit", "archetypes are one number card per suit, or any four non-ace cards",
        choices=("one_per_suit", "free"), rule="PP-A13",
    )
    showdown_order: str = option(
        "hero_chooses", "the Hero picks the order of the Big Bads, or meets them one by one",
        choices=("hero_chooses", "sequential"), rule="PP-A14",
    )
    showdown_zero_health: str = option(
        "lose", "zero health in the showdown loses, or takes the penalty and goes on",
        choices=("lose", "penalty_continue"), rule="PP-A15",
    )
    win_condition: str = option(
        "survive", "win by surviving all three Big Bads, or only by defeating every one",
        choices=("survive", "defeat_all"), rule="PP-A15",
    )
    showdown_sense: str = option(
        "cycle", "the showdown keeps the sight/sound/smell cycle, or any sense is allowed",
        choices=("cycle", "free"), rule="PP-A16",
    )
    pathway_order: str = option(
        "as_dealt", "pathways lie in the order dealt, or the Teller's order is shuffled",
        choices=("as_dealt", "shuffled"), rule="PP-A20",
    )
    hint_fidelity: str = option(
        "suit+band", "what the computer Teller's descriptions reveal", choices=HINT_FIDELITIES,
        rule="PP-H1",
    )
    clarity: str = option(
        "fair", "how much a computer description conveys: plain, fair, subtle or cryptic",
        choices=CLARITIES, rule="PP-H2",
    )
    disguise: str = option(
        "sometimes", "how often a gift is described as a possible peril, an item as a lure",
        choices=DISGUISES, rule="PP-H3",
    )
    theme: str = option(
        "cosmic", "playsheet theme id (cosmic, dungeon) or a path to a theme TOML file",
        rule="PP-R2",
    )
    archetype: str | None = option(
        None, "archetype id chosen in advance (None: the Hero chooses by action)", rule="PP-R2"
    )

    def __post_init__(self) -> None:
        _check_int("max_health", self.max_health, 1, 10)
        if isinstance(self.start_health, str):
            if self.start_health != "heart_card_value":
                raise OptionsError(
                    f"option start_health={self.start_health!r} is not allowed (PP-A4)",
                    allowed=["an integer 1..10", "'heart_card_value'"],
                )
        else:
            _check_int("start_health", self.start_health, 1, 10)
        if self.reset_health is not None:
            _check_int("reset_health", self.reset_health, 1, 10)
        if self.advantage_threshold is not None:
            _check_int("advantage_threshold", self.advantage_threshold, 0, 20)
        if not isinstance(self.theme, str) or not self.theme.strip():
            raise OptionsError("option theme must be a theme id or a path to a TOML file")


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OptionsError(
            f"option {name}={value!r} should be a whole number {low}..{high}",
            allowed=[f"{low}..{high}"],
        )


EASY = PerilsOptions(skill_adds_to_roll=True)
"""The suggested easier preset: the skill level is added to every roll (PP-A2)."""
