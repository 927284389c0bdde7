"""One test per numbered rule PP-R1..PP-R22 of docs/rules/perils.md, with pinned decks and rolls.

The Pilot (cosmic) holds 2D, 4C, 6S, 3H: Strength 2, Agility 4, Piloting 6, health 3.
"""

from __future__ import annotations

from collections import Counter

import pytest
from perils_testkit import R, act, attempt, drain, first, move, names, new, take

from pocketgalaxy.agents.perils import ComputerTeller, RuleBasedHero
from pocketgalaxy.core.cards import card
from pocketgalaxy.core.errors import IllegalActionError, OptionsError
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.actions import (
    ChooseArchetype,
    ChooseLostLevels,
    MakePlan,
    Roll,
)
from pocketgalaxy.games.perils.content import load_theme
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.session import Session


def test_pp_r1_two_seats_hero_then_teller() -> None:
    assert (R.min_players, R.max_players) == (2, 2)
    with pytest.raises(OptionsError, match="exactly 2 players"):
        R.new(PerilsOptions(), 1, players=3)
    state = R.new(PerilsOptions(), 1)
    assert (state.phase, R.to_act(state)) == ("archetype", 0)
    with pytest.raises(IllegalActionError, match="not_your_turn"):
        R.apply(state, 1, ChooseArchetype("pilot"))
    state, _ = act(state, ChooseArchetype("pilot"))
    assert (state.phase, R.to_act(state)) == ("describe", 1)


def test_pp_r2_archetype_cards_become_skill_cards() -> None:
    state, events = act(R.new(PerilsOptions(), 3), ChooseArchetype("pilot"))
    assert first(events, ev.ArchetypeChosen).cards == ("2D", "4C", "6S", "3H")
    assert sorted(state.base) == sorted(["2D", "4C", "6S", "3H"])
    assert R.levels(state) == {"D": 2, "C": 4, "S": 6, "H": 3}
    assert not {"2D", "4C", "6S", "3H"} & set(state.draw + state.pathways)
    view = R.view(state, 0)
    assert view.skill("S") is not None and view.skill("S").name == "Piloting"


def test_pp_r3_start_health_three_and_no_items() -> None:
    state = new()
    assert (state.health, state.inventory) == (3, [])


def test_pp_r4_ace_of_hearts_is_the_prize() -> None:
    state = new()
    assert state.prize == ["AH"]
    assert "AH" not in state.draw + state.big_bads
    assert R.view(state, 0).prize in load_theme("cosmic").prizes


def test_pp_r5_big_bads_are_three_shuffled_aces_above_the_prize() -> None:
    orders = set()
    for seed in range(30):
        state = R.new(PerilsOptions(archetype="pilot"), seed)
        assert sorted(state.big_bads) == ["AC", "AD", "AS"]
        assert not any(card(c).is_ace for c in state.draw + state.pathways)
        orders.add(tuple(state.big_bads))
    assert len(orders) > 1
    assert new(bigs=("AS", "AC", "AD")).big_bads == ["AS", "AC", "AD"]


def test_pp_r6_draw_pile_holds_46_cards_pinned_on_top() -> None:
    state = new(draw=("9C", "JK2", "5H"))
    assert state.pathways == ["9C", "JK2"] and state.draw[0] == "5H"
    pile = state.pathways + state.draw
    kinds = Counter(
        "item" if card(c).is_face or card(c).is_joker
        else "gift" if c.endswith("H") else "peril"
        for c in pile
    )
    assert len(pile) == 46
    assert kinds == {"peril": 24, "gift": 8, "item": 14}


@pytest.mark.parametrize("k", [2, 3])
def test_pp_r7_teller_lays_the_top_k_cards(k: int) -> None:
    state = R.new(PerilsOptions(pathways_per_round=k), 5,
                  pinned={"draw": ["5D", "6D", "7D", "8D"]})
    state, events = act(state, ChooseArchetype("pilot"))
    dealt = first(events, ev.PathwaysDealt)
    assert dealt.cards == ("5D", "6D", "7D")[:k] and dealt.audience == (1,)
    assert first(events, ev.PathwaysLaid).count == k
    assert all(p.face is None for p in R.view(state, 0).pathways)
    assert [p.face for p in R.view(state, 1).pathways] == ["5D", "6D", "7D"][:k]


def test_pp_r8_sense_cycles_sight_sound_smell() -> None:
    state = new(draw=("4H", "5H", "6H", "7H", "8H", "9H", "10H", "JD"))
    senses = [R.sense(state)]
    for _ in range(3):
        state, events = take(state, 0)
        senses.append(first(events, ev.PathwaysLaid).sense)
    assert senses == ["sight", "sound", "smell", "sight"]


def test_pp_r9_unchosen_pathway_stays_face_down_out_of_play() -> None:
    state = new(draw=("4H", "5H", "6H", "7H"))
    state, events = take(state, 1)
    assert first(events, ev.CardRevealed).card == "5H"
    assert state.unchosen == ["4H"]
    hero = R.view(state, 0)
    assert hero.unchosen_faces is None and hero.table["unchosen"] == 1
    assert "4H" not in str(hero.to_json()["pathways"])


