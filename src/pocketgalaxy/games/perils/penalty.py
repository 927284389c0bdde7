"""The zero-health penalty of Perils & Pathways (PP-R18, PP-A9, PP-A10, PP-A15), and the check
of a pinned deal: split from rules.py by job. `ZeroHealthPenalty` is the direct base of
`PerilsRules`: losing every item, half the gained levels (who chooses, how rounded), the cards
that go back into the draw pile, and the health reset.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from pocketgalaxy.core.cards import DECK_54, card, parse_card
from pocketgalaxy.core.errors import CardCodeError, IllegalActionError, OptionsError
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.core.mypyc_marks import mypyc_attr
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.actions import ChooseLostLevels
from pocketgalaxy.games.perils.planning import PlanJudging
from pocketgalaxy.games.perils.state import PerilsState

SKILL_SUITS = ("D", "C", "S")
ACES = ("AD", "AC", "AS")
MAX_LISTED_CHOICES = 64


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class ZeroHealthPenalty(PlanJudging):
    """The penalty at zero health; the rules class supplies the flow (`_next`, `_game_over`)
    and refusals (`_refuse`)."""

    def _next(self, state: PerilsState, events: list[Event]) -> None:
        raise NotImplementedError

    def _refuse(self, state: PerilsState, seat: int, action: Action, reason: str, rule: str,
                detail: str = "") -> IllegalActionError:
        raise NotImplementedError

    def lose_quota(self, state: PerilsState) -> dict[str, int]:
        """How many gained levels to lose per suit ("per_skill") or in all ("total": key "*")."""
        opts = state.options
        rnd = math.ceil if opts.half_rounding == "up" else math.floor
        if opts.half_scope == "per_skill":
            return {s: int(rnd(len(state.tucked[s]) / 2)) for s in SKILL_SUITS}
        gained = sum(len(state.tucked[s]) for s in SKILL_SUITS)
        return {"*": int(rnd(gained / 2))}

    def _check_lost_levels(self, state: PerilsState, seat: int, action: ChooseLostLevels
                           ) -> None:
        cards = action.cards
        gained = [c for s in SKILL_SUITS for c in state.tucked[s]]
        if len(set(cards)) != len(cards) or any(c not in gained for c in cards):
            raise self._refuse(state, seat, action, "not_a_gained_level", "PP-A9",
                               f"choose among the tucked skill cards {gained}")
        if len(cards) != state.levels_to_lose:
            raise self._refuse(state, seat, action, "wrong_count", "PP-A9",
                               f"lose exactly {state.levels_to_lose} gained level(s)")
        quota = self.lose_quota(state)
        if "*" not in quota:
            for s in SKILL_SUITS:
                if sum(1 for c in cards if suit_of(c) == s) != quota[s]:
                    raise self._refuse(state, seat, action, "wrong_split", "PP-A9",
                                       f"half_scope=per_skill: lose {quota} per suit")

    def _lost_level_choices(self, state: PerilsState) -> list[tuple[str, ...]]:
        quota = self.lose_quota(state)
        if "*" in quota:
            gained = [c for s in SKILL_SUITS for c in state.tucked[s]]
            n = quota["*"]
            if math.comb(len(gained), n) <= MAX_LISTED_CHOICES:
                return list(itertools.combinations(gained, n))
            # Canonical: every split of n over the suits, most recent cards first in each suit.
            out = []
            sizes = [len(state.tucked[s]) for s in SKILL_SUITS]
            for a in range(min(n, sizes[0]) + 1):
                for b in range(min(n - a, sizes[1]) + 1):
                    c = n - a - b
                    if c <= sizes[2]:
                        split = (a, b, c)
                        out.append(tuple(
                            x for s, k in zip(SKILL_SUITS, split, strict=True)
                            for x in state.tucked[s][len(state.tucked[s]) - k:]
                        ))
            return out
        per_suit = [list(itertools.combinations(state.tucked[s], quota[s])) for s in SKILL_SUITS]
        total = math.prod(len(p) for p in per_suit)
        if total > MAX_LISTED_CHOICES:
            per_suit = [[p[-1]] for p in per_suit]
        return [tuple(x for part in combo for x in part) for combo in itertools.product(*per_suit)]

    def _start_penalty(self, state: PerilsState, events: list[Event]) -> None:
        lost_items = list(state.inventory)
        state.inventory = []
        state.limbo.extend(lost_items)
        events.append(ev.ItemsLost(cards=tuple(lost_items)))
        quota = self.lose_quota(state)
        n = sum(quota.values())
        state.levels_to_lose = n
        chooser = state.options.lost_levels_chooser
        if self._lost_levels_forced(state, quota):
            self._lose_levels(state, list(self._lost_level_choices(state)[0]), events)
        elif chooser in ("hero", "teller"):
            state.phase = "lose_levels"
        elif chooser == "random":
            picked: list[str] = []
            for s in SKILL_SUITS if "*" not in quota else ("*",):
                pool = ([c for t in SKILL_SUITS for c in state.tucked[t]] if s == "*"
                        else list(state.tucked[s]))
                picked.extend(state.rng.sample(pool, quota[s]))
            self._lose_levels(state, picked, events)
        else:  # most_recent
            if "*" in quota:
                picked = state.tuck_order[len(state.tuck_order) - n:]
            else:
                picked = [c for s in SKILL_SUITS
                          for c in state.tucked[s][len(state.tucked[s]) - quota[s]:]]
            self._lose_levels(state, picked, events)

    def _lost_levels_forced(self, state: PerilsState, quota: dict[str, int]) -> bool:
        """True when only one set of cards can be lost (none, or every gained card)."""
        if "*" in quota:
            gained = sum(len(state.tucked[s]) for s in SKILL_SUITS)
            return quota["*"] in (0, gained)
        return all(quota[s] in (0, len(state.tucked[s])) for s in SKILL_SUITS)

    def _lose_levels(self, state: PerilsState, cards: list[str], events: list[Event]) -> None:
        for c in cards:
            state.tucked[suit_of(c)].remove(c)
            state.tuck_order.remove(c)
        state.limbo.extend(cards)
        state.levels_to_lose = 0
        events.append(ev.LevelsLost(cards=tuple(cards)))
        opts = state.options
        lost = list(state.limbo)
        if state.stage == "showdown":
            back: list[str] = []
        elif opts.shuffle_back_rule == "random_half_up":
            back = state.rng.sample(lost, math.ceil(len(lost) / 2))
        elif opts.shuffle_back_rule == "items_only":
            back = [c for c in lost if not card(c).is_number]
        elif opts.shuffle_back_rule == "all":
            back = lost
        elif opts.shuffle_back_rule == "teller_chooses" and lost:
            state.phase = "shuffle_back"
            return
        else:
            back = []
        self._finish_penalty(state, back, events)

    def _finish_penalty(self, state: PerilsState, back: list[str], events: list[Event]) -> None:
        back = sorted(back, key=DECK_54.index)
        for c in back:
            state.limbo.remove(c)
            state.draw.insert(state.rng.below(len(state.draw) + 1), c)
        events.append(ev.CardsShuffledBack(cards=tuple(back), draw_count=len(state.draw)))
        if state.limbo:
            events.append(ev.CardsDiscarded(cards=tuple(state.limbo), reason="zero_health"))
            state.discarded.extend(state.limbo)
            state.limbo = []
        if state.damage:
            events.append(ev.CardsDiscarded(cards=tuple(state.damage), reason="damage"))
            state.discarded.extend(state.damage)
            state.damage = []
        opts = state.options
        state.health = opts.reset_health if opts.reset_health is not None else state.start_health
        events.append(ev.HealthReset(health=state.health))
        self._next(state, events)


PINNED_KEYS = ("draw", "big_bads", "rolls", "rounds")
MAX_PINNED_ROUNDS = 500
"""At most this many rounds in a pinned "rounds" list (a game has about 30)."""
MAX_ROUND_CARDS = 3
"""A round lays at most three pathways, so a pinned round names at most three cards."""


def validate_pinned(pinned: Any) -> dict[str, list[Any]]:
    """Check a pinned deal: {"draw": [...], "big_bads": [...], "rolls": [...], "rounds":
    [[...], ...]} (all optional). `rounds[r - 1]` names the cards round r lays first, in
    position order, wherever they lie in the draw pile (or among the waiting Big Bads in the
    showdown); an empty list leaves that round to the pile. Unlike `draw`, it is read when the
    round is dealt, so it holds after cards are shuffled back, and a longer list never changes
    the rounds before it (a physical deck's companion grows it round by round)."""
    if pinned is None:
        return {}
    if not isinstance(pinned, dict):
        raise OptionsError("pinned must be an object with draw, big_bads, rolls and rounds",
                           allowed=list(PINNED_KEYS))
    unknown = sorted(set(pinned) - set(PINNED_KEYS))
    if unknown:
        raise OptionsError(f"unknown pinned key(s) {unknown}", allowed=list(PINNED_KEYS))
    out: dict[str, list[Any]] = {}
    try:
        draw = [parse_card(c).code for c in pinned.get("draw") or []]
        bigs = [parse_card(c).code for c in pinned.get("big_bads") or []]
    except CardCodeError as exc:
        raise OptionsError(f"pinned: {exc.message}") from exc
    if len(set(draw)) != len(draw) or any(card(c).is_ace for c in draw):
        raise OptionsError("pinned draw must be different non-ace cards (aces are the Big Bads "
                           "and the Prize, PP-R5)")
    if bigs and sorted(bigs) != sorted(ACES):
        raise OptionsError("pinned big_bads must be AD, AC and AS in some order (PP-R5)",
                           allowed=list(ACES))
    rolls = pinned.get("rolls") or []
    if not isinstance(rolls, list) or any(
        isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= 6 for r in rolls
    ):
        raise OptionsError("pinned rolls must be a list of die results 1..6")
    if draw:
        out["draw"] = draw
    if bigs:
        out["big_bads"] = bigs
    if rolls:
        out["rolls"] = list(rolls)
    rounds = _pinned_rounds(pinned.get("rounds"))
    if rounds:
        out["rounds"] = rounds
    return out


def _pinned_rounds(value: Any) -> list[list[str]]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_PINNED_ROUNDS:
        raise OptionsError(f"pinned rounds must be a list of at most {MAX_PINNED_ROUNDS} "
                           "rounds, each a list of card codes")
    out: list[list[str]] = []
    for r, cards in enumerate(value, 1):
        if not isinstance(cards, list) or len(cards) > MAX_ROUND_CARDS:
            raise OptionsError(f"pinned round {r} must be a list of at most {MAX_ROUND_CARDS} "
                               "card codes")
        try:
            codes = [parse_card(c).code for c in cards]
        except CardCodeError as exc:
            raise OptionsError(f"pinned round {r}: {exc.message}") from exc
        if len(set(codes)) != len(codes) or "AH" in codes:
            raise OptionsError(f"pinned round {r} must name different cards, never AH "
                               "(the Prize)")
        out.append(codes)
    return out


def lay_pinned_round(state: PerilsState, pile: list[str], n: int) -> None:
    """Move the cards pinned for the round about to be dealt (state.round + 1) to the top of
    `pile` (the draw pile, or the waiting Big Bads), in order, before `n` cards are laid.

    Raises OptionsError when a pinned card is not in the pile or more are pinned than the
    round lays: the pinned deal does not fit the game (nothing is changed)."""
    pinned = state.pinned
    if pinned is None:  # nothing pinned (every simulated game): no dict or list made
        return
    rounds = pinned.get("rounds") or []
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


def suit_of(code: str) -> str:
    """The suit letter of a canonical code ("*" for a joker)."""
    return "*" if code.startswith("JK") else code[-1]
