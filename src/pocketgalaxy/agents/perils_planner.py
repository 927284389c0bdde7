"""The planning Hero for Perils & Pathways (`planner`): it estimates its chance of winning.

The planner reads only its view (and the events its seat may see). It keeps a small memory of
what it has seen: the hints of the pathways it did not take, and the cards it watched leave
play. From that it knows which cards are still unseen and how many lie where (draw pile,
unchosen pathways), and decides by estimating its chance of winning from each choice:

- **showdown** (the Big Bads, difficulty 11): exact. A memoised expectimax over the order of
  the remaining Big Bads (when the hints reveal their suits) and the number of items to
  commit to each, with the exact d6 odds (one die, or the better of two with advantage);
- **pathways and items in the main phase**: Monte Carlo. Each sample deals the unseen cards
  at random, consistent with every hint and count the Hero knows (the current pathways, the
  unchosen pathways of earlier rounds, the draw-pile size), then plays the rest of the main
  phase with a fast rule-based policy on a compact model of the rules, and scores the state it
  reaches with the exact showdown value. Every choice is scored on the same samples and the
  same dice (common random numbers), so differences between choices are measured sharply;
- **archetype**: the same playouts from a fresh deal, computed once per process and rules.

Choices are compared on paired samples. The planner keeps the rollout policy's own choice
unless another beats it by more than `confidence` standard errors of the paired differences
(sampling noise must not overturn a sensible habit), and stops sampling early, after whole
batches of 8, once the leader is clear by 3 standard errors or all choices score alike.

Settings: `samples` (Monte Carlo samples per decision at most, default 24), `confidence`
(default 1.0), `max_items` (the most items considered for one main-phase peril, default 4),
`keep_items` (the rollout policy's reserve for the showdown, default 5).

The compact model follows the options that shape the odds (pathways per round, comparisons,
skill_adds_to_roll, health, channel_bonus, advantage_threshold, the zero-health penalty's
scope, rounding and shuffle-back, hint_fidelity, showdown order and zero health, win
condition). It treats every item as usable on every peril (item_suit_restriction only limits
which legal plans it can pick) and assumes the Teller approves the sources its plan names, as
the rubric does: the plan text names each one. docs/agents-perils.md has the details.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.perils import RuleBasedHero, read_hint, success_chance, write_plan
from pocketgalaxy.core.cards import DECK_54, card
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.actions import ChooseArchetype, ChoosePathway, MakePlan
from pocketgalaxy.games.perils.content import Theme, band_of, load_theme
from pocketgalaxy.games.perils.narration import card_kind
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.views import PerilsView

_PERIL, _GIFT, _ITEM = 0, 1, 2
_SUITS = ("D", "C", "S")
_SUIT_INDEX = {"D": 0, "C": 1, "S": 2}
_ALL_BADS = 0b111
_BIG_BAD = 11
_ITEM_CAP = 10
"""More items than this never help: with 10 items even the Big Bads need a die of 1 or less."""
_BAND_VALUES = {"low": (2, 3, 4), "mid": (5, 6, 7), "high": (8, 9, 10)}
_ARCHETYPE_SAMPLES = 300

SimCard = tuple[int, int, int]
"""A card in the compact model: (kind, suit index 0..2 or 3 for none, value)."""

_MAIN_CODES: tuple[str, ...] = tuple(c for c in DECK_54 if not card(c).is_ace)


def _sim_card(code: str) -> SimCard:
    c = card(code)
    if c.is_face or c.is_joker:
        return (_ITEM, 3, 0)
    assert c.suit is not None
    if c.suit.value == "H":
        return (_GIFT, 3, c.rank)
    return (_PERIL, _SUIT_INDEX[c.suit.value], c.rank)


_SIM: dict[str, SimCard] = {c: _sim_card(c) for c in _MAIN_CODES}
# (kind, suit letter or "", band or "") for matching hints quickly.
_PROPS: dict[str, tuple[str, str, str]] = {
    c: (card_kind(c), c[-1] if card_kind(c) == "peril" else "",
        band_of(card(c).rank) if card_kind(c) == "peril" else "")
    for c in _MAIN_CODES
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
class _Model:
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


def model_for(opts: PerilsOptions, start_health: int, keep: int = 5) -> _Model:
    """Distil the options (and the game's starting health) into the compact model."""
    return _Model(
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


class _Sim:
    """The compact model: a fast rule-based playout of the main phase and the exact showdown.

    State in a playout: `lv` (levels of D, C, S), `tucked` (gained level values per suit, most
    recent last), `h` (health), `items` (a count), `draw` (SimCards, the top card last).
    """

    def __init__(self, m: _Model) -> None:
        self.m = m
        self._sd: dict[tuple[Any, ...], float] = {}
        self._reps: dict[SimCard, tuple[int, tuple[tuple[int, int], ...]]] = {}
        self._scores: dict[tuple[Any, ...], float] = {}
        self._uses: dict[tuple[Any, ...], int] = {}
        # Above this many items a score no longer changes (the policy's reserve is `keep`), so
        # the memo key may cap there; a lower cap would make a score depend on the process's past.
        self._score_items = max(_ITEM_CAP, m.keep + 2)

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
        elif kind != _PERIL:
            rep = (kind, ())
        elif fid == "kind_only":
            rep = (_PERIL, every)
        else:
            band = _BAND_VALUES[band_of(d)]
            suits = (s,) if fid == "suit+band" else (0, 1, 2)
            rep = (_PERIL, tuple((t, v) for t in suits for v in band))
        self._reps[c] = rep
        return rep

    def score(self, c: SimCard, lv: Sequence[int], h: int, items: int) -> float:
        """How much the rollout Hero likes a pathway, from what its hint tells."""
        kind, reps = self._hint_reps(c)
        if kind == _GIFT:
            maxh = self.m.max_health
            return 3.0 + (maxh - h) if h < maxh else 0.1
        if kind == _ITEM:
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
        if kind == _GIFT:
            return (h + 1 if h < self.m.max_health else h), items
        if kind == _ITEM:
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
        lost: list[SimCard] = [(_ITEM, 3, 0)] * items
        half = math.ceil if m.half_up else math.floor
        if m.per_skill:
            for s in range(3):
                for _ in range(int(half(len(tucked[s]) / 2))):
                    lost.append((_PERIL, s, tucked[s].pop()))
                    lv[s] -= 1
        else:
            for _ in range(int(half(sum(len(t) for t in tucked) / 2))):
                s = max((t for t in range(3) if tucked[t]), key=lambda t: (lv[t], -t))
                lost.append((_PERIL, s, tucked[s].pop()))
                lv[s] -= 1
        rule = m.shuffle_back
        if rule == "random_half_up":
            back = rnd.sample(lost, math.ceil(len(lost) / 2))
        elif rule in ("items_only", "teller_chooses"):
            back = [c for c in lost if c[0] == _ITEM]
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
        return self.showdown(tuple(lv), _ALL_BADS, h, items, False)

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


_SIMS: dict[_Model, _Sim] = {}
_ARCHETYPE_VALUES: dict[tuple[Any, ...], float] = {}


def sim_for(m: _Model) -> _Sim:
    """The compact model for these options (shared, so its memo tables are reused)."""
    got = _SIMS.get(m)
    if got is None:
        if len(_SIMS) > 32:
            _SIMS.clear()
        got = _SIMS[m] = _Sim(m)
    return got


@dataclass
class _Position:
    """What the Hero knows right now, in the compact model's terms."""

    lv: list[int]
    tucked: list[list[int]]
    h: int
    items: int
    pool: list[str]
    draw_count: int


class PlannerHero(Agent):
    """A Hero that estimates its chance of winning from each choice (see the module text)."""

    name = "planner"

    def __init__(self, seed: int = 0, samples: int = 24, max_items: int = 4,
                 keep_items: int = 5, confidence: float = 1.0, **settings: Any) -> None:
        super().__init__(seed, **settings)
        if int(samples) < 1 or int(max_items) < 0 or int(keep_items) < 0:
            raise PocketGalaxyError(
                f"planner settings samples={samples}, max_items={max_items}, "
                f"keep_items={keep_items}: samples must be >= 1, the others >= 0",
                code="agent/bad_spec")
        self.samples = int(samples)
        self.max_items = int(max_items)
        self.keep_items = int(keep_items)
        self.confidence = float(confidence)
        self._fallback = RuleBasedHero(seed, keep_items=keep_items)
        self._forget()

    def _forget(self) -> None:
        self._unchosen_hints: list[dict[str, str]] = []
        self._gone: set[str] = set()
        self._pending: tuple[int, list[dict[str, str]]] | None = None

    def reset(self, seat: int, players: int, options: Any) -> None:
        super().reset(seat, players, options)
        self._fallback.reset(seat, players, options)
        self._forget()

    # -- memory (only events this seat may see) -----------------------------------------
    def observe(self, events: list[Event]) -> None:
        for e in events:
            if isinstance(e, ev.PathwayChosen):
                pending = self._pending
                if pending is not None and pending[0] == e.round:
                    self._unchosen_hints.extend(
                        h for i, h in enumerate(pending[1]) if i != e.position)
                self._pending = None
            elif isinstance(e, (ev.ItemsSpent, ev.CardsDiscarded)):
                self._gone.update(e.cards)
            elif isinstance(e, ev.CardsShuffledBack):
                self._gone.difference_update(e.cards)

    # -- helpers ------------------------------------------------------------------------
    def _opts(self) -> PerilsOptions:
        return self.options if isinstance(self.options, PerilsOptions) else PerilsOptions()

    def _theme(self) -> Theme:
        opts = self._opts()
        return load_theme(opts.theme, opts.archetype_schema)

    def _sim(self, view: PerilsView) -> _Sim:
        start = _start_health(self._opts(), view)
        return sim_for(model_for(self._opts(), start, self.keep_items))

    def _random(self) -> random.Random:
        return random.Random(self.rng.below(1 << 62))

    def _hints(self, view: PerilsView) -> list[dict[str, str]]:
        theme = self._theme()
        return [p.hint if p.hint is not None else read_hint(p.description or "", theme)
                for p in view.pathways]

    def _position(self, view: PerilsView) -> _Position:
        levels = {s.suit: s for s in view.skills}
        lv = [levels[s].level for s in _SUITS]
        tucked = [[card(c).rank for c in levels[s].tucked if card(c).is_number] for s in _SUITS]
        known: set[str] = set(self._gone)
        for s in view.skills:
            known.update(s.base)
            known.update(s.tucked)
        known.update(view.damage, view.spent, view.lost_pending)
        known.update(i.code for i in view.items)
        if view.current is not None:
            known.add(view.current)
        if view.unchosen_faces is not None:
            known.update(view.unchosen_faces)
        pool = [c for c in _MAIN_CODES if c not in known]
        return _Position(lv, tucked, view.health, len(view.items), pool, view.draw_count)

    def _deal(self, pos: _Position, rnd: random.Random, pathway_hints: list[dict[str, str]],
              unchosen_hints: list[dict[str, str]]) -> tuple[list[SimCard], list[SimCard]]:
        """One sample of the unseen cards: the current pathways (matching their hints), then
        the unchosen pathways of earlier rounds (matching theirs), then the draw pile."""
        pool = pos.pool[:]
        rnd.shuffle(pool)
        pathways: list[SimCard] = []
        for hint in pathway_hints:
            i = next((j for j, c in enumerate(pool) if matches_hint(c, hint)), 0 if pool else -1)
            pathways.append(_SIM[pool.pop(i)] if i >= 0 else (_ITEM, 3, 0))
        for hint in unchosen_hints:
            i = next((j for j, c in enumerate(pool) if matches_hint(c, hint)), -1)
            if i >= 0:
                pool.pop(i)
        draw = [_SIM[c] for c in pool[:pos.draw_count]]
        return pathways, draw

    def _unchosen_in_play(self, view: PerilsView) -> list[dict[str, str]]:
        if view.unchosen_faces is not None:
            return []
        return self._unchosen_hints[: view.table.get("unchosen", 0)]

    # -- acting -------------------------------------------------------------------------
    def act(self, view: Any, legal: list[Action]) -> Action:
        assert isinstance(view, PerilsView)
        if view.phase == "archetype":
            return self._archetype(view, legal)
        if view.phase == "choose":
            self._pending = (view.round, self._hints(view)) if view.stage == "main" else None
            if len(legal) == 1:
                return legal[0]
            if view.stage == "showdown":
                return self._choose_big_bad(view, legal)
            return self._choose(view, legal)
        if view.phase == "plan":
            return self._plan(view, legal)
        return self._fallback.act(view, legal)

    def _archetype(self, view: PerilsView, legal: list[Action]) -> Action:
        theme = self._theme()
        opts = self._opts()
        best, best_value = legal[0], -1.0
        for a in legal:
            assert isinstance(a, ChooseArchetype)
            arch = theme.archetype(a.archetype)
            assert arch is not None
            value = self._archetype_value(opts, theme, arch.id, arch.cards)
            if value > best_value + 1e-12:
                best, best_value = a, value
        return best

    def _archetype_value(self, opts: PerilsOptions, theme: Theme, arch_id: str,
                         cards: tuple[str, ...]) -> float:
        """Playouts from a fresh deal with this archetype (no game information is involved,
        so the value is computed once per process with a fixed seed)."""
        hearts = sum(card(c).rank for c in cards if card(c).is_number and c[-1] == "H")
        if isinstance(opts.start_health, int):
            start = opts.start_health
        else:
            start = hearts if hearts > 0 else opts.max_health
        sim = sim_for(model_for(opts, start, self.keep_items))
        key = (sim.m, start, theme.source, theme.id, arch_id)  # the model may not hold start
        got = _ARCHETYPE_VALUES.get(key)
        if got is not None:
            return got
        lv0 = [sum(card(c).rank for c in cards if card(c).is_number and c[-1] == s)
               for s in _SUITS]
        items0 = sum(1 for c in cards if not card(c).is_number)
        pool = [_SIM[c] for c in _MAIN_CODES if c not in cards]
        rnd = random.Random(20240611)
        total = 0.0
        for _ in range(_ARCHETYPE_SAMPLES):
            draw = pool[:]
            rnd.shuffle(draw)
            total += sim.rollout(lv0[:], [[], [], []], start, items0, draw, rnd)
        value = total / _ARCHETYPE_SAMPLES
        _ARCHETYPE_VALUES[key] = value
        return value

    def _choose(self, view: PerilsView, legal: list[Action]) -> Action:
        """Main phase: Monte Carlo over the unseen cards, one value per pathway per sample."""
        sim = self._sim(view)
        pos = self._position(view)
        hints = self._hints(view)
        unchosen = self._unchosen_in_play(view)
        positions = [a.position for a in legal if isinstance(a, ChoosePathway)]
        values: list[list[float]] = [[] for _ in positions]
        rnd = self._random()
        play = random.Random()
        default = 0
        for j in range(self.samples):
            pathways, draw = self._deal(pos, rnd, hints, unchosen)
            if j == 0:  # the rollout policy's own pick (a sample's cards carry the hints)
                scores = [sim.score(pathways[i], pos.lv, pos.h, pos.items) for i in positions]
                default = max(range(len(positions)), key=lambda i: (scores[i], -i))
            dice = rnd.getrandbits(62)
            for n, i in enumerate(positions):
                play.seed(dice)
                lv = pos.lv[:]
                tucked = [t[:] for t in pos.tucked]
                d = draw[:]
                h, items = sim.resolve(pathways[i], lv, tucked, pos.h, pos.items, d, play)
                values[n].append(sim.rollout(lv, tucked, h, items, d, play))
            if _settled(values, j + 1, self.samples):
                break
        return ChoosePathway(positions[pick(values, default, self.confidence)])

    def _choose_big_bad(self, view: PerilsView, legal: list[Action]) -> Action:
        """Showdown: face first the Big Bad whose exact value is best (suits from the hints)."""
        sim = self._sim(view)
        lv, rem, failed = self._showdown_position(view)
        hints = self._hints(view)
        best, best_value = legal[0], -1.0
        for a in legal:
            assert isinstance(a, ChoosePathway)
            suit = hints[a.position].get("suit")
            if suit not in _SUIT_INDEX:
                continue
            s = _SUIT_INDEX[suit]
            value = sim.facing(lv, rem | 1 << s, s, view.health, len(view.items), failed)[0]
            if value > best_value + 1e-12:
                best, best_value = a, value
        return best

    def _showdown_position(self, view: PerilsView) -> tuple[tuple[int, ...], int, bool]:
        levels = {s.suit: s.level for s in view.skills}
        lv = tuple(levels[s] for s in _SUITS)
        met = {c[-1] for c in (*view.big_bads_defeated, *view.big_bads_failed)}
        if view.current is not None:
            met.add(view.current[-1])
        rem = sum(1 << i for i, s in enumerate(_SUITS) if s not in met)
        return lv, rem, bool(view.big_bads_failed)

    def _plan(self, view: PerilsView, legal: list[Action]) -> Action:
        assert view.current is not None and view.difficulty is not None
        sim = self._sim(view)
        plans = [a for a in legal if isinstance(a, MakePlan)]
        by_channel: dict[str | None, int] = {}
        for a in plans:
            by_channel[a.channel] = max(by_channel.get(a.channel, 0), len(a.items))
        levels = {s.suit: s.level for s in view.skills}
        channel = max((c for c in by_channel if c is not None),
                      key=lambda c: (by_channel[c], levels.get(c, 0), c), default=None)
        usable = by_channel.get(channel, 0)
        if view.stage == "showdown":
            k = self._showdown_items(view, sim, usable)
        else:
            k = self._main_items(view, sim, usable)
        items = next(a.items for a in plans if a.channel == channel and len(a.items) == k)
        return MakePlan(channel, items, write_plan(self._theme(), channel, items))

    def _showdown_items(self, view: PerilsView, sim: _Sim, usable: int) -> int:
        lv, rem, failed = self._showdown_position(view)
        assert view.current is not None
        s = _SUIT_INDEX[view.current[-1]]
        return min(usable, sim.facing(lv, rem | 1 << s, s, view.health, usable, failed)[1])

    def _main_items(self, view: PerilsView, sim: _Sim, usable: int) -> int:
        """Main phase: P(success) is exact; the value of what follows success and failure with
        each number of items left is estimated by playouts on shared samples."""
        assert view.current is not None and view.difficulty is not None
        pos = self._position(view)
        s = _SUIT_INDEX[view.current[-1]]
        d = view.difficulty
        chances: list[float] = []
        for k in range(min(usable, self.max_items) + 1):
            chances.append(sim.chance(pos.lv, s, d, k))
            if chances[-1] >= 1.0:
                break
        if len(chances) == 1 or chances[0] >= 1.0 or chances[-1] <= 0.0:
            return 0
        unchosen = self._unchosen_in_play(view)
        rnd = self._random()
        play = random.Random()
        values: list[list[float]] = [[] for _ in chances]
        for j in range(self.samples):
            _, draw = self._deal(pos, rnd, [], unchosen)
            dice = rnd.getrandbits(62)
            for k, p in enumerate(chances):
                outcome = [0.0, 0.0]
                for success in (True, False):
                    play.seed(dice)
                    lv = pos.lv[:]
                    tucked = [t[:] for t in pos.tucked]
                    dr = draw[:]
                    items = pos.items - k
                    if success:
                        lv[s] += 1
                        tucked[s].append(d)
                        h = pos.h
                    else:
                        h, items = sim.fail(lv, tucked, pos.h, items, dr, play)
                    outcome[success] = sim.rollout(lv, tucked, h, items, dr, play)
                values[k].append(p * outcome[1] + (1 - p) * outcome[0])
            if _settled(values, j + 1, self.samples):
                break
        default = min(sim.policy_items(pos.lv, s, d, pos.h, pos.items), len(chances) - 1)
        return pick(values, default, self.confidence)


_BATCH = 8
_SETTLED_Z = 3.0


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean and standard error of the paired differences a - b."""
    n = len(a)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _settled(values: list[list[float]], done: int, budget: int) -> bool:
    """Stop sampling early (after whole batches) once the leader is clear of every other
    choice by `_SETTLED_Z` standard errors, or every choice has scored the same so far."""
    if done >= budget or done % _BATCH or done < _BATCH:
        return False
    means = [sum(v) / done for v in values]
    lead = max(range(len(values)), key=lambda i: means[i])
    for i in range(len(values)):
        if i != lead:
            mean, se = _paired(values[lead], values[i])
            if mean - _SETTLED_Z * se <= 0 and not (mean == 0 and se == 0):
                return False
    return True


def pick(values: list[list[float]], default: int, confidence: float) -> int:
    """The choice with the best mean, unless it beats the default (the rollout policy's own
    choice) by less than `confidence` standard errors of the paired differences: then the
    default. This keeps sampling noise from overturning sensible habits."""
    n = len(values[0])
    means = [sum(v) / n for v in values]
    best = max(range(len(values)), key=lambda i: (means[i], -i))
    if best == default:
        return best
    mean, se = _paired(values[best], values[default])
    return best if mean > confidence * se else default


def _start_health(opts: PerilsOptions, view: PerilsView) -> int:
    if isinstance(opts.start_health, int):
        return opts.start_health
    heart = view.skill("H")
    value = sum(card(c).rank for c in heart.base) if heart else 0
    return value if value > 0 else opts.max_health
