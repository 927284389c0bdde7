"""The Perils rules' hot paths as they were before the Perils million's "core" work (applying
actions: the options read at every action, `card(code)` per question, `levels` by dict, the
isinstance dispatch, `thing_for` from the interpreted content module, slices off the draw pile)
kept here as the reference: an interpreted subclass of `PerilsRules` that overrides exactly
those methods with their old text. Seeded games under many option sets, on the quiet and the
narrated rules, are played side by side by both; every event, every state, the seat to act,
the levels and the sense must be equal after every action (docs/speed.md).
"""

from __future__ import annotations

from typing import Any

import pytest

from pocketgalaxy.core.cards import DECK_54, card
from pocketgalaxy.core.errors import OptionsError
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils import story
from pocketgalaxy.games.perils.actions import (
    HERO,
    TELLER,
    ChooseArchetype,
    ChooseLostLevels,
    ChoosePathway,
    ChooseShuffleBack,
    DescribePathways,
    JudgePlan,
    MakePlan,
    Roll,
)
from pocketgalaxy.games.perils.content import SENSES, load_theme, thing_for
from pocketgalaxy.games.perils.narration import card_kind
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.planning import suit_of as _suit
from pocketgalaxy.games.perils.rubric import Judgement
from pocketgalaxy.games.perils.rules import PerilsRules
from pocketgalaxy.games.perils.state import PerilsState
from pocketgalaxy.registry import perils_rules, plan_judge

BIG_BAD_DIFFICULTY = 11
ACES = ("AD", "AC", "AS")
_PHASE_SEAT = {"archetype": HERO, "describe": TELLER, "choose": HERO, "plan": HERO,
               "judge": TELLER, "roll": HERO, "shuffle_back": TELLER}
_RANK = {code: card(code).rank for code in DECK_54}


def _old_lay_pinned_round(state: PerilsState, pile: list[str], n: int) -> None:
    """penalty.lay_pinned_round as it was."""
    rounds = (state.pinned or {}).get("rounds") or []
    if state.round >= len(rounds) or not rounds[state.round]:
        return
    wanted = rounds[state.round]
    missing = [c for c in wanted if c not in pile]
    if len(wanted) > n or missing:
        raise OptionsError(
            f"pinned round {state.round + 1} names {wanted}, but the round lays {n} "
            f"card(s) and {missing or 'none'} of them are not waiting to be laid",
            allowed=sorted(pile, key=DECK_54.index))
    rest = [c for c in pile if c not in wanted]
    pile[:] = list(wanted) + rest


