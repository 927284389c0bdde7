"""The seat views as built now (shared per-theme values, remembered skills, odds and hints, the
legal actions' JSON made when read) against a reference built the plain way from the state,
field by field and as JSON, over seeded games under many option sets, with two games played in
turn so that every one-entry memo keeps changing hands."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from pocketgalaxy.core.options import options_to_json
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils.content import SENSES, cast_of
from pocketgalaxy.games.perils.narration import (
    Cue,
    _draw,
    card_kind,
    conveyed,
    mode_chances,
    prize_of,
)
from pocketgalaxy.games.perils.odds import odds_for_state
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.rules import PerilsRules
from pocketgalaxy.games.perils.state import PerilsState
from pocketgalaxy.games.perils.things import mix
from pocketgalaxy.games.perils.views import (
    ROLES,
    ItemView,
    PathwayView,
    PerilsView,
    PlanView,
    SkillView,
)
from pocketgalaxy.registry import perils_rules

OPTION_SETS: list[dict[str, Any]] = [
    {}, {"clarity": "plain"}, {"clarity": "cryptic", "disguise": "often"},
    {"clarity": "subtle", "hint_fidelity": "band_only"}, {"hint_fidelity": "kind_only"},
    {"hint_fidelity": "none"}, {"reveal_unchosen": True, "pathways_per_round": 3},
    {"showdown_sense": "free"}, {"channel_bonus": "level", "skill_adds_to_roll": True},
    {"teller_policy": "human", "success_comparison": ">"}, {"teller_policy": "approve_all"},
    {"item_suit_restriction": False, "heart_is_skill": True, "advantage_threshold": None},
    {"start_health": "heart_card_value", "max_health": 5, "theme": "dungeon"},
    {"theme": "dungeon", "clarity": "plain", "lost_levels_chooser": "hero"},
]


def reference_hints(state: PerilsState, rules: PerilsRules) -> list[dict[str, str]]:
    """Each pathway's hint from the unmemoised pieces: the cast, a stream seeded by
    `things.mix`, the mode drawn from the mode chances, and what the cue conveys."""
    opts = state.options
    theme = rules.theme(opts)
    sense = rules.sense(state)
    cast = cast_of(theme, state.narration_seed, opts.clarity)
    out = []
    for i, code in enumerate(state.pathways):
        rng = Rng(mix(state.narration_seed, state.round, i, 0xC0E))
        s = sense if sense in SENSES else SENSES[rng.below(len(SENSES))]
        cue = Cue(code, cast[code], _draw(mode_chances(card_kind(code), opts), rng), s)
        out.append(conveyed(cue, opts, state.stage))
    return out


def reference_view(rules: PerilsRules, state: PerilsState, seat: int | None) -> PerilsView:
    """Every field worked out from the state and the rules, nothing remembered."""
    opts = state.options
    theme = rules.theme(opts)
    to_act = rules.to_act(state)
    legal = rules.legal_actions(state, seat) if seat is not None and seat == to_act else []
    levels = rules.levels(state)
    teller = seat == 1
    hints: list[dict[str, str] | None] = [None] * len(state.pathways)
    if any(state.suggested):
        told = reference_hints(state, rules)
        hints = [told[i] if i < len(state.suggested) and state.suggested[i] else None
                 for i in range(len(state.pathways))]
    current = state.current
    difficulty = rules.difficulty(current) if current else None
    bonus = rules.bonus(state) if state.judged else 0
    max_health = max(opts.max_health, state.start_health)
    arch = theme.archetype(state.archetype) if state.archetype else None
    plan = None
    if state.plan_made:
        plan = PlanView(state.plan_channel, tuple(state.plan_items), state.plan_text,
                        state.judged, state.approve_channel, tuple(state.approve_items),
                        state.advantage, bonus, tuple(state.rolls),
                        rules._plan_reasons(state))
    outcome = rules.outcome(state)
    missing = min(len(state.damage), max(0, max_health - state.health))
    return PerilsView(
        seat=seat, role=ROLES[seat], phase=state.phase, stage=state.stage, round=state.round,
        sense=rules.sense(state), theme=theme.id, theme_title=theme.title,
        archetype=state.archetype, archetype_name=arch.name if arch else None,
        skills=tuple(SkillView(suit, theme.skills[suit].name,
                               tuple(c for c in state.base if c[-1] == suit),
                               tuple(state.tucked[suit]), levels[suit])
                     for suit in ("D", "C", "S", "H")),
        health=state.health, max_health=max_health, damage=tuple(state.damage),
        items=tuple(ItemView(c, theme.items[c].name, theme.items[c].blurb)
                    for c in state.inventory),
        draw_count=len(state.draw),
        pathways=tuple(PathwayView(i, state.descriptions[i] if i < len(state.descriptions)
                                   else None, hints[i], code if teller else None)
                       for i, code in enumerate(state.pathways)),
        current=current, current_kind=card_kind(current) if current else None,
        difficulty=difficulty, plan=plan,
        big_bads_remaining=len(state.big_bads) + sum(
            1 for c in [*state.pathways, *([current] if current else [])]
            if c in ("AD", "AC", "AS", "AH")),
        big_bads_defeated=tuple(state.defeated), big_bads_failed=tuple(state.failed),
        table={"unchosen": len(state.unchosen), "spent": len(state.spent),
               "discarded": len(state.discarded)},
        spent=tuple(state.spent),
        unchosen_faces=tuple(state.unchosen) if teller or opts.reveal_unchosen
        or state.phase == "over" else None,
        lost_pending=tuple(state.limbo), levels_to_lose=state.levels_to_lose,
        prize=prize_of(state, theme), to_act=to_act, legal_actions=tuple(legal),
        outcome=outcome.to_json() if outcome else None,
        suggestions=rules.suggestions(state) if teller and state.phase == "describe" else None,
        options=options_to_json(opts),
        current_thing=cast_of(theme, state.narration_seed, opts.clarity)[current].id
        if current else None,
        odds=odds_for_state(
            phase=state.phase, current=current, difficulty=difficulty, levels=levels,
            inventory=state.inventory, options=opts, plan_channel=state.plan_channel,
            plan_items=state.plan_items, judged_bonus=bonus, advantage=state.advantage,
            stage=state.stage, hero=seat == 0),
        wounds=tuple(state.damage[len(state.damage) - missing:]) if missing else (),
    )


def _check(rules: PerilsRules, state: PerilsState) -> int:
    seat = rules.to_act(state)
    for s in (0, 1, None):
        ref = reference_view(rules, state, s)
        got = rules.view(state, s)
        assert got == ref, (s, state.phase)
        assert json.dumps(got.to_json()) == json.dumps(ref.to_json())
        assert got.legal == tuple(a.to_json() for a in ref.legal_actions)
        if s is not None and s == seat:
            # the runner's way in: the legal list it has just made, not listed again
            again = rules.view_for_turn(state, s, rules.legal_actions(state, s))
            assert again == ref and again.legal_actions == ref.legal_actions
    return 3


@pytest.mark.parametrize("narrate", [False, True])
def test_views_equal_the_plain_reference_in_interleaved_games(narrate: bool) -> None:
    rules = perils_rules(narrate=narrate)
    rng = Rng(2026 + narrate)
    checked = 0
    phases: set[str] = set()
    for k, extra in enumerate(OPTION_SETS):
        # Two games of one options object played in turn (the shared per-options values must
        # tell them apart by what they hold), and every third step a game of other options
        # (so the shared values change hands too).
        opts = replace(PerilsOptions(), **extra)
        for _ in range(2 if narrate else 1):
            games = [rules.new(opts, 31 * k + 5 + checked, players=2),
                     rules.new(opts, 977 * k + 2 + checked, players=2),
                     rules.new(None, 7 * k + checked, players=2)]
            step = 0
            while any(rules.to_act(g) is not None for g in games):
                for state in games[:2] if step % 3 else games:
                    seat = rules.to_act(state)
                    checked += _check(rules, state)
                    phases.add(state.phase)
                    if seat is not None:
                        legal = rules.legal_actions(state, seat)
                        rules.apply_unchecked(state, seat, legal[rng.below(len(legal))])
                step += 1
    assert checked > 3000
    assert {"archetype", "describe", "choose", "plan", "judge", "roll", "over"} <= phases


def test_hints_equal_the_reference_at_every_round_of_many_games() -> None:
    from pocketgalaxy.games.perils.narration import hint_for_state

    rules = perils_rules(narrate=False)
    rng = Rng(5)
    seen = 0
    for clarity in ("plain", "fair", "subtle", "cryptic"):
        for g in range(25):
            opts = PerilsOptions(clarity=clarity, showdown_sense="free" if g % 2 else "cycle")
            state = rules.new(opts, 4000 + g, players=2)
            while (seat := rules.to_act(state)) is not None:
                if state.pathways:
                    got = hint_for_state(state, rules.theme(opts), rules.sense(state))
                    assert got == reference_hints(state, rules)
                    seen += len(got)
                legal = rules.legal_actions(state, seat)
                rules.apply_unchecked(state, seat, legal[rng.below(len(legal))])
    assert seen > 2000


def _set(**fields: Any) -> Any:
    return lambda s: [setattr(s, k, v) for k, v in fields.items()]


@pytest.mark.parametrize("rulings", [{}, {"channel_bonus": "level", "skill_adds_to_roll": True}])
def test_a_change_to_anything_the_odds_or_skills_read_is_seen(rulings: dict[str, Any]) -> None:
    """A plan-phase state, then states that each differ from an earlier one in one thing the
    odds or the skill views read, viewed one right after the other: each view equals the
    reference (a memo keyed on too little would hand back the earlier state's)."""
    from perils_testkit import R, move, new, take

    draw = ("JD", "4H", "7D", "5H", "QC", "8C", "7S", "9D")
    start, _ = take(new(draw=draw, seed=3, **rulings), 0)
    start, _ = take(start, 0)
    assert start.phase == "plan" and start.current == "7D" and start.inventory == ["JD"]
    judged = _set(plan_made=True, phase="roll", judged=True, plan_channel="S",
                  approve_channel=True)
    steps: list[tuple[str, str, Any]] = [
        ("an item more", "start", lambda s: move(s, "QC", "inventory")),
        ("an item fewer", "start", lambda s: move(s, "JD", "spent")),
        ("a tucked club", "start", lambda s: move(s, "8C", "tucked_C")),
        ("a tucked spade", "start", lambda s: move(s, "7S", "tucked_S")),
        ("a tucked diamond", "start", lambda s: move(s, "9D", "tucked_D")),
        ("another base card", "start", lambda s: move(s, "7S", "base")),
        ("another peril of 7", "start", _set(current="7C")),
        ("out of reach", "start", _set(current="10C")),
        ("out of reach in the showdown", "out of reach", _set(stage="showdown")),
        ("judged", "start", judged),
        ("judged, advantage", "judged", _set(advantage=True)),
        ("judged, channel refused", "judged", _set(approve_channel=False)),
        ("judging an empty plan", "start", _set(plan_made=True, phase="judge")),
        ("judging", "start", _set(plan_made=True, phase="judge", plan_channel="S",
                                  plan_items=["JD"])),
        ("judging, no item", "judging", _set(plan_items=[])),
        ("judging, other channel", "judging", _set(plan_channel="C")),
    ]
    states = {"start": start}
    for name, before, change in steps:
        changed = states[before].clone()
        change(changed)
        states[name] = changed
        for state in (states[before], changed):
            for s in (0, 1, None):
                got, ref = R.view(state, s), reference_view(R, state, s)
                assert got == ref, name
                assert json.dumps(got.to_json()) == json.dumps(ref.to_json()), name
