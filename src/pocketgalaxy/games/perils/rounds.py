"""One round of Perils & Pathways and how a game ends (PP-R7..R17, PP-R19..R22): laying the
pathways, taking the descriptions, the choice, what the revealed card does (heal, item,
automatic pass or a plan), the roll, and the showdown's end. Split from rules.py by job:
`RoundPlay` is the direct base of `PerilsRules`, which supplies the theme, the suggestions,
setup and the contract (the stubs of `ActionChecks`).

Compiled with mypyc, the code here reads the options' rulings from `RuleFlow` (flow.py), made
once per options object, and card facts from its tables: the options are a pure dataclass
whose every attribute read is a generic look-up (docs/speed.md, "The Perils million").
"""

from __future__ import annotations

from pocketgalaxy.core.cards import card
from pocketgalaxy.core.game import Event
from pocketgalaxy.core.mypyc_marks import mypyc_attr
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils import story
from pocketgalaxy.games.perils.actions import DescribePathways
from pocketgalaxy.games.perils.flow import (
    BIG_BAD_DIFFICULTY,
    DIFFICULTY,
    IS_ACE,
    RuleFlow,
    level_of,
)
from pocketgalaxy.games.perils.narration import game_cast, prize_of
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.penalty import ZeroHealthPenalty, lay_pinned_round
from pocketgalaxy.games.perils.planning import suit_of as _suit
from pocketgalaxy.games.perils.state import PerilsState
from pocketgalaxy.games.perils.things import Thing, kind_of


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class RoundPlay(ZeroHealthPenalty):
    """A round's flow; the rules class sets `narrate` and `_flow_memo` in its `__init__`."""

    narrate: bool
    _flow_memo: RuleFlow | None

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
