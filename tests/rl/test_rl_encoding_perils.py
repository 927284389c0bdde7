"""The Perils & Pathways Hero action space and observation: exact masks, round trips, hints."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pocketgalaxy.agents.registry import make_agent
from pocketgalaxy.core.cards import DECK_54
from pocketgalaxy.core.errors import IllegalActionError, MalformedActionError
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils.actions import (
    ChooseArchetype,
    ChooseLostLevels,
    ChoosePathway,
    DescribePathways,
    MakePlan,
    Roll,
)
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.registry import perils_rules
from pocketgalaxy.rl.encoding.perils import CHOICE_CAP, PerilsActionCodec, PerilsObservation
from pocketgalaxy.session import Session

RULES = perils_rules()
THEME = RULES.theme(PerilsOptions())

# (rulings, whether these seeds reach a zero-health choice of lost levels)
OPTION_SETS: list[tuple[dict[str, Any], bool]] = [
    ({"teller_policy": "approve_all"}, True),
    ({"pathways_per_round": 3, "heart_is_skill": True, "teller_policy": "approve_all"}, False),
    ({"item_suit_restriction": True, "showdown_zero_health": "penalty_continue",
      "teller_policy": "human"}, True),
    ({"half_scope": "per_skill", "lost_levels_chooser": "hero", "skill_adds_to_roll": True},
     True),
]


@pytest.mark.parametrize(("opts", "loses_levels"), OPTION_SETS)
def test_mask_is_exactly_the_heros_legal_actions_and_indices_round_trip(
    opts: dict[str, Any], loses_levels: bool,
) -> None:
    codec = PerilsActionCodec(THEME)
    enc = PerilsObservation(THEME)
    kinds: set[str] = set()
    for seed in range(3):
        teller = make_agent("perils", "teller", 1, 2, seed=seed)
        session = Session(RULES, opts, seed=seed, agents={1: teller})
        rng = Rng(seed + 100)
        while not session.is_over:
            session.run_bots()
            if session.is_over:
                break
            legal = session.legal_actions(0)
            mask = codec.mask(seat=0, legal=legal)
            assert int(mask.sum()) == len(legal)  # one index each, none shared
            for action in legal:
                index = codec.encode(action, seat=0, legal=legal)
                assert mask[index] == 1
                assert codec.decode(index, seat=0, legal=legal) == action
                kinds.add(type(action).__name__)
            obs = enc.encode(session.view(0))
            assert obs.shape == (enc.size,) and obs.dtype == np.float32
            assert 0.0 <= obs.min() and obs.max() <= 1.0
            session.act(0, rng.choice(legal))
    assert {"ChooseArchetype", "ChoosePathway", "MakePlan", "Roll"} <= kinds
    assert ("ChooseLostLevels" in kinds) == loses_levels


def test_plan_indices_are_channel_by_item_count() -> None:
    codec = PerilsActionCodec(THEME)
    plan0 = codec.layout["MakePlan"].start
    legal = [MakePlan(None, (), ""), MakePlan("C", (), ""), MakePlan("C", ("JD",), ""),
             MakePlan("C", ("JD", "QS"), "")]
    assert codec.encode(MakePlan("C", ("JD",), ""), legal=legal) == plan0 + 2 * 15 + 1
    assert codec.decode(plan0 + 2 * 15 + 2, legal=legal) == MakePlan("C", ("JD", "QS"), "")
    mask = codec.mask(seat=0, legal=legal)
    assert np.flatnonzero(mask).tolist() == [plan0, plan0 + 30, plan0 + 31, plan0 + 32]
    with pytest.raises(IllegalActionError, match="masked_action"):
        codec.decode(plan0 + 3 * 15 + 1, legal=legal)  # channel S is not offered
    with pytest.raises(MalformedActionError, match="canonical plans"):
        codec.encode(MakePlan("C", ("JD",), "I sprint"), legal=legal)
    with pytest.raises(MalformedActionError, match="canonical plans"):
        codec.encode(MakePlan("C", ("QS",), ""), legal=legal)  # not the first usable item


def test_list_choices_are_indices_into_the_rules_list_up_to_the_cap() -> None:
    codec = PerilsActionCodec(THEME, choice_cap=2)
    first = codec.layout["ChooseFromList"].start
    legal = [ChooseLostLevels(("3D",)), ChooseLostLevels(("4C",)), ChooseLostLevels(("5S",))]
    assert np.flatnonzero(codec.mask(seat=0, legal=legal)).tolist() == [first, first + 1]
    assert codec.decode(first + 1, legal=legal) == ChooseLostLevels(("4C",))
    assert codec.encode(ChooseLostLevels(("3D",)), legal=legal) == first
    with pytest.raises(MalformedActionError, match="first 2 entries"):
        codec.encode(ChooseLostLevels(("5S",)), legal=legal)
    assert PerilsActionCodec(THEME).layout["ChooseFromList"].size == CHOICE_CAP


def test_fixed_blocks_and_refusals() -> None:
    codec = PerilsActionCodec(THEME)
    assert codec.decode(0) == ChooseArchetype(THEME.archetypes[0].id)
    assert codec.decode(codec.layout["ChoosePathway"].start + 2) == ChoosePathway(2)
    assert codec.decode(codec.layout["Roll"].start) == Roll()
    assert codec.size == len(THEME.archetypes) + 3 + 75 + 1 + CHOICE_CAP
    with pytest.raises(MalformedActionError, match="computer Teller"):
        codec.encode(DescribePathways(("a door",)))
    with pytest.raises(MalformedActionError, match="no such archetype"):
        codec.encode(ChooseArchetype("wizard"))
    with pytest.raises(MalformedActionError, match="out of range"):
        codec.decode(-1)


# -- observations --------------------------------------------------------------------------
def _described(top: list[str]) -> Any:
    """A pinned game with the Pilot, the Teller's suggested descriptions given."""
    opts = PerilsOptions(archetype="pilot", teller_policy="approve_all", clarity="plain",
                         disguise="never")  # descriptions that tell suit and band
    state = RULES.new(opts, 5, pinned={"draw": top, "big_bads": ["AD", "AC", "AS"]})
    state, _ = RULES.apply(state, 1, RULES.legal_actions(state, 1)[0])
    return state


