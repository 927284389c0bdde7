"""Which actions Perils & Pathways accepts now: `check` (refuse with the rule and what is
allowed) and `legal_actions` (every choice `check` accepts, listed canonically). Split from
rules.py by job: `ActionChecks` is the first base of `PerilsRules`, which supplies the theme,
whose turn it is, the Teller's suggestions and the refusals; the plan and lost-level checks come
from `PlanJudging` and `ZeroHealthPenalty`, the next classes down the chain.
"""

from __future__ import annotations

import itertools

from pocketgalaxy.core.cards import DECK_54
from pocketgalaxy.core.errors import IllegalActionError, MalformedActionError
from pocketgalaxy.core.game import Action, GameRules
from pocketgalaxy.core.mypyc_marks import mypyc_attr
from pocketgalaxy.games.perils.actions import (
    ACTION_PHASES,
    ACTION_TYPES,
    HERO,
    MAX_DESCRIPTION,
    ChooseArchetype,
    ChooseLostLevels,
    ChoosePathway,
    ChooseShuffleBack,
    DescribePathways,
    JudgePlan,
    MakePlan,
    Roll,
)
from pocketgalaxy.games.perils.content import Theme
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.state import PerilsState

_MAX_LISTED_CHOICES = 64
"""Subsets of lost cards are listed in full up to this many; beyond, one per count."""

# Speed: actions are frozen, so the short lists a random playout asks for at every decision
# share their instances (memoised on what they depend on; bounded).
_MEMO_LIMIT = 4_096
_ROLL = Roll()
_CHOOSE: tuple[tuple[ChoosePathway, ...], ...] = tuple(
    tuple(ChoosePathway(i) for i in range(n)) for n in range(9))
