"""The rules of Perils & Pathways (`PerilsRules`): setup, pathway rounds, perils, the zero-health
penalty and the showdown, as numbered in docs/rules/perils.md (PP-R1..R22, options PP-A*).

Seat 0 is the Hero, seat 1 the Teller. Players act only where a decision exists; everything
else (healing, item gain, automatic passes, resolution after the roll, a penalty that needs no
choice, dealing the next round) happens inside `_do` and is reported by events. Four jobs live
in base classes beside this file: a round's play and the game's end (`rounds.py`), the
zero-health penalty (`penalty.py`), plans with their judgement (`planning.py`), and the checks
and lists of legal actions (`checks.py`). The options' rulings and card facts the rules read at
every action come from `flow.py`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar, Final, cast

from pocketgalaxy.core.cards import DECK_54, card
from pocketgalaxy.core.errors import (
    IllegalActionError,
    OptionsError,
)
from pocketgalaxy.core.game import Action, Event, Outcome
from pocketgalaxy.core.mypyc_marks import mypyc_attr
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.actions import (
    ACTION_TYPES,
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
from pocketgalaxy.games.perils.content import Theme, load_theme
from pocketgalaxy.games.perils.flow import (
    IS_ACE,
    IS_NUMBER,
    RuleFlow,
    levels_of,
)
from pocketgalaxy.games.perils.narration import (
    card_kind,
    cast_for,
    hint_for_state,
    narration_seed_for,
    suggest_descriptions,
)
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.penalty import validate_pinned
from pocketgalaxy.games.perils.planning import suit_of as _suit
from pocketgalaxy.games.perils.rounds import RoundPlay
from pocketgalaxy.games.perils.rubric import (
    Judgement,
    PlanJudge,
)
from pocketgalaxy.games.perils.state import PerilsState
from pocketgalaxy.games.perils.views import PerilsView, build_view

SKILL_SUITS = ("D", "C", "S")
ACES = ("AD", "AC", "AS")
_HERO: Final = HERO
_TELLER: Final = TELLER
_SUGGESTIONS: dict[tuple[Any, ...], tuple[str, ...]] = {}
QUIET_DESCRIPTION: Final = "(not narrated)"
"""What a quiet rules object (`narrate=False`) suggests for every pathway instead of words."""
_QUIET: Final = tuple((QUIET_DESCRIPTION,) * n for n in range(9))  # by the number of pathways
_DEFAULT_OPTIONS = PerilsOptions()  # frozen: one shared default (a fresh one cost ~40 us a game)
# The four actions of every round, by their exact class: compiled, a Final is a C static, so a
# test is one pointer comparison, where `isinstance` read each class from the module's dict
# (actions.py stays pure). Any other action, or a subclass, goes through `_act_other`.
_CHOOSE_TYPE: Final = ChoosePathway
_DESCRIBE_TYPE: Final = DescribePathways
_PLAN_TYPE: Final = MakePlan
_ROLL_TYPE: Final = Roll


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class PerilsRules(RoundPlay):
    """Perils & Pathways for exactly two seats: 0 the Hero, 1 the Teller."""

    name: ClassVar[str] = "perils"
    title: ClassVar[str] = "Perils & Pathways"
    options_type: ClassVar[type[Any]] = PerilsOptions
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2

    def __init__(self, *, judge: PlanJudge, narrate: bool = True) -> None:
        """`judge`: the plan judge (the rubric with its stemmer). Get the rules from
        pocketgalaxy.registry (`get_game("perils")`, `perils_rules()`) so every game shares
        one judge and records replay identically.

        `narrate=False` gives the quiet rules of a simulation where no one reads the words:
        the computer Teller's suggestions are `QUIET_DESCRIPTION` placeholders, not sentences,
        and the events' `story` texts are empty.
        Every decision stays the same: the structured hints a computer Hero reads come from
        the cues (narration.plan_cues), which never depend on the sentences, and the game's
        rng never draws for words (tests/games/perils/test_perils_quiet.py)."""
        self.judge = judge
        self.narrate = narrate
        # The last options' theme (options are frozen; one tuple, replaced whole).
        self._theme_memo: tuple[PerilsOptions, Theme] | None = None
        # The last options' rulings as native fields (flow.py; replaced whole, like the theme).
        self._flow_memo: RuleFlow | None = None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as its constructor's arguments (the judge pickles as its stemmer and name);
        # the theme memo is a cache, rebuilt on first use.
        return (_rules_from, (self.judge, self.narrate))

    # -- setup ------------------------------------------------------------------------
    def new(
        self,
        options: PerilsOptions | None = None,
        seed: int = 0,
        *,
        players: int | None = None,
        pinned: Any = None,
    ) -> PerilsState:
        """A fresh game (PP-R1..R6). `pinned`: {"draw": [codes, top first], "big_bads":
        [the three aces, top first], "rolls": [die values used first], "rounds": [[the cards
        round 1 lays], ...]} (penalty.validate_pinned)."""
        opts = options if options is not None else _DEFAULT_OPTIONS
        if players not in (None, 2):
            raise OptionsError(f"Perils & Pathways needs exactly 2 players, not {players}",
                               allowed=["2"])
        theme = self.theme(opts)
        if opts.archetype is not None and theme.archetype(opts.archetype) is None:
            raise OptionsError(
                f"option archetype={opts.archetype!r} is not an archetype of theme {theme.id}",
                allowed=[a.id for a in theme.archetypes],
            )
        pin = validate_pinned(pinned)
        state = PerilsState(
            options=opts,
            seed=seed,
            narration_seed=narration_seed_for(seed),
            rng=Rng(seed, pin.get("rolls", [])),
            pinned=pin or None,
            deck=list(DECK_54),
        )
        if opts.archetype is not None:
            try:
                self._check_pinned_archetype(state, theme, opts.archetype,
                                             ChooseArchetype(opts.archetype))
            except IllegalActionError as exc:
                raise OptionsError(f"option archetype={opts.archetype!r}: {exc.message}",
                                   allowed=list(exc.allowed)) from exc
            self._setup(state, opts.archetype)
        return state

    def opening_events(self, state: PerilsState) -> list[Event]:
        """The setup's events when the archetype is an option (setup then runs inside `new`).

        Setup is deterministic from (options, seed, pinned), so a twin game without the preset
        archetype is set up again to recover them; `new` itself stays a pure constructor.
        """
        if state.options.archetype is None:
            return []
        twin = self.new(replace(state.options, archetype=None), state.seed, pinned=state.pinned)
        return self._setup(twin, state.options.archetype)

    def theme(self, options: PerilsOptions) -> Theme:
        """The options' theme (bundled id or path), loaded once and cached."""
        memo = self._theme_memo
        if memo is not None and memo[0] is options:
            return memo[1]
        theme = load_theme(options.theme, options.archetype_schema)
        self._theme_memo = (options, theme)
        return theme

    def _setup(self, state: PerilsState, archetype_id: str) -> list[Event]:
        theme = self.theme(state.options)
        arch = theme.archetype(archetype_id)
        assert arch is not None
        state.archetype = arch.id
        cards = arch.cards
        chosen = set(cards)
        deck = [c for c in state.deck if c not in chosen]  # list.remove per card scanned it
        if len(chosen) != len(cards) or len(deck) + len(cards) != len(state.deck):
            deck = list(state.deck)
            for code in cards:  # a card missing or twice: list.remove refuses as it did
                deck.remove(code)
        state.deck = deck
        for code in cards:
            (state.base if code in IS_NUMBER else state.inventory).append(code)
        state.prize = ["AH"]
        pin = state.pinned or {}
        bigs = list(pin.get("big_bads") or ACES)
        if not pin.get("big_bads"):
            state.rng.shuffle(bigs)
        state.big_bads = bigs
        top = list(pin.get("draw") or [])
        rest = [c for c in state.deck if c not in IS_ACE and c not in top]
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

    # -- queries ----------------------------------------------------------------------
    def to_act(self, state: PerilsState) -> int | None:
        # Literal comparisons, the most frequent phases first (asked several times a decision).
        phase = state.phase
        if phase == "choose" or phase == "plan" or phase == "roll" or phase == "archetype":
            return _HERO
        if phase == "describe" or phase == "judge" or phase == "shuffle_back":
            return _TELLER
        if phase == "over":
            return None
        if phase == "lose_levels":
            return _HERO if self._flow(state.options).hero_loses_levels else _TELLER
        raise KeyError(phase)

    def levels(self, state: PerilsState) -> dict[str, int]:
        """Skill level per suit: the base card value(s) plus the tucked cards (PP-R2, PP-R16)."""
        return levels_of(state)

    def suggestions(self, state: PerilsState) -> tuple[str, ...]:
        """The computer Teller's descriptions for the current pathways (memoised: a pure
        function of the narration seed, the round, the cards and the earlier descriptions)."""
        if not self.narrate:
            n = len(state.pathways)
            return _QUIET[n] if n < len(_QUIET) else (QUIET_DESCRIPTION,) * n
        theme = self.theme(state.options)
        sense = self.sense(state)
        # Every earlier description is in the key: a text is new only against all of them, and
        # a shorter key would let another game of this process decide this one's words.
        key = (state.narration_seed, state.round, tuple(state.pathways), tuple(state.history),
               state.options.hint_fidelity, state.options.clarity, state.options.disguise,
               theme.source, theme.id, sense)
        cached = _SUGGESTIONS.get(key)
        if cached is None:
            if len(_SUGGESTIONS) > 512:
                _SUGGESTIONS.clear()
            cached = _SUGGESTIONS[key] = suggest_descriptions(state, theme, sense)
        return cached

    def outcome(self, state: PerilsState) -> Outcome | None:
        if state.result is None:
            return None
        if state.result == "won":
            return Outcome((HERO, TELLER), state.result_reason, (1.0, 1.0))
        return Outcome((), state.result_reason, (0.0, 0.0))

    def state_from_json(self, data: dict[str, Any]) -> PerilsState:
        return PerilsState.from_json(data)

    def describe_action(self, action: Action) -> str:
        return repr(action)

    # -- checks -----------------------------------------------------------------------
    def _refuse(self, state: PerilsState, seat: int, action: Action, reason: str, rule: str,
                detail: str = "") -> IllegalActionError:
        legal = self.legal_actions(state, seat) if state.phase != "over" else []
        allowed = [repr(a) for a in legal[:20]]
        return IllegalActionError(action, seat, reason, rule, detail, allowed=allowed)

    # -- doing ------------------------------------------------------------------------
    def apply_quiet(self, state: PerilsState, seat: int, action: Action) -> None:
        """`apply_unchecked` with the events dropped, so the plan verdict's reasons (JSON for
        the shells) are not built; the same state and random draws (test_perils_apply_quiet)."""
        self._act(state, seat, action, False)

    def _do(self, state: PerilsState, seat: int, action: Action) -> list[Event]:
        return self._act(state, seat, action, True)

    def _act(self, state: PerilsState, seat: int, action: Action, explain: bool) -> list[Event]:
        events: list[Event] = []
        # The exact classes first (see _CHOOSE_TYPE); actions.py is pure, so its classes are
        # plain objects to mypyc and a `cast` checks nothing: the attributes read as before.
        kind = type(action)
        if kind is _CHOOSE_TYPE:
            self._choose(state, cast(ChoosePathway, action).position, False, events)
        elif kind is _DESCRIBE_TYPE:
            self._describe(state, cast(DescribePathways, action), events)
        elif kind is _PLAN_TYPE:
            self._plan(state, cast(MakePlan, action), events, explain)
        elif kind is _ROLL_TYPE:
            self._roll(state, events)
        else:
            self._act_other(state, action, events, explain)
        return events

    def _act_other(self, state: PerilsState, action: Action, events: list[Event],
                   explain: bool) -> None:
        """`_act` by isinstance, in the order it always tested (an unknown action does nothing)."""
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

    # -- views --------------------------------------------------------------------------
    def view(self, state: PerilsState, seat: int | None) -> PerilsView:
        return self.view_for_turn(state, seat, None)

    def view_for_turn(self, state: PerilsState, seat: int | None,
                      legal_now: list[Action] | None) -> PerilsView:
        """`view`, handed the acting seat's legal list just listed for this very state (the
        simulation runner has it already: sim/runner.py), so it is not listed twice. Any other
        seat, or None, lists as `view` does."""
        theme = self.theme(state.options)
        current = state.current
        to_act = self.to_act(state)
        legal: list[Action] = []
        if seat is not None and seat == to_act:
            legal = legal_now if legal_now is not None else self.legal_actions(state, seat)
        out = self.outcome(state)
        sense = self.sense(state)
        hints: list[dict[str, str] | None] | None = None
        suggested = state.suggested
        if True in suggested:
            told = hint_for_state(state, theme, sense)
            hints = [told[i] if i < len(suggested) and suggested[i] else None
                     for i in range(len(state.pathways))]
        suggestions = None
        if seat == TELLER and state.phase == "describe":
            suggestions = self.suggestions(state)
        return build_view(
            state, seat, theme,
            sense=sense,
            levels_of=self.levels,
            kind=card_kind(current) if current else None,
            difficulty=self.difficulty(current) if current else None,
            bonus=self.bonus(state) if state.judged else 0,
            to_act=to_act,
            legal=legal,
            outcome=out.to_json() if out else None,
            hints=hints,
            suggestions=suggestions,
            plan_reasons=self._plan_reasons(state),
            max_health=max(state.options.max_health, state.start_health),
            current_thing=cast_for(state, theme)[current].id if current else None,
        )


def _rules_from(judge: PlanJudge, narrate: bool) -> PerilsRules:
    """An unpickled `PerilsRules` (see `PerilsRules.__reduce__`)."""
    return PerilsRules(judge=judge, narrate=narrate)