def test_observation_slots_match_the_heros_view() -> None:
    enc = PerilsObservation(THEME)
    lay = enc.layout
    obs = enc.encode(RULES.view(_described(["5D", "JH"]), 0))
    assert obs[lay["phase"].start + 2] == 1  # choose
    assert obs[lay["archetype"].slice].tolist() == [1, 0, 0, 0]  # pilot
    np.testing.assert_allclose(obs[lay["skill_level"].slice], [0.1, 0.2, 0.3, 0.15])
    assert obs[lay["health"].start] == 1.0
    paths = obs[lay["pathways"].slice].reshape(3, 11)
    # position 0: a peril (kind 0), suit D, band mid; position 1: an item; position 2: absent
    assert paths[0].tolist() == [1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0]
    assert paths[1].tolist() == [1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    assert not paths[2].any()
    seen = obs[lay["seen"].slice]
    assert {DECK_54[i] for i in np.flatnonzero(seen)} == {"2D", "4C", "6S", "3H"}
    start = lay["archetype_cards"].start
    np.testing.assert_allclose(obs[start:start + 4], [0.2, 0.4, 0.6, 0.3])


def test_the_hero_cannot_tell_apart_cards_the_hints_do_not_separate() -> None:
    enc = PerilsObservation(THEME)
    five = enc.encode(RULES.view(_described(["5D", "2H"]), 0))
    six = enc.encode(RULES.view(_described(["6D", "2H"]), 0))  # same suit, same band
    nine = enc.encode(RULES.view(_described(["9D", "2H"]), 0))  # another band
    assert np.array_equal(five, six)
    assert not np.array_equal(five, nine)
    # Once the Hero takes that pathway the card is face up, and the observation shows it.
    a = RULES.apply(_described(["5D", "2H"]), 0, ChoosePathway(0))[0]
    b = RULES.apply(_described(["6D", "2H"]), 0, ChoosePathway(0))[0]
    seen_a, seen_b = enc.encode(RULES.view(a, 0)), enc.encode(RULES.view(b, 0))
    cur = enc.layout["current"]
    assert seen_a[cur.stop - 1] == pytest.approx(5 / 11)
    assert seen_b[cur.stop - 1] == pytest.approx(6 / 11)
