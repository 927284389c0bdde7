"""Plans and their judgement in Perils & Pathways (PP-R13, PP-A6..A8): what may be channelled
and committed, the checks of MakePlan and JudgePlan, the listed plans, and the verdict (the
rubric's, approve-all, or the Teller's with the rubric's reasons beside it). Split from rules.py
by job: `PlanJudging` is a base class of `PerilsRules`, which supplies the theme, the levels and
refusals.
"""

from __future__ import annotations

from typing import Any, Final

from pocketgalaxy.core.cards import card
from pocketgalaxy.core.errors import IllegalActionError
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.core.mypyc_marks import mypyc_attr
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.actions import MAX_PLAN, JudgePlan, MakePlan
from pocketgalaxy.games.perils.checks import ActionChecks
from pocketgalaxy.games.perils.content import thing_for
from pocketgalaxy.games.perils.rubric import (
    Judgement,
    PlanJudge,
    Target,
    approve_all,
    explanation_json,
    overruled,
)
from pocketgalaxy.games.perils.state import PerilsState

SKILL_SUITS = ("D", "C", "S")
_CHANNEL_INDEX: Final[dict[str | None, int]] = {None: 0, "D": 1, "C": 2, "S": 3, "H": 4}
"""A channel's place in a plan node's `plans` (None: no skill channelled)."""
NODES_KEPT: Final = 60_000
"""Plan nodes a trie holds before it starts afresh (a few tens of MB at most)."""


# Listed plans (bench/bench_million.py): a plan phase lists MakePlan once per channel and per
# first k usable items. The inventories behind those lists rarely repeat in a simulation (a memo
# keyed by the inventory missed on most lists), but their prefixes do: the plans live in a trie
# of item prefixes, so a list costs a walk down the inventory, and a MakePlan is made once per
# (channel, prefix). Actions are immutable, so lists share them.
class _PlanNode:
    """One prefix of usable items: the items, the longer prefixes by their next item, and the
    listed MakePlan of each channel (made when first listed)."""

    def __init__(self, items: tuple[str, ...]) -> None:
        self.items = items
        self.children: dict[str, _PlanNode] = {}
        self.plans: list[Action | None] = [None, None, None, None, None]

    def plan(self, index: int, channel: str | None) -> Action:
        got = self.plans[index]
        if got is None:
            got = new_make_plan(channel, self.items)
            self.plans[index] = got
        return got


class _PlanTrie:
    """The root of the prefixes and how many nodes hang from it. Replaced whole when more than
    `limit`, so a walk in another thread goes on in a consistent (older) trie."""

    def __init__(self, limit: int = NODES_KEPT) -> None:
        self.root = _PlanNode(())
        self.nodes = 1
        self.limit = limit


_TRIE: list[_PlanTrie] = [_PlanTrie()]


def _prefix_nodes(items: list[str]) -> list[_PlanNode]:
    """The trie's node of every prefix of `items`, the empty one first."""
    trie = _TRIE[0]
    if trie.nodes > trie.limit:
        trie = _TRIE[0] = _PlanTrie(trie.limit)
    node = trie.root
    out = [node]
    for code in items:
        child = node.children.get(code)
        if child is None:
            child = _PlanNode(node.items + (code,))
            node.children[code] = child
            trie.nodes += 1
        node = child
        out.append(node)
    return out


def new_make_plan(channel: str | None, items: tuple[str, ...], plan: str = "") -> MakePlan:
    """`MakePlan(channel, items, plan)`, the fields set as its dataclass-made `__init__` sets
    them (object.__setattr__ on the frozen class, which has no `__post_init__`). That
    `__init__` is interpreted code (actions.py stays pure: `parse_action` reads its field
    types) and cost about 6,000 instructions; this runs compiled. The listed plans and the
    rule-based Hero's own plan are built here."""
    made = MakePlan.__new__(MakePlan)
    object.__setattr__(made, "channel", channel)
    object.__setattr__(made, "items", items)
    object.__setattr__(made, "plan", plan)
    return made


