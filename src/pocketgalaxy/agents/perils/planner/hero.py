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
the rubric does: the plan writer (plans.py) uses each one. docs/agents-perils.md has the details.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.perils.common import read_hint
from pocketgalaxy.agents.perils.hero import RuleBasedHero
from pocketgalaxy.agents.perils.planner.model import (
    ITEM,
    MAIN_CODES,
    SIM_CARDS,
    SUIT_INDEX,
    SUITS,
    Sim,
    SimCard,
    matches_hint,
    model_for,
    sim_for,
)
from pocketgalaxy.agents.perils.planner.sampling import _settled, pick
from pocketgalaxy.agents.perils.plans import PlanWriter
from pocketgalaxy.core.cards import card
from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.actions import ChooseArchetype, ChoosePathway, MakePlan
from pocketgalaxy.games.perils.content import Theme, load_theme
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.views import PerilsView

_ARCHETYPE_SAMPLES = 300
_ARCHETYPE_VALUES: dict[tuple[Any, ...], float] = {}
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
        self._writer = PlanWriter(seed)
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

    def _sim(self, view: PerilsView) -> Sim:
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
        lv = [levels[s].level for s in SUITS]
        tucked = [[card(c).rank for c in levels[s].tucked if card(c).is_number] for s in SUITS]
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
        pool = [c for c in MAIN_CODES if c not in known]
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
            pathways.append(SIM_CARDS[pool.pop(i)] if i >= 0 else (ITEM, 3, 0))
        for hint in unchosen_hints:
            i = next((j for j, c in enumerate(pool) if matches_hint(c, hint)), -1)
            if i >= 0:
                pool.pop(i)
        draw = [SIM_CARDS[c] for c in pool[:pos.draw_count]]
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
               for s in SUITS]
        items0 = sum(1 for c in cards if not card(c).is_number)
        pool = [SIM_CARDS[c] for c in MAIN_CODES if c not in cards]
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
            if suit not in SUIT_INDEX:
                continue
            s = SUIT_INDEX[suit]
            value = sim.facing(lv, rem | 1 << s, s, view.health, len(view.items), failed)[0]
            if value > best_value + 1e-12:
                best, best_value = a, value
        return best

    def _showdown_position(self, view: PerilsView) -> tuple[tuple[int, ...], int, bool]:
        levels = {s.suit: s.level for s in view.skills}
        lv = tuple(levels[s] for s in SUITS)
        met = {c[-1] for c in (*view.big_bads_defeated, *view.big_bads_failed)}
        if view.current is not None:
            met.add(view.current[-1])
        rem = sum(1 << i for i, s in enumerate(SUITS) if s not in met)
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
        return MakePlan(channel, items,
                        self._writer.write(view, self._theme(), channel, items))

    def _showdown_items(self, view: PerilsView, sim: Sim, usable: int) -> int:
        lv, rem, failed = self._showdown_position(view)
        assert view.current is not None
        s = SUIT_INDEX[view.current[-1]]
        return min(usable, sim.facing(lv, rem | 1 << s, s, view.health, usable, failed)[1])

    def _main_items(self, view: PerilsView, sim: Sim, usable: int) -> int:
        """Main phase: P(success) is exact; the value of what follows success and failure with
        each number of items left is estimated by playouts on shared samples."""
        assert view.current is not None and view.difficulty is not None
        pos = self._position(view)
        s = SUIT_INDEX[view.current[-1]]
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


def _start_health(opts: PerilsOptions, view: PerilsView) -> int:
    if isinstance(opts.start_health, int):
        return opts.start_health
    heart = view.skill("H")
    value = sum(card(c).rank for c in heart.base) if heart else 0
    return value if value > 0 else opts.max_health