def test_pp_r10_gift_heals_item_joins_inventory_peril_asks_for_a_plan() -> None:
    state = new(draw=("4H", "5H", "JD", "QD", "5D", "6D"))
    state.health = 2
    state, events = take(state, 0)
    assert first(events, ev.HealthGained).health == 3 and "4H" in state.spent
    state, events = take(state, 0)
    assert first(events, ev.ItemGained).card == "JD" and state.inventory == ["JD"]
    state, events = take(state, 0)
    assert first(events, ev.CardRevealed).kind == "peril" and state.phase == "plan"


def test_pp_r11_each_flipped_card_is_resolved_once() -> None:
    for seed in range(4):
        session = Session(R, PerilsOptions(), seed=seed,
                          agents={0: RuleBasedHero(seed=seed), 1: ComputerTeller(seed=seed)})
        session.run_bots()
        resolved: set[str] = set()
        for event in session.events_for(None):
            if isinstance(event, ev.CardRevealed):
                assert event.card not in resolved
                resolved.add(event.card)
            elif isinstance(event, ev.CardsShuffledBack):
                resolved -= set(event.cards)
        assert session.is_over


def test_pp_r12_automatic_pass_only_when_level_beats_difficulty() -> None:
    state = new(draw=("5S", "4H", "7S", "5H"))
    move(state, "2S", "tucked_S")  # Piloting 7: not strictly above the 7S below
    state, events = take(state, 0)
    passed = first(events, ev.PerilPassed)
    assert (passed.level, passed.difficulty) == (7, 5)
    assert "5S" in state.spent and R.levels(state)["S"] == 7 and state.phase == "describe"
    state, events = take(state, 0)
    assert "PerilPassed" not in names(events) and state.phase == "plan"


def test_pp_r13_plan_channels_one_other_skill_and_commits_items() -> None:
    state = new(draw=("QC", "4H", "KS", "5H", "8D", "6H"), rolls=(5,))
    for _ in range(3):
        state, _ = take(state, 0)
    assert state.inventory == ["QC", "KS"] and state.phase == "plan"
    for bad, reason in [
        (MakePlan("D"), "channel_same_suit"),
        (MakePlan("H"), "channel_not_allowed"),
        (MakePlan("S", ("JD",)), "item_not_held"),
        (MakePlan("S", ("QC", "QC")), "duplicate_item"),
    ]:
        with pytest.raises(IllegalActionError, match=reason):
            act(state, bad)
    state, events = act(state, MakePlan("S", ("QC", "KS"),
                                        "I steer while the mag-boots clamp me to the hull"))
    judged = first(events, ev.PlanJudged)
    assert (judged.approve_channel, judged.approve_items, judged.bonus) == (True, ("QC",), 2)
    state, events = act(state, Roll())
    assert first(events, ev.DieRolled).total == 7
    assert state.inventory == ["KS"] and "QC" in state.discarded


def test_pp_r14_total_is_die_plus_bonuses_with_advantage_keeping_the_higher() -> None:
    state = new(draw=("QC", "4H", "KS", "5H", "JD", "6H", "9D", "7H"), rolls=(2, 5),
                teller_policy="approve_all")
    for _ in range(4):
        state, _ = take(state, 0)
    state, events = attempt(state, "S", ("QC", "KS", "JD"))
    rolled = first(events, ev.DieRolled)
    assert (rolled.values, rolled.advantage, rolled.bonus, rolled.total) == ((2, 5), True, 4, 9)
    assert "PerilSucceeded" in names(events)


def test_pp_r15_committed_items_are_discarded_even_on_failure() -> None:
    state = new(draw=("JD", "4H", "9C", "5H"), rolls=(1,), teller_policy="approve_all")
    state, _ = take(state, 0)
    state, _ = take(state, 0)
    state, events = attempt(state, "S", ("JD",))
    assert "PerilFailed" in names(events)
    assert first(events, ev.ItemsSpent).cards == ("JD",)
    assert state.inventory == [] and "JD" in state.discarded


def test_pp_r16_success_tucks_behind_skill() -> None:
    state = new(draw=("5D", "4H"), rolls=(4,), teller_policy="approve_all")
    state, _ = take(state, 0)
    state, events = attempt(state, "C")
    assert first(events, ev.PerilSucceeded).level == 3
    assert state.tucked["D"] == ["5D"] and R.levels(state)["D"] == 3


def test_pp_r17_failure_tucks_damage_and_costs_health() -> None:
    state = new(draw=("9D", "4H"), rolls=(1,))
    state, _ = take(state, 0)
    state, events = attempt(state, "C")
    assert first(events, ev.HealthLost).health == 2
    assert state.damage == ["9D"] and state.health == 2