class OldRules(PerilsRules):
    """The reference: the methods the work rewrote, with their old bodies."""

    def _setup(self, state: PerilsState, archetype_id: str) -> list[Event]:
        theme = self.theme(state.options)
        arch = theme.archetype(archetype_id)
        assert arch is not None
        state.archetype = arch.id
        for code in arch.cards:
            state.deck.remove(code)
            (state.base if card(code).is_number else state.inventory).append(code)
        state.prize = ["AH"]
        pin = state.pinned or {}
        bigs = list(pin.get("big_bads") or ACES)
        if not pin.get("big_bads"):
            state.rng.shuffle(bigs)
        state.big_bads = bigs
        top = list(pin.get("draw") or [])
        rest = [c for c in state.deck if c not in top and not card(c).is_ace]
        state.rng.shuffle(rest)
        state.draw = top + rest
        state.deck = []
        opts = state.options
        if opts.start_health == "heart_card_value":
            hearts = sum(card(c).rank for c in state.base if _suit(c) == "H")
            state.start_health = hearts if hearts > 0 else opts.max_health
        else:
            assert isinstance(opts.start_health, int)
            state.start_health = opts.start_health
        state.health = state.start_health
        state.stage = "main"
        events: list[Event] = [
            ev.ArchetypeChosen(archetype=arch.id, cards=arch.cards, health=state.health)
        ]
        self._deal(state, events)
        return events

    def to_act(self, state: PerilsState) -> int | None:
        if state.phase == "over":
            return None
        if state.phase == "lose_levels":
            return HERO if state.options.lost_levels_chooser == "hero" else TELLER
        return _PHASE_SEAT[state.phase]

    def levels(self, state: PerilsState) -> dict[str, int]:
        """Skill level per suit: the base card value(s) plus the tucked cards (PP-R2, PP-R16)."""
        tucked = state.tucked
        out = {"D": len(tucked["D"]), "C": len(tucked["C"]), "S": len(tucked["S"]),
               "H": len(tucked["H"])}
        for code in state.base:
            out[_suit(code)] += _RANK[code]
        return out

    def sense(self, state: PerilsState) -> str:
        """sight, sound, smell by round (PP-R8, PP-A16); "free" in a free-sense showdown."""
        if state.stage == "showdown" and state.options.showdown_sense == "free":
            return "free"
        return SENSES[(max(state.round, 1) - 1) % 3]

    def difficulty(self, code: str) -> int:
        c = card(code)
        return BIG_BAD_DIFFICULTY if c.is_ace else c.rank

    def _act(self, state: PerilsState, seat: int, action: Action, explain: bool) -> list[Event]:
        events: list[Event] = []
        if isinstance(action, ChooseArchetype):
            events.extend(self._setup(state, action.archetype))
        elif isinstance(action, DescribePathways):
            self._describe(state, action, events)
        elif isinstance(action, ChoosePathway):
            self._choose(state, action.position, False, events)
        elif isinstance(action, MakePlan):
            self._plan(state, action, events, explain)
        elif isinstance(action, JudgePlan):
            self._judged(state, Judgement(action.approve_channel, tuple(action.approve_items),
                                          action.advantage), "teller", events, explain)
        elif isinstance(action, Roll):
            self._roll(state, events)
        elif isinstance(action, ChooseLostLevels):
            self._lose_levels(state, list(action.cards), events)
        elif isinstance(action, ChooseShuffleBack):
            self._finish_penalty(state, list(action.cards), events)
        return events

    def _deal(self, state: PerilsState, events: list[Event]) -> None:
        """Lay the next round of pathways (PP-R7, PP-R19, PP-A12) or the Big Bads (PP-R20)."""
        opts = state.options
        if state.stage == "main":
            k = opts.pathways_per_round
            if state.draw and len(state.draw) < k and opts.final_short_round == "discard_leftover":
                events.append(ev.LeftoverDiscarded(count=len(state.draw)))
                state.discarded.extend(state.draw)
                state.draw = []
            if not state.draw:
                state.stage = "showdown"
                events.append(ev.ShowdownBegan(round=state.round + 1))
            else:
                n = min(k, len(state.draw))
                _old_lay_pinned_round(state, state.draw, n)
                state.pathways = state.draw[:n]
                del state.draw[:n]
        if state.stage == "showdown":
            if not state.big_bads:
                self._end_showdown(state, events)
                return
            n = len(state.big_bads) if opts.showdown_order == "hero_chooses" else 1
            _old_lay_pinned_round(state, state.big_bads, n)
            state.pathways = state.big_bads[:n]
            del state.big_bads[:n]
        if opts.pathway_order == "shuffled":
            state.rng.shuffle(state.pathways)
        state.round += 1
        state.descriptions = []
        state.suggested = []
        state.phase = "describe"
        events.append(ev.PathwaysDealt(round=state.round, cards=tuple(state.pathways)))
        events.append(ev.PathwaysLaid(round=state.round, count=len(state.pathways),
                                      sense=self.sense(state), stage=state.stage))

    def _describe(self, state: PerilsState, action: DescribePathways, events: list[Event]
                  ) -> None:
        texts = [t.strip() for t in action.descriptions]
        suggested = self.suggestions(state)
        state.descriptions = texts
        state.suggested = [t == s for t, s in zip(texts, suggested, strict=True)]
        state.history.extend(texts)
        state.phase = "choose"
        events.append(ev.PathwaysDescribed(round=state.round, descriptions=tuple(texts)))
        if len(state.pathways) == 1:
            self._choose(state, 0, True, events)

    def _choose(self, state: PerilsState, position: int, automatic: bool, events: list[Event]
                ) -> None:
        code = state.pathways.pop(position)
        others = state.pathways
        state.pathways = []
        state.descriptions = []
        state.suggested = []
        if state.stage == "showdown":
            state.big_bads = others + state.big_bads
        else:
            state.unchosen.extend(others)
        events.append(ev.PathwayChosen(round=state.round, position=position, automatic=automatic))
        if state.stage == "main" and others and state.options.reveal_unchosen:
            events.append(ev.UnchosenRevealed(cards=tuple(others)))
        state.current = code
        kind = card_kind(code)
        d = self.difficulty(code) if kind in ("peril", "big_bad") else 0
        thing = thing_for(state, code)
        text = story.reveal_story(self.theme(state.options), thing, code, kind, d,
                                  state.narration_seed) if self.narrate else ""
        events.append(ev.CardRevealed(card=code, kind=kind, difficulty=d, thing=thing.id,
                                      story=text))
        self._resolve(state, events)

    def _resolve(self, state: PerilsState, events: list[Event]) -> None:
        """PP-R10..R12: heal, gain an item, pass automatically, or ask for a plan."""
        code = state.current
        assert code is not None
        kind = card_kind(code)
        if kind == "gift":
            state.current = None
            state.spent.append(code)
            thing = thing_for(state, code) if self.narrate else None
            if state.health < state.options.max_health:
                state.health += 1
                text = story.gift_story(thing, code, state.narration_seed, healed=True,
                                        health=state.health) if thing is not None else ""
                events.append(ev.HealthGained(amount=1, health=state.health, card=code,
                                              story=text))
            else:
                text = story.gift_story(thing, code, state.narration_seed, healed=False,
                                        health=state.health) if thing is not None else ""
                events.append(ev.HealWasted(card=code, health=state.health, story=text))
            self._next(state, events)
            return
        if kind == "item":
            state.current = None
            state.inventory.append(code)
            text = story.item_story(self.theme(state.options), thing_for(state, code), code,
                                    state.narration_seed) if self.narrate else ""
            events.append(ev.ItemGained(card=code, story=text))
            self._next(state, events)
            return
        d = self.difficulty(code)
        level = self.levels(state)[_suit(code)]
        passes = level > d if state.options.autopass_comparison == ">" else level >= d
        if passes:
            state.current = None
            state.spent.append(code)
            text = story.passed_story(self.theme(state.options), thing_for(state, code), code,
                                      state.narration_seed, skill=_suit(code), level=level,
                                      difficulty=d) if self.narrate else ""
            events.append(ev.PerilPassed(card=code, level=level, difficulty=d, story=text))
            if kind == "big_bad":
                state.defeated.append(code)
                events.append(ev.BigBadFaced(card=code, result="passed",
                                             remaining=self._bads_left(state)))
            self._next(state, events)
            return
        state.phase = "plan"
        state.plan_made = False
        state.plan_channel = None
        state.plan_items = []
        state.plan_text = ""
        state.judged = False
        state.approve_channel = False
        state.approve_items = []
        state.advantage = False
        state.rolls = []

    def _roll(self, state: PerilsState, events: list[Event]) -> None:
        """PP-R14..R17: roll, spend the approved items, tuck the card as a level or as damage."""
        code = state.current
        assert code is not None
        opts = state.options
        suit = _suit(code)
        d = self.difficulty(code)
        values = [state.rng.roll()]
        if state.advantage:
            values.append(state.rng.roll())
        state.rolls = values
        bonus = self.bonus(state)
        total = max(values) + bonus
        if opts.skill_adds_to_roll:
            total += self.levels(state)[suit]
        events.append(ev.DieRolled(values=tuple(values), advantage=state.advantage, bonus=bonus,
                                   total=total, difficulty=d))
        spent = tuple(state.approve_items)
        numbers = story.roll_words(tuple(values), bonus, total, d,
                                   opts.success_comparison == ">",
                                   self.levels(state)[suit] if opts.skill_adds_to_roll else 0
                                   ) if self.narrate else ""
        theme = self.theme(opts)
        # The thing only tells the story: the quiet rules leave it unasked (no game effect).
        thing = thing_for(state, code) if self.narrate else None
        if state.approve_items:
            for c in state.approve_items:
                state.inventory.remove(c)
                state.discarded.append(c)
            events.append(ev.ItemsSpent(cards=tuple(state.approve_items)))
        success = total >= d if opts.success_comparison == ">=" else total > d
        state.current = None
        state.plan_made = False
        state.judged = False
        big_bad = card(code).is_ace
        if success:
            state.tucked[suit].append(code)
            state.tuck_order.append(code)
            level = self.levels(state)[suit]
            text = story.success_story(theme, thing, code, state.narration_seed, skill=suit,
                                       level=level, spent=spent, numbers=numbers
                                       ) if thing is not None else ""
            events.append(ev.PerilSucceeded(card=code, suit=suit, level=level, story=text))
            if big_bad:
                state.defeated.append(code)
                events.append(ev.BigBadFaced(card=code, result="defeated",
                                             remaining=self._bads_left(state)))
        else:
            state.damage.append(code)
            state.health -= 1
            text = story.failure_story(theme, thing, code, state.narration_seed,
                                       health=state.health, spent=spent, numbers=numbers
                                       ) if thing is not None else ""
            events.append(ev.PerilFailed(card=code, story=text))
            events.append(ev.HealthLost(amount=1, health=state.health))
            if big_bad:
                state.failed.append(code)
                events.append(ev.BigBadFaced(card=code, result="failed",
                                             remaining=self._bads_left(state)))
        state.approve_items = []
        state.approve_channel = False
        state.advantage = False
        if state.health <= 0:
            events.append(ev.ZeroHealth(stage=state.stage))
            if state.stage == "showdown" and opts.showdown_zero_health == "lose":
                self._game_over(state, "lost", "zero_health_in_showdown", events)
                return
            self._start_penalty(state, events)
            return
        self._next(state, events)