def suit_of(code: str) -> str:
    """The suit letter of a canonical code ("*" for a joker)."""
    return "*" if code.startswith("JK") else code[-1]


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class PlanJudging(ActionChecks):
    """Plans and verdicts; the rules class supplies `judge`, `theme`, `levels` and `_refuse`."""

    judge: PlanJudge

    def levels(self, state: PerilsState) -> dict[str, int]:
        raise NotImplementedError

    def _refuse(self, state: PerilsState, seat: int, action: Action, reason: str, rule: str,
                detail: str = "") -> IllegalActionError:
        raise NotImplementedError

    def bonus(self, state: PerilsState) -> int:
        """Approved bonuses: the channel (+1, or its level) and +1 per approved item (PP-R13)."""
        total = len(state.approve_items)
        if state.approve_channel and state.plan_channel is not None:
            if state.options.channel_bonus == "level":
                total += self.levels(state)[state.plan_channel]
            else:
                total += 1
        return total

    def allowed_channels(self, state: PerilsState) -> tuple[str, ...]:
        """Suits that may be channelled against the current peril (PP-A6)."""
        if state.current is None:
            return ()
        suits = SKILL_SUITS + (("H",) if state.options.heart_is_skill else ())
        return tuple(s for s in suits if s != suit_of(state.current))

    def usable_items(self, state: PerilsState, channel: str | None) -> list[str]:
        """Inventory items that may be committed with this channel (PP-A8)."""
        if not state.options.item_suit_restriction or state.current is None:
            return list(state.inventory)
        ok = {suit_of(state.current), channel}
        return [c for c in state.inventory if card(c).is_joker or suit_of(c) in ok]

    def _check_plan(self, state: PerilsState, seat: int, action: MakePlan) -> None:
        assert state.current is not None
        peril_suit = suit_of(state.current)
        if action.channel is not None:
            if action.channel == peril_suit:
                raise self._refuse(state, seat, action, "channel_same_suit", "PP-A6",
                                   f"channel a skill other than the tested one ({peril_suit}); "
                                   f"allowed {list(self.allowed_channels(state))}")
            if action.channel not in self.allowed_channels(state):
                raise self._refuse(state, seat, action, "channel_not_allowed", "PP-A6",
                                   f"allowed {list(self.allowed_channels(state))} or none")
        if len(set(action.items)) != len(action.items):
            raise self._refuse(state, seat, action, "duplicate_item", "PP-R13",
                               "each item can be committed once")
        for code in action.items:
            if code not in state.inventory:
                raise self._refuse(state, seat, action, "item_not_held", "PP-R13",
                                   f"{code!r} is not in the inventory {state.inventory}")
        usable = self.usable_items(state, action.channel)
        for code in action.items:
            if code not in usable:
                raise self._refuse(state, seat, action, "item_wrong_suit", "PP-A8",
                                   f"with item_suit_restriction {code} needs the peril's or "
                                   f"the channelled suit; usable {usable}")
        if not isinstance(action.plan, str) or len(action.plan) > MAX_PLAN:
            raise self._refuse(state, seat, action, "plan_too_long", "PP-R13",
                               f"a plan is at most {MAX_PLAN} characters")

    def _check_judge(self, state: PerilsState, seat: int, action: JudgePlan) -> None:
        if action.approve_channel and state.plan_channel is None:
            raise self._refuse(state, seat, action, "nothing_to_approve", "PP-R13",
                               "the plan channels no skill")
        items = action.approve_items
        if len(set(items)) != len(items) or any(c not in state.plan_items for c in items):
            raise self._refuse(state, seat, action, "item_not_in_plan", "PP-R13",
                               f"approve items among the committed {state.plan_items}")
        if action.advantage and state.options.advantage_threshold is None:
            raise self._refuse(state, seat, action, "advantage_disabled", "PP-A7",
                               "advantage_threshold is None: advantage is never granted")

    def _plan_list(self, state: PerilsState) -> list[Action]:
        """MakePlan per channel x first k usable items, channels in order (the trie's plans)."""
        assert state.current is not None
        out: list[Action] = []
        # Without the suit restriction every channel may commit the whole inventory: one walk.
        shared = (None if state.options.item_suit_restriction
                  else _prefix_nodes(state.inventory))
        for channel in (None, *self.allowed_channels(state)):
            index = _CHANNEL_INDEX[channel]
            nodes = shared if shared is not None else _prefix_nodes(
                self.usable_items(state, channel))
            for node in nodes:
                out.append(node.plan(index, channel))
        return out

    def _plan(self, state: PerilsState, action: MakePlan, events: list[Event],
              explain: bool = True) -> None:
        state.plan_made = True
        state.plan_channel = action.channel
        state.plan_items = list(action.items)
        state.plan_text = action.plan
        events.append(ev.PlanMade(channel=action.channel, items=tuple(action.items),
                                  plan=action.plan))
        opts = state.options
        if opts.teller_policy == "human":
            state.phase = "judge"
            return
        if opts.teller_policy == "approve_all":
            verdict = approve_all(action.channel, tuple(action.items), opts.advantage_threshold,
                                  self.theme(opts))
        else:
            verdict = self._judge(state)
        self._judged(state, verdict, opts.teller_policy, events, explain)

    def _judge(self, state: PerilsState) -> Judgement:
        """The rubric's verdict on the plan in play, with its reasons (the judge memoises)."""
        opts = state.options
        return self.judge.judge(state.plan_text, state.plan_channel, tuple(state.plan_items),
                                self.theme(opts), opts.advantage_threshold,
                                self._target_for(state))

    def advice(self, state: PerilsState) -> Judgement | None:
        """What the rubric says of the plan in play (None before a plan): the verdict under
        teller_policy="rubric", the suggestion a Teller who judges is shown."""
        if not state.plan_made or state.current is None:
            return None
        return self._judge(state)

    def _target_for(self, state: PerilsState) -> Target | None:
        """The thing the Hero faces: the one this game's Teller chose for the current card."""
        code = state.current
        if code is None:
            return None
        return thing_for(state, code)

    def _judged(self, state: PerilsState, verdict: Judgement, by: str, events: list[Event],
                explain: bool = True) -> None:
        """Record the verdict. `explain=False` (apply_quiet: no one reads the events) leaves the
        PlanJudged event without its reasons, the one part of an event that costs real work."""
        if by == "teller":  # the Teller's own verdict, with the rubric's reasons beside it
            advice = self._judge(state)
            verdict = overruled(advice, verdict.approve_channel, verdict.approve_items,
                                verdict.advantage)
        state.judged = True
        state.approve_channel = verdict.approve_channel
        state.approve_items = list(verdict.approve_items)
        state.advantage = verdict.advantage
        state.phase = "roll"
        events.append(ev.PlanJudged(approve_channel=verdict.approve_channel,
                                    approve_items=tuple(verdict.approve_items),
                                    advantage=verdict.advantage, bonus=self.bonus(state), by=by,
                                    reasons=self._explain(state, verdict) if explain else None))

    def _plan_reasons(self, state: PerilsState) -> dict[str, Any] | None:
        """The reasons shown beside the plan: the rubric's (its advice while a Teller judges;
        after a Teller's verdict, the overruled sources marked as the Teller's)."""
        if not state.plan_made or state.current is None:
            return None
        if state.judged and state.options.teller_policy == "approve_all":
            # Approved whatever the rubric says: the rubric's verdict would be thrown away.
            advice = approve_all(state.plan_channel, tuple(state.plan_items),
                                 state.options.advantage_threshold, self.theme(state.options))
            return self._explain(state, advice)
        advice = self._judge(state)
        if state.judged and state.options.teller_policy == "human":
            advice = overruled(advice, state.approve_channel, tuple(state.approve_items),
                               state.advantage)
        return self._explain(state, advice)

    def _explain(self, state: PerilsState, verdict: Judgement) -> dict[str, Any]:
        """The verdict's reasons as JSON, each source with the bonus it brings (`value`: a
        channel brings its level under channel_bonus="level")."""
        level = (self.levels(state)[state.plan_channel]
                 if state.plan_channel is not None and state.options.channel_bonus == "level"
                 else 1)
        return explanation_json(verdict, level)