def test_pp_r18_zero_health_penalty_then_the_game_goes_on() -> None:
    state = new(draw=("9D", "4H"), rolls=(1,))
    for code, place in [("7C", "tucked_C"), ("8C", "tucked_C"), ("9S", "tucked_S"),
                        ("10S", "tucked_S"), ("JD", "inventory"), ("QD", "inventory"),
                        ("KD", "inventory")]:
        move(state, code, place)
    state.health = 1
    state, _ = take(state, 0)
    state, events = attempt(state, "C")
    assert names(events)[-2:] == ["ZeroHealth", "ItemsLost"]
    assert state.phase == "lose_levels" and R.to_act(state) == 0
    assert len(R.legal_actions(state, 0)) == 6  # C(4, 2)
    with pytest.raises(IllegalActionError, match="wrong_count"):
        act(state, ChooseLostLevels(("7C",)))
    lost = {"JD", "QD", "KD", "7C", "9S"}
    state, events = act(state, ChooseLostLevels(("7C", "9S")))
    back = first(events, ev.CardsShuffledBack).cards
    assert len(back) == 3 and set(back) <= lost
    assert set(back) <= set(state.draw + state.pathways)
    assert (lost - set(back)) | {"9D"} <= set(state.discarded)
    assert R.levels(state) == {"D": 2, "C": 5, "S": 7, "H": 3}
    assert (state.health, state.damage, state.inventory) == (3, [], [])
    assert state.phase == "describe" and first(events, ev.HealthReset).health == 3


def _walk_main_phase(k: int) -> int:
    """Play the main phase with sure-fire rolls; returns the showdown's round number."""
    state = new(rolls=(6,) * 200, pathways_per_round=k, skill_adds_to_roll=True,
                start_health=10, max_health=10, teller_policy="approve_all")
    while state.stage == "main":
        state, events = take(state, 0)
        if state.phase == "plan":
            state, more = attempt(state, R.allowed_channels(state)[0])
            events += more
        for e in events:
            if isinstance(e, ev.ShowdownBegan):
                assert not state.draw
                return int(e.round)
    raise AssertionError("no showdown")


def test_pp_r19_rounds_repeat_until_the_draw_pile_is_empty() -> None:
    assert _walk_main_phase(2) == 24  # 23 rounds of two
    assert _walk_main_phase(3) == 17  # 15 rounds of three and a final round of one


def _at_showdown(rolls: tuple[int, ...], **options: object) -> object:
    state = new(draw=("4H", "5H"), bigs=("AD", "AS", "AC"), rolls=rolls, **options)
    drain(state)
    state, events = take(state, 0)
    assert "ShowdownBegan" in names(events)
    return state


def test_pp_r20_showdown_lays_the_big_bads_at_difficulty_eleven() -> None:
    state = _at_showdown((6, 6))
    assert state.stage == "showdown" and len(state.pathways) == 3
    assert [p.face for p in R.view(state, 0).pathways] == [None, None, None]
    state, events = take(state, 1)
    assert first(events, ev.CardRevealed).difficulty == 11 and state.current == "AS"
    state, events = attempt(state, "D")
    assert first(events, ev.DieRolled).total == 6 and state.health == 2
    assert first(events, ev.BigBadFaced).result == "failed"
    assert sorted(state.pathways) == ["AC", "AD"]


def test_pp_r21_zero_health_in_the_showdown_loses() -> None:
    state = _at_showdown((1, 1, 1))
    for _ in range(3):
        state, _ = take(state, 0)
        state, events = attempt(state, R.allowed_channels(state)[0])
    assert "GameLost" in names(events) and state.phase == "over"
    outcome = R.outcome(state)
    assert outcome is not None and outcome.winners == ()
    assert outcome.reason == "zero_health_in_showdown"


def test_pp_r22_surviving_all_three_big_bads_wins_the_prize() -> None:
    state = _at_showdown((1, 1, 6, 2), teller_policy="approve_all")
    for code in ("JD", "QD", "KD", "JC"):
        move(state, code, "inventory")
    for _ in range(2):
        state, _ = take(state, 0)
        state, _ = attempt(state, "C" if state.current != "AC" else "D")
    assert state.health == 1
    state, events = take(state, 0)  # the last Big Bad is laid alone and taken at once
    state, more = attempt(state, "D", ("JD", "QD", "KD", "JC"))
    events += more
    assert first(events, ev.DieRolled).total == 11
    won = first(events, ev.GameWon)
    assert won.prize in load_theme("cosmic").prizes and won.health == 1
    outcome = R.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1) and outcome.reason == "prize_won"


def test_pp_r18_penalty_needs_no_choice_when_half_is_nothing() -> None:
    state = new(draw=("9D", "4H"), rolls=(1,), shuffle_back_rule="all")
    move(state, "7C", "tucked_C")  # one gained level: half rounded down is none
    move(state, "KS", "inventory")
    state.health = 1
    state, _ = take(state, 0)
    state, events = attempt(state, "C")
    assert first(events, ev.LevelsLost).cards == ()
    assert first(events, ev.CardsShuffledBack).cards == ("KS",)
    assert state.tucked["C"] == ["7C"] and state.phase == "describe" and state.health == 3