_DESCRIBED: dict[tuple[str, ...], DescribePathways] = {}
_VERDICTS: dict[tuple[bool, tuple[str, ...], bool], tuple[JudgePlan, ...]] = {}
_ARCHETYPES: dict[str, tuple[Theme, tuple[ChooseArchetype, ...]]] = {}  # theme id -> its list


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class ActionChecks(GameRules[PerilsState, PerilsOptions]):
    """`check` and `legal_actions` of `PerilsRules`: the base of its chain of one-job classes
    (ActionChecks <- PlanJudging <- ZeroHealthPenalty <- PerilsRules). One chain, not mixins,
    because a mypyc-compiled class has one base (docs/speed.md); the method order is the same
    as the mixins' was. The methods below that raise are supplied further down the chain."""

    def theme(self, options: PerilsOptions) -> Theme:
        raise NotImplementedError

    def suggestions(self, state: PerilsState) -> tuple[str, ...]:
        raise NotImplementedError

    def _refuse(self, state: PerilsState, seat: int, action: Action, reason: str,
                rule: str, detail: str = "") -> IllegalActionError:
        raise NotImplementedError

    def _plan_list(self, state: PerilsState) -> list[Action]:
        raise NotImplementedError

    def _check_plan(self, state: PerilsState, seat: int, action: MakePlan) -> None:
        raise NotImplementedError

    def _check_judge(self, state: PerilsState, seat: int, action: JudgePlan) -> None:
        raise NotImplementedError

    def _check_lost_levels(self, state: PerilsState, seat: int,
                           action: ChooseLostLevels) -> None:
        raise NotImplementedError

    def _lost_level_choices(self, state: PerilsState) -> list[tuple[str, ...]]:
        raise NotImplementedError

    def check(self, state: PerilsState, seat: int, action: Action) -> None:
        if not isinstance(action, ACTION_TYPES):
            raise MalformedActionError(action, "not a Perils & Pathways action",
                                       allowed=[t.__name__ for t in ACTION_TYPES])
        if state.phase == "over":
            raise IllegalActionError(action, seat, "game_over", "PP-R22", "the game has ended")
        actor = self.to_act(state)
        if seat != actor:
            raise self._refuse(state, seat, action, "not_your_turn", "PP-R1",
                               f"seat {actor} to act in phase {state.phase}")
        phase = ACTION_PHASES[type(action)]
        if phase != state.phase:
            raise self._refuse(state, seat, action, "wrong_phase", "PP-R1",
                               f"{type(action).__name__} is for phase {phase}; "
                               f"the phase is {state.phase}")
        if isinstance(action, ChooseArchetype):
            self._check_archetype(state, action)
        elif isinstance(action, DescribePathways):
            self._check_describe(state, seat, action)
        elif isinstance(action, ChoosePathway):
            position = action.position
            if (isinstance(position, bool) or not isinstance(position, int)
                    or not 0 <= position < len(state.pathways)):
                raise self._refuse(state, seat, action, "no_such_pathway", "PP-R9",
                                   f"positions 0..{len(state.pathways) - 1}")
        elif isinstance(action, MakePlan):
            self._check_plan(state, seat, action)
        elif isinstance(action, JudgePlan):
            self._check_judge(state, seat, action)
        elif isinstance(action, ChooseLostLevels):
            self._check_lost_levels(state, seat, action)
        elif isinstance(action, ChooseShuffleBack):
            cards = action.cards
            if len(set(cards)) != len(cards) or any(c not in state.limbo for c in cards):
                raise self._refuse(state, seat, action, "not_a_lost_card", "PP-A10",
                                   f"choose any of the lost cards {sorted(state.limbo)}")

    def _check_archetype(self, state: PerilsState, action: ChooseArchetype) -> None:
        theme = self.theme(state.options)
        if not isinstance(action.archetype, str) or theme.archetype(action.archetype) is None:
            raise self._refuse(state, HERO, action, "no_such_archetype", "PP-R2",
                               f"theme {theme.id} has {[a.id for a in theme.archetypes]}")
        self._check_pinned_archetype(state, theme, action.archetype, action)

    def _check_pinned_archetype(self, state: PerilsState, theme: Theme, archetype_id: str,
                                action: Action) -> None:
        arch = theme.archetype(archetype_id)
        assert arch is not None
        top = (state.pinned or {}).get("draw") or []
        clash = sorted(set(top) & set(arch.cards))
        if clash:
            raise IllegalActionError(
                action, HERO, "archetype_conflicts_pinned", "PP-R2",
                f"the pinned draw pile holds {clash}, cards of archetype {arch.id}",
                allowed=[a.id for a in theme.archetypes if not set(top) & set(a.cards)],
            )

    def _check_describe(self, state: PerilsState, seat: int, action: DescribePathways) -> None:
        texts = action.descriptions
        if not isinstance(texts, tuple) or len(texts) != len(state.pathways):
            raise self._refuse(state, seat, action, "wrong_count", "PP-R8",
                               f"give exactly {len(state.pathways)} description(s), "
                               f"one per pathway")
        for i, text in enumerate(texts):
            if not isinstance(text, str) or not 1 <= len(text.strip()) <= MAX_DESCRIPTION:
                raise self._refuse(state, seat, action, "bad_description", "PP-R8",
                                   f"description {i} must be 1..{MAX_DESCRIPTION} characters")

    # -- legal actions ---------------------------------------------------------------
    def legal_actions(self, state: PerilsState, seat: int) -> list[Action]:
        """Every choice `check` accepts, listed canonically where text or subsets are free:
        DescribePathways is listed once (the computer's suggestions), MakePlan once per
        channel x the first k usable items (plan ""), JudgePlan per channel approval x item
        prefix x advantage, ChooseLostLevels and ChooseShuffleBack as all subsets when there
        are at most 64, otherwise one canonical choice per count."""
        if state.phase == "over" or self.to_act(state) != seat:
            return []
        phase = state.phase
        if phase == "archetype":
            theme = self.theme(state.options)
            top = set((state.pinned or {}).get("draw") or [])
            if not top:  # every archetype: one list per theme (themes are loaded once)
                known = _ARCHETYPES.get(theme.id)
                if known is None or known[0] is not theme:
                    known = _ARCHETYPES[theme.id] = (
                        theme, tuple(ChooseArchetype(a.id) for a in theme.archetypes))
                return list(known[1])
            return [ChooseArchetype(a.id) for a in theme.archetypes if not top & set(a.cards)]
        if phase == "describe":
            texts = self.suggestions(state)
            described = _DESCRIBED.get(texts)
            if described is None:
                if len(_DESCRIBED) > _MEMO_LIMIT:
                    _DESCRIBED.clear()
                described = _DESCRIBED[texts] = DescribePathways(texts)
            return [described]
        if phase == "choose":
            n = len(state.pathways)
            return list(_CHOOSE[n]) if n < len(_CHOOSE) else [ChoosePathway(i) for i in range(n)]
        if phase == "plan":
            return self._plan_list(state)
        if phase == "judge":
            key = (state.plan_channel is not None, tuple(state.plan_items),
                   state.options.advantage_threshold is not None)
            verdicts = _VERDICTS.get(key)
            if verdicts is None:
                adv = (False, True) if key[2] else (False,)
                chans = (False, True) if key[0] else (False,)
                verdicts = tuple(
                    JudgePlan(c, key[1][:k], a)
                    for c in chans for k in range(len(key[1]) + 1) for a in adv
                )
                if len(_VERDICTS) > _MEMO_LIMIT:
                    _VERDICTS.clear()
                _VERDICTS[key] = verdicts
            return list(verdicts)
        if phase == "roll":
            return [_ROLL]
        if phase == "lose_levels":
            return [ChooseLostLevels(c) for c in self._lost_level_choices(state)]
        if phase == "shuffle_back":
            lost = sorted(state.limbo, key=DECK_54.index)
            if 2 ** len(lost) <= _MAX_LISTED_CHOICES:
                subsets = [s for r in range(len(lost) + 1) for s in itertools.combinations(lost, r)]
            else:
                subsets = [tuple(lost[:k]) for k in range(len(lost) + 1)]
            return [ChooseShuffleBack(s) for s in subsets]
        return []
