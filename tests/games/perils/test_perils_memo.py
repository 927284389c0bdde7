"""The rules' memo tables give what a fresh computation gives, whatever came before them."""

from __future__ import annotations

from pocketgalaxy.games.perils.narration import suggest_descriptions
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.rules import PerilsRules
from pocketgalaxy.games.perils.state import PerilsState
from pocketgalaxy.registry import perils_rules


def _at_describe(rules: PerilsRules, seed: int) -> PerilsState:
    """A seeded game played with the first legal action until the Teller must describe."""
    state = rules.new(PerilsOptions(), seed)
    while state.phase != "describe":
        seat = rules.to_act(state)
        assert seat is not None
        rules.apply_unchecked(state, seat, rules.legal_actions(state, seat)[0])
    return state


def test_suggestions_depend_on_every_earlier_description_not_on_the_memo() -> None:
    rules = perils_rules()
    first = _at_describe(rules, 7)
    first.history = ["An earlier text.", "The last text."]
    remembered = rules.suggestions(first)
    assert len(remembered) == len(first.pathways) > 0
    # Same seed, round, cards, number of earlier texts and last text; but one earlier text is
    # the description the first state was given, so this state must be told something else.
    second = first.clone()
    second.history = [remembered[0], "The last text."]
    expected = suggest_descriptions(second, rules.theme(second.options), rules.sense(second))
    assert remembered[0] not in expected
    assert rules.suggestions(second) == expected
