"""One test per ruling (PP-A1..PP-A20, PP-H1): each option's default and its alternatives,
with pinned decks and rolls. The Pilot holds 2D, 4C, 6S, 3H."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from perils_testkit import R, act, attempt, drain, first, move, names, new, take

from pocketgalaxy.core.errors import IllegalActionError, OptionsError
from pocketgalaxy.core.options import describe_options, options_from_json
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.actions import (
    ChooseLostLevels,
    ChooseShuffleBack,
    JudgePlan,
    MakePlan,
    Roll,
)
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.state import PerilsState

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "perils.md"


def _peril(code: str, rolls: tuple[int, ...], **options: object) -> PerilsState:
    state = new(draw=(code, "4H"), rolls=rolls, **options)
    state, _ = take(state, 0)
    assert state.phase == "plan"
    return state


def _arrange_zero_health(**options: object) -> PerilsState:
    """Health 1, gained C: 7C 8C, S: 9S 10S 5S, items JD QD; the next roll fails 9D."""
    state = new(draw=("9D", "4H"), rolls=(1,), **options)
    for code, place in [("7C", "tucked_C"), ("8C", "tucked_C"), ("9S", "tucked_S"),
                        ("10S", "tucked_S"), ("5S", "tucked_S"), ("JD", "inventory"),
                        ("QD", "inventory")]:
        move(state, code, place)
    state.health = 1
    state, _ = take(state, 0)
    state, _ = attempt(state, "C")
    return state


@pytest.mark.parametrize(("comparison", "result"), [(">=", "PerilSucceeded"),
                                                    (">", "PerilFailed")])
def test_pp_a1_success_comparison(comparison: str, result: str) -> None:
    state = _peril("5D", (4,), success_comparison=comparison, teller_policy="approve_all")
    state, events = attempt(state, "C")
    assert first(events, ev.DieRolled).total == 5 and result in names(events)


@pytest.mark.parametrize(("adds", "total"), [(False, 7), (True, 9)])
def test_pp_a2_skill_adds_to_roll(adds: bool, total: int) -> None:
    state = _peril("9D", (6,), skill_adds_to_roll=adds, teller_policy="approve_all")
    state, events = attempt(state, "C")
    assert first(events, ev.DieRolled).total == total
    assert ("PerilSucceeded" in names(events)) is adds


@pytest.mark.parametrize(("comparison", "passes"), [(">", False), (">=", True)])
def test_pp_a3_autopass_comparison(comparison: str, passes: bool) -> None:
    state = new(draw=("7S", "4H"), autopass_comparison=comparison)
    move(state, "2S", "tucked_S")  # Piloting 7 against the 7S
    state, events = take(state, 0)
    assert ("PerilPassed" in names(events)) is passes


def test_pp_a4_start_health_heart_card_value_and_heart_is_skill() -> None:
    assert new(archetype="envoy").health == 3
    state = new(draw=("4H", "6H", "9D", "7H"), archetype="envoy",
                start_health="heart_card_value")
    assert state.health == 5  # the Envoy's 5H
    state, events = take(state, 0)
    assert "HealWasted" in names(events)  # healing works only below max_health 3
    state, _ = take(state, 0)
    with pytest.raises(IllegalActionError, match="channel_not_allowed"):
        act(state, MakePlan("H"))
    hearty = _peril("9D", (1,), heart_is_skill=True)
    assert "H" in R.allowed_channels(hearty)
    act(hearty, MakePlan("H"))
    with pytest.raises(OptionsError):
        PerilsOptions(start_health="lots")


def test_pp_a5_heal_at_full_health_is_wasted_and_spent() -> None:
    state, events = take(new(draw=("4H", "5H")), 0)
    assert first(events, ev.HealWasted).health == 3
    assert state.health == 3 and "4H" in state.spent


@pytest.mark.parametrize(("bonus", "value"), [("flat1", 1), ("level", 6)])
def test_pp_a6_channel_bonus(bonus: str, value: int) -> None:
    state = _peril("9D", (1,), channel_bonus=bonus, teller_policy="approve_all")
    state, events = attempt(state, "S")
    assert first(events, ev.DieRolled).bonus == value


def test_pp_a7_teller_policy_rubric_approve_all_and_human() -> None:
    draw = ("JD", "5H", "9C", "6H")

    def ready(**options: object) -> PerilsState:
        state = new(draw=draw, rolls=(3, 4), **options)
        state, _ = take(state, 0)
        state, _ = take(state, 0)
        return state

    state, events = act(ready(), MakePlan("D", ("JD",), "I just go for it"))
    assert first(events, ev.PlanJudged).bonus == 0  # rubric: nothing named
    state, events = act(ready(teller_policy="approve_all"), MakePlan("D", ("JD",)))
    assert first(events, ev.PlanJudged).bonus == 2
    state, events = act(ready(teller_policy="approve_all", advantage_threshold=2),
                        MakePlan("D", ("JD",)))
    assert first(events, ev.PlanJudged).advantage
    human = ready(teller_policy="human")
    human, _ = act(human, MakePlan("D", ("JD",), "a plan"))
    assert human.phase == "judge" and R.to_act(human) == 1
    with pytest.raises(IllegalActionError, match="item_not_in_plan"):
        act(human, JudgePlan(True, ("QD",), False))
    human, events = act(human, JudgePlan(False, ("JD",), True))
    assert first(events, ev.PlanJudged).by == "teller"
    human, events = act(human, Roll())
    assert first(events, ev.DieRolled).values == (3, 4)
    never = ready(teller_policy="human", advantage_threshold=None)
    never, _ = act(never, MakePlan(None, (), ""))
    with pytest.raises(IllegalActionError, match="nothing_to_approve"):
        act(never, JudgePlan(True, (), False))
    with pytest.raises(IllegalActionError, match="advantage_disabled"):
        act(never, JudgePlan(False, (), True))


def test_pp_a8_item_suit_restriction() -> None:
    state = new(draw=("QC", "5H", "QD", "6H", "JK1", "7H", "9D", "8H"),
                item_suit_restriction=True, teller_policy="approve_all", rolls=(1, 1))
    for _ in range(4):
        state, _ = take(state, 0)
    assert state.inventory == ["QC", "QD", "JK1"]
    with pytest.raises(IllegalActionError, match="item_wrong_suit"):
        act(state, MakePlan("S", ("QC",)))
    act(state, MakePlan("S", ("QD", "JK1")))  # own suit and a wild joker
    act(state, MakePlan("C", ("QC",)))  # the channelled suit
    free = new(draw=("QC", "5H", "9D", "6H"))
    free, _ = take(free, 0)
    free, _ = take(free, 0)
    act(free, MakePlan("S", ("QC",)))


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, 2),  # total 5 gained, half down
        ({"half_rounding": "up"}, 3),
        ({"half_scope": "per_skill"}, 2),  # C: 1 of 2, S: 1 of 3
        ({"half_scope": "per_skill", "half_rounding": "up"}, 3),  # C: 1, S: 2
    ],
)
def test_pp_a9_half_scope_and_rounding(options: dict[str, object], expected: int) -> None:
    state = _arrange_zero_health(**options)
    assert state.phase == "lose_levels" and state.levels_to_lose == expected
    choice = R.legal_actions(state, 0)[0]
    assert isinstance(choice, ChooseLostLevels) and len(choice.cards) == expected
    if options.get("half_scope") == "per_skill":
        with pytest.raises(IllegalActionError, match="wrong_split"):
            act(state, ChooseLostLevels(("9S", "10S", "5S")[:expected]))
    act(state, choice)


def test_pp_a9_lost_levels_chooser() -> None:
    teller = _arrange_zero_health(lost_levels_chooser="teller")
    assert teller.phase == "lose_levels" and R.to_act(teller) == 1
    recent = _arrange_zero_health(lost_levels_chooser="most_recent")
    assert recent.phase == "describe"
    assert recent.tucked == {"D": [], "C": ["7C", "8C"], "S": ["9S"], "H": []}
    rand = _arrange_zero_health(lost_levels_chooser="random")
    assert sum(len(v) for v in rand.tucked.values()) == 3


@pytest.mark.parametrize(
    ("rule", "back"),
    [("random_half_up", 2), ("items_only", 2), ("all", 4), ("none", 0)],
)
def test_pp_a10_shuffle_back_rule(rule: str, back: int) -> None:
    state = _arrange_zero_health(shuffle_back_rule=rule, lost_levels_chooser="most_recent",
                                 half_scope="per_skill")
    # lost: JD, QD and the most recent C and S levels (8C, 5S): 4 cards
    returned = [e for e in _events_of_last_penalty(state)]
    assert len(returned) == back
    if rule == "items_only":
        assert sorted(returned) == ["JD", "QD"]


def _events_of_last_penalty(state: PerilsState) -> list[str]:
    lost = {"JD", "QD", "8C", "5S"}
    return sorted(c for c in state.draw + state.pathways if c in lost)


def test_pp_a10_teller_chooses_and_reset_health() -> None:
    state = _arrange_zero_health(shuffle_back_rule="teller_chooses",
                                 lost_levels_chooser="most_recent", reset_health=2)
    assert state.phase == "shuffle_back" and R.to_act(state) == 1
    with pytest.raises(IllegalActionError, match="not_a_lost_card"):
        act(state, ChooseShuffleBack(("KD",)))
    state, events = act(state, ChooseShuffleBack(("QD",)))
    assert first(events, ev.CardsShuffledBack).cards == ("QD",)
    assert state.health == 2 and "JD" in state.discarded


@pytest.mark.parametrize("reveal", [False, True])
def test_pp_a11_reveal_unchosen(reveal: bool) -> None:
    state, events = take(new(draw=("4H", "9C", "5H", "6H"), reveal_unchosen=reveal), 0)
    assert ("UnchosenRevealed" in names(events)) is reveal
    faces = R.view(state, 0).unchosen_faces
    assert faces == (("9C",) if reveal else None)


@pytest.mark.parametrize("rule", ["present_remaining", "discard_leftover"])
def test_pp_a12_final_short_round(rule: str) -> None:
    state = new(draw=("4H", "5H", "6H", "JD"), pathways_per_round=3, final_short_round=rule)
    for code in list(state.draw):
        if code != "JD":
            move(state, code, "spent")
    state, events = take(state, 0)
    if rule == "present_remaining":
        assert first(events, ev.PathwaysLaid).count == 1 and state.stage == "main"
        state, events = take(state, 0)
        assert first(events, ev.PathwayChosen).automatic and "JD" in state.inventory
    else:
        assert first(events, ev.LeftoverDiscarded).count == 1 and "JD" in state.discarded
    assert state.stage == "showdown"


def test_pp_a13_archetype_schema_free(tmp_path: Path) -> None:
    from pocketgalaxy.games.perils.content import PLAYSHEETS

    text = (PLAYSHEETS / "cosmic.toml").read_text(encoding="utf-8")
    text = text.replace('cards = ["2D", "4C", "6S", "3H"]', 'cards = ["5D", "6D", "JC", "2S"]')
    path = tmp_path / "odd.toml"
    path.write_text(text, encoding="utf-8")
    from pocketgalaxy.core.errors import ContentError

    with pytest.raises(ContentError, match="archetypes.0..cards"):
        R.new(PerilsOptions(theme=str(path)), 1)
    state = R.new(PerilsOptions(theme=str(path), archetype_schema="free", archetype="pilot"), 1)
    assert R.levels(state) == {"D": 11, "C": 0, "S": 2, "H": 0}
    assert state.inventory == ["JC"]
    state.place_of_each()


def test_pp_a14_showdown_order_sequential() -> None:
    state = new(draw=("4H", "5H"), bigs=("AC", "AD", "AS"), rolls=(6, 6),
                showdown_order="sequential")
    drain(state)
    state, _ = take(state, 0)
    assert state.pathways == ["AC"]
    state, events = take(state, 0)
    assert first(events, ev.PathwayChosen).automatic and state.current == "AC"


def test_pp_a15_showdown_zero_health_penalty_continue_and_defeat_all() -> None:
    state = new(draw=("4H", "5H"), rolls=(1, 1, 1), showdown_zero_health="penalty_continue",
                win_condition="survive")
    drain(state)
    move(state, "JD", "inventory")
    state, _ = take(state, 0)
    for _ in range(3):
        state, _ = take(state, 0)
        state, events = attempt(state, R.allowed_channels(state)[0])
    assert "ZeroHealth" in names(events) and "JD" in state.discarded
    assert first(events, ev.CardsShuffledBack).cards == ()
    assert R.outcome(state) is not None and R.outcome(state).winners == (0, 1)
    strict = new(draw=("4H", "5H"), rolls=(1, 6, 6, 6, 6), win_condition="defeat_all",
                 skill_adds_to_roll=True)
    drain(strict)
    strict, _ = take(strict, 0)
    for _ in range(3):
        strict, _ = take(strict, 0)
        if strict.phase == "plan":
            strict, events = attempt(strict, R.allowed_channels(strict)[0])
    outcome = R.outcome(strict)
    assert outcome is not None and outcome.winners == ()
    assert outcome.reason == "big_bad_not_defeated" and strict.health == 1
    assert strict.defeated == ["AS"]  # Piloting 6 + 6 beat it; the others failed


@pytest.mark.parametrize(("sense", "expected"), [("cycle", "sound"), ("free", "free")])
def test_pp_a16_showdown_sense(sense: str, expected: str) -> None:
    state = new(draw=("4H", "5H"), showdown_sense=sense)
    drain(state)
    state, events = take(state, 0)
    assert first(events, ev.PathwaysLaid).sense == expected  # the showdown is round 2
    assert state.round == 2


def test_pp_a17_the_aces_follow_the_seed_text() -> None:
    state = new()
    assert state.prize == ["AH"] and sorted(state.big_bads) == ["AC", "AD", "AS"]


def test_pp_a18_jokers_are_items_only() -> None:
    state, events = take(new(draw=("JK1", "4H", "JK2", "5H")), 0)
    assert first(events, ev.CardRevealed).kind == "item" and state.inventory == ["JK1"]


def test_pp_a19_channel_and_items_are_optional() -> None:
    state = _peril("5D", (5,))
    state, events = attempt(state)
    assert first(events, ev.DieRolled).bonus == 0 and "PerilSucceeded" in names(events)


def test_pp_a20_pathway_order() -> None:
    assert new(draw=("4H", "5H")).pathways == ["4H", "5H"]
    orders = {tuple(new(draw=("4H", "5H"), seed=s, pathway_order="shuffled").pathways)
              for s in range(20)}
    assert orders == {("4H", "5H"), ("5H", "4H")}


@pytest.mark.parametrize(
    ("fidelity", "hint"),
    [("suit+band", {"kind": "peril", "suit": "C", "band": "high"}),
     ("band_only", {"kind": "peril", "band": "high"}),
     ("kind_only", {"kind": "peril"}),
     ("none", {})],
)
def test_pp_h1_hint_fidelity(fidelity: str, hint: dict[str, str]) -> None:
    state = new(draw=("9C", "JD"), hint_fidelity=fidelity, clarity="plain", disguise="never")
    from perils_testkit import describe

    state, _ = describe(state)
    view = R.view(state, 0)
    assert view.pathways[0].hint == hint
    assert view.pathways[1].hint == ({"kind": "item"} if fidelity != "none" else {})


def test_options_refuse_bad_values() -> None:
    with pytest.raises(OptionsError):
        options_from_json(PerilsOptions, {"pathways_per_round": 4})
    with pytest.raises(OptionsError):
        options_from_json(PerilsOptions, {"teller": "x"})
    with pytest.raises(OptionsError):
        PerilsOptions(reset_health=0)
    with pytest.raises(OptionsError, match="not an archetype"):
        R.new(PerilsOptions(archetype="wizard"), 1)


def test_docs_table_lists_every_option() -> None:
    text = DOC.read_text(encoding="utf-8")
    for info in describe_options(PerilsOptions):
        row = re.search(rf"^\| `{re.escape(info.name)}` \|(.+)$", text, re.M)
        assert row, f"option {info.name} missing from {DOC.name}"
        assert f"`{info.default!r}`" in row.group(1) or f"`{info.default}`" in row.group(1)
        assert info.rule in row.group(1), info.name