CHOICES: dict[str, tuple[Any, ...]] = {
    "pathways_per_round": (2, 3),
    "final_short_round": ("present_remaining", "discard_leftover"),
    "showdown_order": ("hero_chooses", "sequential"),
    "pathway_order": ("as_dealt", "shuffled"),
    "reveal_unchosen": (False, True),
    "max_health": (3, 5),
    "start_health": (3, 1, "heart_card_value"),
    "reset_health": (None, 2),
    "autopass_comparison": (">", ">="),
    "success_comparison": (">=", ">"),
    "skill_adds_to_roll": (False, True),
    "showdown_zero_health": ("lose", "penalty_continue"),
    "lost_levels_chooser": ("hero", "teller", "random", "most_recent"),
    "shuffle_back_rule": ("random_half_up", "teller_chooses", "items_only", "all", "none"),
    "half_scope": ("total", "per_skill"),
    "showdown_sense": ("cycle", "free"),
    "win_condition": ("survive", "defeat_all"),
    "clarity": ("plain", "fair", "subtle", "cryptic"),
    "teller_policy": ("approve_all", "rubric", "human"),
    "channel_bonus": ("flat1", "level"),
    "theme": ("cosmic", "dungeon"),
}


def _option_sets(n: int) -> list[PerilsOptions]:
    """The defaults, then `n` seeded mixes of every ruling the rewritten code reads."""
    pick = Rng(2026)
    out = [PerilsOptions()]
    for _ in range(n):
        chosen = {k: v[pick.below(len(v))] for k, v in CHOICES.items()}
        out.append(PerilsOptions(**chosen))
    return out


