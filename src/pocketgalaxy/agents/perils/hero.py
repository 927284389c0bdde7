"""The rule-based Hero for Perils & Pathways (`rulebased`).

It sees only its seat's view (and the events its seat may see). It reads each pathway's
structured hint, which the view gives only when the description is the computer Teller's own
suggestion (the text carries the same information to a person); for a text written by a person
it tries to recognise the theme's fragments in it, and otherwise treats the path as unknown.
Its plans come from the plan writer (plans.py).

Compiled with mypyc with plans.py, common.py and agents/base.py (docs/speed.md, "The Perils
million"): it decides at every "choose" and "plan" view of a simulation.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.perils.common import (
    SKILLS,
    agent_options,
    lose_greedy,
    read_hint,
    success_chance,
)
from pocketgalaxy.agents.perils.plans import PlanWriter
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.core.mypyc_marks import mypyc_attr
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.actions import (
    ChooseArchetype,
    ChooseLostLevels,
    ChoosePathway,
    MakePlan,
)
from pocketgalaxy.games.perils.content import BANDS, Theme, load_theme
from pocketgalaxy.games.perils.views import PerilsView

_BAND_VALUES = {"low": (2, 3, 4), "mid": (5, 6, 7), "high": (8, 9, 10)}


@lru_cache(maxsize=8192)
def _peril_value(level: int, current_level: int, d: int, items: int, health: int,
                 keep_items: int, autopass: str, skill_adds: bool, threshold: int | None,
                 comparison: str) -> float:
    """What facing a peril of difficulty `d` is worth: a pure function of these few numbers
    (memoised: the same few hundred keys recur all through a simulation). `current_level` is
    the level `_main_items` reads its odds with (the current peril's suit, else diamonds)."""
    if level > d or (autopass == ">=" and level >= d):
        return 0.6

    def chance(lvl: int, k: int) -> float:
        bonus = 1 + k
        if skill_adds:
            bonus += lvl
        adv = threshold is not None and 1 + k >= threshold
        return success_chance(d - bonus + (1 if comparison == ">" else 0), adv)

    k = 0  # the items `_main_items` would commit
    if d - 1 > 2 and items:
        spare = max(0, items - keep_items)
        cap = min(items, 3) if health == 1 else min(spare, 2)
        for n in range(1, cap + 1):
            if chance(current_level, n) >= 0.75:
                k = n
                break
    p = chance(level, k)
    cost = 1.0 if health > 1 else 4.0
    return p * 1.5 - (1 - p) * cost


@lru_cache(maxsize=256)
def _candidates(suits: tuple[str, ...], bands: tuple[str, ...]
                ) -> tuple[tuple[str, int, str], ...]:
    """(suit, difficulty, card code) of every peril a hint of these suits and bands may be, in
    the order `_score` averages them (memoised: a handful of distinct hints recur)."""
    return tuple((s, d, f"{d}{s}") for s in suits for b in bands for d in _BAND_VALUES[b])


class _Decision:
    """One choice of a pathway: a peril's value depends only on (suit, difficulty) and the
    view, and the cards that cannot lie behind a pathway are the same for every pathway, so
    both are worked out once per decision (lazily: a gift or an item needs neither)."""

    def __init__(self, hero: RuleBasedHero, view: PerilsView) -> None:
        self.hero = hero
        self.view = view
        self.memo: dict[tuple[str, int], float] = {}
        self.ready = False

    def _prepare(self) -> None:
        hero, view = self.hero, self.view
        self.mine = hero.seen.union(*(s.base for s in view.skills),
                                    *(s.tucked for s in view.skills))
        opts = agent_options(hero)
        self.levels = {skill.suit: skill.level for skill in view.skills}
        self.current = self.levels.get(view.current[-1] if view.current else "D", 0)
        self.fixed = (len(view.items), view.health, hero.keep_items, opts.autopass_comparison,
                      opts.skill_adds_to_roll, opts.advantage_threshold, opts.success_comparison)
        self.ready = True

    def _value(self, s: str, d: int) -> float:
        v = self.memo.get((s, d))
        if v is None:
            v = self.memo[(s, d)] = _peril_value(self.levels.get(s, 0), self.current, d,
                                                 *self.fixed)
        return v

    def mean_value(self, candidates: tuple[tuple[str, int, str], ...]) -> float:
        """The mean value of the candidates not seen (all of them when every one was seen:
        the hint cannot be read, assume the band), summed in the candidates' order."""
        if not self.ready:
            self._prepare()
        mine = self.mine
        values = [self._value(s, d) for s, d, code in candidates if code not in mine]
        if not values:
            values = [self._value(s, d) for s, d, _ in candidates]
        return sum(values) / len(values)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class RuleBasedHero(Agent):
    """A sensible Hero: heal when hurt, collect items, prefer the best margin, save items for
    the Big Bads, always channel, and write a plan (plans.py) that uses what it declares. It
    remembers the cards it has seen face up, so a hint's band only covers values still possible.

    Settings: `keep_items` (items kept back for the showdown, default 5).
    """

    name = "rulebased"
    forced_is_first = True  # one listed action: archetype, choose, roll and losses take it;
    # a plan is never forced (at least two channels are always listed)

    # `keep_items` is Any: a spec's setting may arrive as any number (int() as on the pure
    # path), which a compiled `int` parameter would refuse before the body runs.
    def __init__(self, seed: int = 0, keep_items: Any = 5, **settings: Any) -> None:
        super().__init__(seed, **settings)
        self.keep_items = int(keep_items)
        self.seen: set[str] = set()
        self._writer = PlanWriter(seed)

    def reset(self, seat: int, players: int, options: Any) -> None:
        super().reset(seat, players, options)
        self.seen = set()

    def observe(self, events: list[Event]) -> None:
        """Remember the cards that left play face up (they cannot lie behind a pathway)."""
        for event in events:
            if isinstance(event, ev.CardRevealed):
                self.seen.add(event.card)
            elif isinstance(event, ev.UnchosenRevealed):
                self.seen.update(event.cards)
            elif isinstance(event, ev.CardsShuffledBack):
                self.seen.difference_update(event.cards)

    def _theme(self) -> Theme:
        opts = agent_options(self)
        return load_theme(opts.theme, opts.archetype_schema)

    def act(self, view: Any, legal: list[Action]) -> Action:
        assert isinstance(view, PerilsView)
        if view.phase == "archetype":
            return self._archetype(legal)
        if view.phase == "choose":
            return self._choose(view, legal)
        if view.phase == "plan":
            return self._plan(view)
        if view.phase == "lose_levels":
            if agent_options(self).half_scope == "per_skill":
                return legal[-1]
            return ChooseLostLevels(lose_greedy(view, view.levels_to_lose))
        return legal[0]

    def _archetype(self, legal: list[Action]) -> Action:
        theme = self._theme()

        def key(a: Action) -> tuple[int, int]:
            assert isinstance(a, ChooseArchetype)
            arch = theme.archetype(a.archetype)
            assert arch is not None
            ranks = [int(c[:-1]) for c in arch.cards if c[-1] in SKILLS and c[:-1].isdigit()]
            return (min(ranks, default=0), sum(ranks))

        return max(legal, key=key)

    # -- choosing a pathway -------------------------------------------------------------
    def _choose(self, view: PerilsView, legal: list[Action]) -> Action:
        theme = self._theme()
        best, best_score = legal[0], -1e9
        decision = _Decision(self, view)
        for a in legal:
            assert isinstance(a, ChoosePathway)
            p = view.pathways[a.position]
            hint = p.hint if p.hint is not None else read_hint(p.description or "", theme)
            score = self._score(view, hint, decision)
            if score > best_score + 1e-9:
                best, best_score = a, score
        return best

    def _score(self, view: PerilsView, hint: dict[str, str],
               decision: _Decision | None = None) -> float:
        hurt = view.health < view.max_health
        kind = hint.get("kind")
        if view.stage == "showdown":
            suits = [hint["suit"]] if "suit" in hint else list(SKILLS)
            return sum(self._level(view, s) for s in suits) / len(suits)
        if kind == "gift":
            return 3.0 + (view.max_health - view.health) if hurt else 0.1
        if kind == "item":
            return 2.5
        if decision is None:
            decision = _Decision(self, view)
        candidates = _candidates((hint["suit"],) if "suit" in hint else SKILLS,
                                 (hint["band"],) if "band" in hint else BANDS)
        value = decision.mean_value(candidates)
        if kind is None:  # unknown: mix in the chance of a gift or an item
            value = 0.55 * value + 0.2 * (3.0 if hurt else 0.1) + 0.25 * 2.5
        return value

    def _possible(self, view: PerilsView, code: str) -> bool:
        """Could this card lie behind a pathway (not seen face up, not one of my cards)?"""
        if code in self.seen:
            return False
        return not any(code in s.base or code in s.tucked for s in view.skills)

    def _level(self, view: PerilsView, suit: str) -> int:
        s = view.skill(suit)
        return s.level if s else 0

    def _peril_value(self, view: PerilsView, suit: str, d: int) -> float:
        opts = agent_options(self)
        current = view.current[-1] if view.current else "D"
        return _peril_value(
            self._level(view, suit), self._level(view, current), d, len(view.items),
            view.health, self.keep_items, opts.autopass_comparison, opts.skill_adds_to_roll,
            opts.advantage_threshold, opts.success_comparison)

    def _chance(self, view: PerilsView, suit: str, d: int, items: int) -> float:
        opts = agent_options(self)
        bonus = 1 + items
        if opts.skill_adds_to_roll:
            bonus += self._level(view, suit)
        threshold = opts.advantage_threshold
        adv = threshold is not None and 1 + items >= threshold
        needed = d - bonus + (1 if opts.success_comparison == ">" else 0)
        return success_chance(needed, adv)

    # -- the plan -----------------------------------------------------------------------
    def _main_items(self, view: PerilsView, d: int, items: list[str]) -> list[str]:
        """Items to commit in the main phase: only when they bring the needed roll to 3 or less."""
        needed = d - 1
        if needed <= 2 or not items:
            return []
        spare = max(0, len(items) - self.keep_items)
        cap = min(len(items), 3) if view.health == 1 else min(spare, 2)
        suit = view.current[-1] if view.current else "D"
        for k in range(1, cap + 1):
            if self._chance(view, suit, d, k) >= 0.75:
                return items[:k]
        return []

    def _showdown_items(self, view: PerilsView, items: list[str]) -> list[str]:
        n = len(items)
        allowed_failures = view.health - 1
        successes_needed = max(1, view.big_bads_remaining - allowed_failures)
        per = n // successes_needed
        k = per if per >= 4 else (4 if n >= 4 else n)
        return items[:k]

    def _plan(self, view: PerilsView) -> Action:
        opts = agent_options(self)
        theme = self._theme()
        assert view.current is not None and view.difficulty is not None
        peril_suit = view.current[-1]
        channels = [s for s in SKILLS if s != peril_suit]
        if opts.heart_is_skill:
            channels.append("H")
        channel = max(channels, key=lambda s: (self._level(view, s), s))
        items = [i.code for i in view.items]
        if opts.item_suit_restriction:
            items = [c for c in items if c.startswith("JK") or c[-1] in (peril_suit, channel)]
        if view.stage == "showdown":
            chosen = self._showdown_items(view, items)
        else:
            chosen = self._main_items(view, view.difficulty, items)
        return MakePlan(channel, tuple(chosen),
                        self._writer.write(view, theme, channel, tuple(chosen)))
