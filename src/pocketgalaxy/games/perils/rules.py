"""The rules of Perils & Pathways (`PerilsRules`): setup, pathway rounds, perils, the zero-health
penalty and the showdown, as numbered in docs/rules/perils.md (PP-R1..R22, options PP-A*).

Seat 0 is the Hero, seat 1 the Teller. Players act only where a decision exists; everything
else (healing, item gain, automatic passes, resolution after the roll, a penalty that needs no
choice, dealing the next round) happens inside `_do` and is reported by events. Three jobs live
in base classes beside this file: the zero-health penalty (`penalty.py`), plans with their judgement
(`planning.py`), and the checks and lists of legal actions (`checks.py`).
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
from pocketgalaxy.games.perils import story
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
    BIG_BAD_DIFFICULTY,
    DIFFICULTY,
    IS_ACE,
    IS_NUMBER,
    RuleFlow,
    level_of,
    levels_of,
)
from pocketgalaxy.games.perils.narration import (
    card_kind,
    cast_for,
    game_cast,
    hint_for_state,
    narration_seed_for,
    prize_of,
    suggest_descriptions,
)
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.penalty import ZeroHealthPenalty, lay_pinned_round, validate_pinned
from pocketgalaxy.games.perils.planning import suit_of as _suit
from pocketgalaxy.games.perils.rubric import (
    Judgement,
    PlanJudge,
)
from pocketgalaxy.games.perils.state import PerilsState
from pocketgalaxy.games.perils.things import Thing, kind_of
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
class PerilsRules(ZeroHealthPenalty):
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

    def _flow(self, options: PerilsOptions) -> RuleFlow:
        """The options' rulings the rules read at every action (flow.py), made once per options
        object (options are frozen)."""
        flow = self._flow_memo
        if flow is None or flow.options is not options:
            flow = RuleFlow(options)
            self._flow_memo = flow
        return flow

    def _thing(self, state: PerilsState, code: str) -> Thing:
        """`content.thing_for(state, code)`: the same cast (cast_of, by the options' theme, the
        narration seed and the clarity), reached from compiled code."""
        opts = state.options
        return game_cast(self.theme(opts), state.narration_seed, self._flow(opts).clarity)[code]

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

    def sense(self, state: PerilsState) -> str:
        """sight, sound, smell by round (PP-R8, PP-A16); "free" in a free-sense showdown."""
        if state.stage == "showdown" and self._flow(state.options).free_showdown_sense:
            return "free"
        r = state.round
        i = (r - 1) % 3 if r > 1 else 0
        # content.SENSES by literal: compiled, indexing a Final tuple of literals builds it first.
        return "sight" if i == 0 else "sound" if i == 1 else "smell"

    def difficulty(self, code: str) -> int:
        d = DIFFICULTY.get(code)
        if d is not None:
            return d
        c = card(code)
        return BIG_BAD_DIFFICULTY if c.is_ace else c.rank

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

    def _deal(self, state: PerilsState, events: list[Event]) -> None:
        """Lay the next round of pathways (PP-R7, PP-R19, PP-A12) or the Big Bads (PP-R20)."""
        flow = self._flow(state.options)
        if state.stage == "main":
            k = flow.pathways_per_round
            draw = state.draw
            if draw and len(draw) < k and flow.discard_leftover:
                events.append(ev.LeftoverDiscarded(count=len(draw)))
                state.discarded.extend(draw)
                state.draw = []
            draw = state.draw
            if not draw:
                state.stage = "showdown"
                events.append(ev.ShowdownBegan(round=state.round + 1))
            else:
                n = k if k < len(draw) else len(draw)
                lay_pinned_round(state, draw, n)
                state.pathways = draw[:n]
                del draw[:n]
        if state.stage == "showdown":
            bigs = state.big_bads
            if not bigs:
                self._end_showdown(state, events)
                return
            n = len(bigs) if flow.all_big_bads_at_once else 1
            lay_pinned_round(state, bigs, n)
            state.pathways = bigs[:n]
            del bigs[:n]
        if flow.shuffled_pathways:
            state.rng.shuffle(state.pathways)
        state.round += 1
        if state.descriptions:  # usually emptied by the choice just made: no new list then
            state.descriptions = []
        if state.suggested:
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
        n = len(texts)
        if len(suggested) != n:  # as zip(strict=True) refused it
            raise ValueError(f"{n} descriptions for {len(suggested)} suggestions")
        state.suggested = [texts[i] == suggested[i] for i in range(n)]
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
        if state.stage == "main" and others and self._flow(state.options).reveal_unchosen:
            events.append(ev.UnchosenRevealed(cards=tuple(others)))
        state.current = code
        kind = kind_of(code)
        d = self.difficulty(code) if kind == "peril" or kind == "big_bad" else 0
        thing = self._thing(state, code)
        text = story.reveal_story(self.theme(state.options), thing, code, kind, d,
                                  state.narration_seed) if self.narrate else ""
        events.append(ev.CardRevealed(card=code, kind=kind, difficulty=d, thing=thing.id,
                                      story=text))
        self._resolve(state, events)

    def _resolve(self, state: PerilsState, events: list[Event]) -> None:
        """PP-R10..R12: heal, gain an item, pass automatically, or ask for a plan."""
        code = state.current
        assert code is not None
        kind = kind_of(code)
        flow = self._flow(state.options)
        if kind == "gift":
            state.current = None
            state.spent.append(code)
            thing = self._thing(state, code) if self.narrate else None
            if state.health < flow.max_health:
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
            text = story.item_story(self.theme(state.options), self._thing(state, code), code,
                                    state.narration_seed) if self.narrate else ""
            events.append(ev.ItemGained(card=code, story=text))
            self._next(state, events)
            return
        d = self.difficulty(code)
        suit = _suit(code)
        level = level_of(state, suit)
        passes = level > d if flow.autopass_strict else level >= d
        if passes:
            state.current = None
            state.spent.append(code)
            text = story.passed_story(self.theme(state.options), self._thing(state, code), code,
                                      state.narration_seed, skill=suit, level=level,
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

    def _bads_left(self, state: PerilsState) -> int:
        return len(state.big_bads) + len(state.pathways)

    def _roll(self, state: PerilsState, events: list[Event]) -> None:
        """PP-R14..R17: roll, spend the approved items, tuck the card as a level or as damage."""
        code = state.current
        assert code is not None
        opts = state.options
        flow = self._flow(opts)
        suit = _suit(code)
        d = self.difficulty(code)
        rng = state.rng
        values = [rng.roll()]
        top = values[0]
        if state.advantage:
            second = rng.roll()
            values.append(second)
            if second > top:
                top = second
        state.rolls = values
        bonus = self.bonus(state)
        total = top + bonus
        if flow.skill_adds_to_roll:
            total += level_of(state, suit)
        events.append(ev.DieRolled(values=tuple(values), advantage=state.advantage, bonus=bonus,
                                   total=total, difficulty=d))
        spent = tuple(state.approve_items)
        numbers = story.roll_words(tuple(values), bonus, total, d,
                                   opts.success_comparison == ">",
                                   level_of(state, suit) if flow.skill_adds_to_roll else 0
                                   ) if self.narrate else ""
        theme = self.theme(opts)
        # The thing only tells the story: the quiet rules leave it unasked (no game effect).
        thing = self._thing(state, code) if self.narrate else None
        if state.approve_items:
            for c in state.approve_items:
                state.inventory.remove(c)
                state.discarded.append(c)
            events.append(ev.ItemsSpent(cards=tuple(state.approve_items)))
        success = total >= d if flow.success_at_least else total > d
        state.current = None
        state.plan_made = False
        state.judged = False
        big_bad = code in IS_ACE
        if success:
            state.tucked[suit].append(code)
            state.tuck_order.append(code)
            level = level_of(state, suit)
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
            if state.stage == "showdown" and flow.showdown_zero_health_loses:
                self._game_over(state, "lost", "zero_health_in_showdown", events)
                return
            self._start_penalty(state, events)
            return
        self._next(state, events)

    # -- flow ---------------------------------------------------------------------------
    def _next(self, state: PerilsState, events: list[Event]) -> None:
        self._deal(state, events)

    def _end_showdown(self, state: PerilsState, events: list[Event]) -> None:
        """PP-R22: all three Big Bads met."""
        if state.options.win_condition == "defeat_all" and state.failed:
            self._game_over(state, "lost", "big_bad_not_defeated", events)
        elif state.health > 0:
            self._game_over(state, "won", "prize_won", events)
        else:  # pragma: no cover - zero health in the showdown is handled at the roll
            self._game_over(state, "lost", "zero_health_in_showdown", events)

    def _game_over(self, state: PerilsState, result: str, reason: str, events: list[Event]
                   ) -> None:
        state.phase = "over"
        state.stage = "over"
        state.result = result
        state.result_reason = reason
        if result == "won":
            events.append(ev.GameWon(prize=prize_of(state, self.theme(state.options)),
                                     health=state.health, defeated=len(state.defeated)))
        else:
            events.append(ev.GameLost(reason=reason))

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