def _play_side_by_side(new: PerilsRules, old: PerilsRules, options: PerilsOptions, seed: int,
                       pinned: dict[str, Any] | None = None, seen: set[str] | None = None
                       ) -> int:
    """One game played by both rules objects with the same random choices; returns the number
    of actions and adds the kinds of event met to `seen`. Raises AssertionError at the first
    difference."""
    a = new.new(options, seed, pinned=pinned)
    b = old.new(options, seed, pinned=pinned)
    assert a.to_json() == b.to_json()
    assert new.opening_events(a) == old.opening_events(b)
    pick = Rng(seed * 31 + 7)
    steps = 0
    while True:
        seat = new.to_act(a)
        assert seat == old.to_act(b), steps
        assert new.levels(a) == old.levels(b)
        assert new.sense(a) == old.sense(b)
        if a.current is not None:
            assert new.difficulty(a.current) == old.difficulty(b.current or "")
        if seat is None:
            break
        legal = new.legal_actions(a, seat)
        assert legal == old.legal_actions(b, seat)
        action = legal[pick.below(len(legal))]
        got = new.apply_unchecked(a, seat, action)
        want = old.apply_unchecked(b, seat, action)
        assert got == want, (seed, steps, action)
        assert [type(e) for e in got] == [type(e) for e in want]
        if seen is not None:
            seen.update(type(e).__name__ for e in got)
        assert a.to_json() == b.to_json(), (seed, steps, action)
        steps += 1
    assert new.outcome(a) == old.outcome(b)
    return steps


