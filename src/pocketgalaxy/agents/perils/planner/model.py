"""The planner's compact model of Perils & Pathways: a fast rule-based playout of the main
phase and the exact showdown (a memoised expectimax over the Big Bads' order and items).

`model_for(options, start_health)` distils the options that shape the odds into a hashable
`Model`; `sim_for(model)` gives the shared `Sim` with its memo tables. The planning Hero
(planner/hero.py) and the adaptive Teller (styles.py) both read their odds from here.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pocketgalaxy.agents.perils.common import success_chance
from pocketgalaxy.core.cards import DECK_54, card
from pocketgalaxy.games.perils.content import band_of
from pocketgalaxy.games.perils.narration import card_kind
from pocketgalaxy.games.perils.options import PerilsOptions

PERIL, GIFT, ITEM = 0, 1, 2
SUITS = ("D", "C", "S")
SUIT_INDEX = {"D": 0, "C": 1, "S": 2}
ALL_BADS = 0b111
_BIG_BAD = 11
_ITEM_CAP = 10
"""More items than this never help: with 10 items even the Big Bads need a die of 1 or less."""
_BAND_VALUES = {"low": (2, 3, 4), "mid": (5, 6, 7), "high": (8, 9, 10)}

SimCard = tuple[int, int, int]
"""A card in the compact model: (kind, suit index 0..2 or 3 for none, value)."""

MAIN_CODES: tuple[str, ...] = tuple(c for c in DECK_54 if not card(c).is_ace)


def _sim_card(code: str) -> SimCard:
    c = card(code)
    if c.is_face or c.is_joker:
        return (ITEM, 3, 0)
    assert c.suit is not None
    if c.suit.value == "H":
        return (GIFT, 3, c.rank)
    return (PERIL, SUIT_INDEX[c.suit.value], c.rank)


SIM_CARDS: dict[str, SimCard] = {c: _sim_card(c) for c in MAIN_CODES}
# (kind, suit letter or "", band or "") for matching hints quickly.
_PROPS: dict[str, tuple[str, str, str]] = {
    c: (card_kind(c), c[-1] if card_kind(c) == "peril" else "",
        band_of(card(c).rank) if card_kind(c) == "peril" else "")
    for c in MAIN_CODES
}


def matches_hint(code: str, hint: dict[str, str] | None) -> bool:
    """True when the card could lie behind a pathway with this structured hint."""
    if not hint:
        return True
    kind, suit, band = _PROPS[code]
    want = hint.get("kind")
    if want is not None and want != kind:
        return False
    want = hint.get("suit")
    if want is not None and want != suit:
        return False
    want = hint.get("band")
    return want is None or want == band


@dataclass(frozen=True)
class Model:
    """The options that shape the odds, distilled for the compact model (hashable: it keys the
    memo tables)."""

    k: int
    ge: bool
    autopass_ge: bool
    skill_adds: bool
    max_health: int
    reset_health: int
    chan_level: bool
    adv_threshold: int | None
    half_up: bool
    per_skill: bool
    shuffle_back: str
    showdown_lose: bool
    defeat_all: bool
    knows_bad_order: bool
    fidelity: str
    final_discard: bool
    keep: int


def model_for(opts: PerilsOptions, start_health: int, keep: int = 5) -> Model:
    """Distil the options (and the game's starting health) into the compact model."""
    return Model(
        k=opts.pathways_per_round,
        ge=opts.success_comparison == ">=",
        autopass_ge=opts.autopass_comparison == ">=",
        skill_adds=opts.skill_adds_to_roll,
        max_health=opts.max_health,
        reset_health=opts.reset_health if opts.reset_health is not None else start_health,
        chan_level=opts.channel_bonus == "level",
        adv_threshold=opts.advantage_threshold,
        half_up=opts.half_rounding == "up",
        per_skill=opts.half_scope == "per_skill",
        shuffle_back=opts.shuffle_back_rule,
        showdown_lose=opts.showdown_zero_health == "lose",
        defeat_all=opts.win_condition == "defeat_all",
        knows_bad_order=(opts.showdown_order == "hero_chooses"
                         and opts.hint_fidelity == "suit+band"),
        fidelity=opts.hint_fidelity,
        final_discard=opts.final_short_round == "discard_leftover",
        keep=keep,
    )


class Sim:
    """The compact model: a fast rule-based playout of the main phase and the exact showdown.

    State in a playout: `lv` (levels of D, C, S), `tucked` (gained level values per suit, most
    recent last), `h` (health), `items` (a count), `draw` (SimCards, the top card last).
    """

    def __init__(self, m: Model) -> None:
        self.m = m
        self._sd: dict[tuple[Any, ...], float] = {}
        self._reps: dict[SimCard, tuple[int, tuple[tuple[int, int], ...]]] = {}
        self._scores: dict[tuple[Any, ...], float] = {}
        # Above this many items a score no longer changes (the policy's reserve is `keep`), so
        # the memo key may cap there; a lower cap would make a score depend on the process's past.
        self._score_items = max(_ITEM_CAP, m.keep + 2)
        self._uses: dict[tuple[Any, ...], int] = {}

    # -- odds ---------------------------------------------------------------------------
    def chance(self, lv: Sequence[int], s: int, d: int, k: int) -> float:
        """P(success) against difficulty d in suit s, channelling the best other skill and
        committing k items (all approved; advantage when the sources reach the threshold)."""
        m = self.m
        if m.chan_level:
            bonus = max(lv[o] for o in range(3) if o != s) + k
        else:
            bonus = 1 + k
        if m.skill_adds:
            bonus += lv[s]
        need = d - bonus + (0 if m.ge else 1)
        adv = m.adv_threshold is not None and 1 + k >= m.adv_threshold
        return success_chance(need, adv)

    def autopass(self, level: int, d: int) -> bool:
        return level > d or (self.m.autopass_ge and level >= d)

    # -- the rollout policy (the rule-based Hero's habits) ------------------------------
    def policy_items(self, lv: Sequence[int], s: int, d: int, h: int, items: int) -> int:
        """Items to commit in the main phase: only when they bring the odds to 3 in 4."""
        if items == 0 or d - 1 <= 2:
            return 0
        key = (lv[0], lv[1], lv[2], s, d, h == 1, items)
        got = self._uses.get(key)
        if got is not None:
            return got
        use = 0
        cap = min(items, 3) if h == 1 else min(max(0, items - self.m.keep), 2)
        for j in range(1, cap + 1):
            if self.chance(lv, s, d, j) >= 0.75:
                use = j
                break
        if len(self._uses) > 200_000:
            self._uses.clear()
        self._uses[key] = use
        return use

    def _peril_value(self, lv: Sequence[int], s: int, d: int, h: int, items: int) -> float:
        if self.autopass(lv[s], d):
            return 0.6
        p = self.chance(lv, s, d, self.policy_items(lv, s, d, h, items))
        return p * 1.5 - (1 - p) * (1.0 if h > 1 else 4.0)

    def _hint_reps(self, c: SimCard) -> tuple[int, tuple[tuple[int, int], ...]]:
        """What the rollout Hero can tell of a card from its hint: (kind or -1, the (suit,
        difficulty) pairs it could be if a peril)."""
        got = self._reps.get(c)
        if got is not None:
            return got
        kind, s, d = c
        fid = self.m.fidelity
        every = tuple((t, v) for t in range(3) for v in range(2, 11))
        if fid == "none":
            rep: tuple[int, tuple[tuple[int, int], ...]] = (-1, every)
        elif kind != PERIL:
            rep = (kind, ())
        elif fid == "kind_only":
            rep = (PERIL, every)
        else:
            band = _BAND_VALUES[band_of(d)]
            suits = (s,) if fid == "suit+band" else (0, 1, 2)
            rep = (PERIL, tuple((t, v) for t in suits for v in band))
        self._reps[c] = rep
        return rep

    def score(self, c: SimCard, lv: Sequence[int], h: int, items: int) -> float:
        """How much the rollout Hero likes a pathway, from what its hint tells."""
        kind, reps = self._hint_reps(c)
        if kind == GIFT:
            maxh = self.m.max_health
            return 3.0 + (maxh - h) if h < maxh else 0.1
        if kind == ITEM:
            return 2.5
        if kind == -1:
            return 0.0  # nothing to tell the pathways apart
        key = (reps, lv[0], lv[1], lv[2], h, min(items, self._score_items))
        got = self._scores.get(key)
        if got is None:
            got = sum(self._peril_value(lv, t, v, h, items) for t, v in reps) / len(reps)
            if len(self._scores) > 200_000:
                self._scores.clear()
            self._scores[key] = got
        return got

    # -- playing out ----------------------------------------------------------------------
    def resolve(self, c: SimCard, lv: list[int], tucked: list[list[int]], h: int, items: int,
                draw: list[SimCard], rnd: random.Random) -> tuple[int, int]:
        """Resolve one chosen card with the rollout policy; returns (health, items)."""
        kind, s, d = c
        if kind == GIFT:
            return (h + 1 if h < self.m.max_health else h), items
        if kind == ITEM:
            return h, items + 1
        if self.autopass(lv[s], d):
            return h, items
        use = self.policy_items(lv, s, d, h, items)
        if rnd.random() < self.chance(lv, s, d, use):
            lv[s] += 1
            tucked[s].append(d)
            return h, items - use
        return self.fail(lv, tucked, h, items - use, draw, rnd)

    def fail(self, lv: list[int], tucked: list[list[int]], h: int, items: int,
             draw: list[SimCard], rnd: random.Random) -> tuple[int, int]:
        """A failed main-phase roll: -1 health, and the zero-health penalty (PP-R18)."""
        h -= 1
        if h > 0:
            return h, items
        m = self.m
        lost: list[SimCard] = [(ITEM, 3, 0)] * items
        half = math.ceil if m.half_up else math.floor
        if m.per_skill:
            for s in range(3):
                for _ in range(int(half(len(tucked[s]) / 2))):
                    lost.append((PERIL, s, tucked[s].pop()))
                    lv[s] -= 1
        else:
            for _ in range(int(half(sum(len(t) for t in tucked) / 2))):
                s = max((t for t in range(3) if tucked[t]), key=lambda t: (lv[t], -t))
                lost.append((PERIL, s, tucked[s].pop()))
                lv[s] -= 1
        rule = m.shuffle_back
        if rule == "random_half_up":
            back = rnd.sample(lost, math.ceil(len(lost) / 2))
        elif rule in ("items_only", "teller_chooses"):
            back = [c for c in lost if c[0] == ITEM]
        elif rule == "all":
            back = lost
        else:
            back = []
        for c in back:
            draw.insert(int(rnd.random() * (len(draw) + 1)), c)
        return m.reset_health, 0

    def rollout(self, lv: list[int], tucked: list[list[int]], h: int, items: int,
                draw: list[SimCard], rnd: random.Random) -> float:
        """Play the rest of the main phase with the rollout policy; the exact showdown value."""
        k = self.m.k
        while draw:
            n = len(draw)
            if n < k and self.m.final_discard:
                break
            if n >= k:
                cards = draw[n - k:]
                del draw[n - k:]
            else:
                cards = draw[:]
                draw.clear()
            best = cards[0]
            if len(cards) > 1:
                best_score = self.score(best, lv, h, items)
                for c in cards[1:]:
                    sc = self.score(c, lv, h, items)
                    if sc > best_score + 1e-9:
                        best, best_score = c, sc
            h, items = self.resolve(best, lv, tucked, h, items, draw, rnd)
        return self.showdown(tuple(lv), ALL_BADS, h, items, False)

    # -- the showdown, exactly -----------------------------------------------------------
    def showdown(self, lv: tuple[int, ...], rem: int, h: int, items: int, failed: bool
                 ) -> float:
        """P(win) from the showdown with Big Bads `rem` (a bit mask of suits) still to meet."""
        if h <= 0:
            return 0.0
        if rem == 0:
            return 0.0 if (self.m.defeat_all and failed) else 1.0
        items = min(items, _ITEM_CAP)
        key = (lv, rem, h, items, failed)
        got = self._sd.get(key)
        if got is not None:
            return got
        qs = [self.facing(lv, rem, s, h, items, failed)[0] for s in range(3) if rem >> s & 1]
        value = max(qs) if self.m.knows_bad_order else sum(qs) / len(qs)
        self._sd[key] = value
        return value

    def facing(self, lv: tuple[int, ...], rem: int, s: int, h: int, items: int, failed: bool
               ) -> tuple[float, int]:
        """(P(win), best item count) when the Big Bad of suit s is flipped and `rem` (which
        includes s) remain."""
        rest = rem & ~(1 << s)
        if self.autopass(lv[s], _BIG_BAD):
            return self.showdown(lv, rest, h, items, failed), 0
        up = tuple(v + 1 if i == s else v for i, v in enumerate(lv))
        best, best_k = -1.0, 0
        for k in range(min(items, _ITEM_CAP) + 1):
            p = self.chance(lv, s, _BIG_BAD, k)
            win = self.showdown(up, rest, h, items - k, failed) if p > 0 else 0.0
            if h - 1 > 0:
                lose = self.showdown(lv, rest, h - 1, items - k, True)
            elif self.m.showdown_lose:
                lose = 0.0
            else:
                lose = self.showdown(lv, rest, self.m.reset_health, 0, True)
            value = p * win + (1 - p) * lose
            if value > best + 1e-12:
                best, best_k = value, k
            if p >= 1.0:
                break
        return best, best_k


_SIMS: dict[Model, Sim] = {}


def sim_for(m: Model) -> Sim:
    """The compact model for these options (shared, so its memo tables are reused)."""
    got = _SIMS.get(m)
    if got is None:
        if len(_SIMS) > 32:
            _SIMS.clear()
        got = _SIMS[m] = Sim(m)
    return got