@pytest.mark.parametrize("narrate", [False, True])
def test_the_rules_play_as_the_old_code_under_many_options(narrate: bool) -> None:
    new = PerilsRules(judge=plan_judge(), narrate=narrate)
    old = OldRules(judge=plan_judge(), narrate=narrate)
    steps = 0
    seen: set[str] = set()
    for k, options in enumerate(_option_sets(24 if narrate else 48)):
        for seed in (k, 1000 + 7 * k):
            steps += _play_side_by_side(new, old, options, seed, seen=seen)
    assert steps > 3000
    # The option mixes reach every branch the rewritten code has.
    assert {"LeftoverDiscarded", "ShowdownBegan", "UnchosenRevealed", "HealthGained",
            "HealWasted", "ItemGained", "PerilPassed", "PerilSucceeded", "PerilFailed",
            "ItemsSpent", "BigBadFaced", "ZeroHealth", "LevelsLost", "CardsShuffledBack",
            "HealthReset", "GameWon", "GameLost"} <= seen


def test_the_simulation_rules_play_as_the_old_code() -> None:
    """The registry's quiet rules (what `simulate` plays), the simulate defaults, many seeds."""
    new = perils_rules(narrate=False)
    old = OldRules(judge=plan_judge(), narrate=False)
    options = PerilsOptions(teller_policy="approve_all")
    for seed in range(60):
        _play_side_by_side(new, old, options, seed)


def test_pinned_rounds_and_a_preset_archetype_as_the_old_code() -> None:
    new = perils_rules(narrate=False)
    old = OldRules(judge=plan_judge(), narrate=False)
    theme = load_theme("cosmic")
    arch = theme.archetypes[0]
    free = [c for c in DECK_54 if c not in arch.cards and not card(c).is_ace]
    options = PerilsOptions(archetype=arch.id, showdown_order="sequential")
    for seed in range(8):
        pinned = {"rounds": [[free[seed]], [], [free[seed + 10], free[seed + 20]]],
                  "rolls": [6, 1, 3]}
        _play_side_by_side(new, old, options, seed, pinned)
    # A pinned round that does not fit is refused alike.
    bad = {"rounds": [[free[0], free[1], free[2]]]}
    errors = []
    for rules in (new, old):
        with pytest.raises(OptionsError) as caught:
            rules.new(options, 3, pinned=bad)
        errors.append(caught.value.message)
    assert errors[0] == errors[1]


def test_every_card_s_facts_as_the_old_code() -> None:
    new = perils_rules(narrate=False)
    old = OldRules(judge=plan_judge(), narrate=False)
    for code in DECK_54:
        assert new.difficulty(code) == old.difficulty(code)
    state = new.new(None, 5)
    for phase in ("archetype", "describe", "choose", "plan", "judge", "roll", "shuffle_back",
                  "over", "lose_levels"):
        state.phase = phase
        assert new.to_act(state) == old.to_act(state)
    for chooser in ("hero", "teller", "random"):
        other = new.new(PerilsOptions(lost_levels_chooser=chooser), 5)
        other.phase = "lose_levels"
        assert new.to_act(other) == old.to_act(other)
    state.phase = "no such phase"
    for rules in (new, old):
        with pytest.raises(KeyError):
            rules.to_act(state)
    for r in range(0, 40):
        for stage in ("setup", "main", "showdown", "over"):
            state.round, state.stage = r, stage
            assert new.sense(state) == old.sense(state)
