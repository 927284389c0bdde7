"""Computer players for Perils & Pathways: the rule-based and random Heroes, the computer Teller.

Agents see only their seat's view (and the events their seat may see). The rule-based Hero reads
each pathway's structured hint, which the view gives only when the description is the computer
Teller's own suggestion (the text carries the same information to a person); for a text written
by a person it tries to recognise the theme's fragments in it, and otherwise treats the path as
unknown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pocketgalaxy.agents.base import Agent, RandomAgent
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils import narration
from pocketgalaxy.games.perils.actions import (
    ChooseArchetype,
    ChooseLostLevels,
    ChoosePathway,
    ChooseShuffleBack,
    DescribePathways,
    JudgePlan,
    MakePlan,
)
from pocketgalaxy.games.perils.content import BANDS, Theme, load_theme
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.rubric import DETAILED_WORDS, judge, word_count
from pocketgalaxy.games.perils.views import PerilsView

_BAND_VALUES = {"low": (2, 3, 4), "mid": (5, 6, 7), "high": (8, 9, 10)}
_SKILLS = ("D", "C", "S")


def success_chance(needed: int, advantage: bool) -> float:
    """P(best die >= needed) for one d6, or two d6 keeping the higher."""
    if needed <= 1:
        return 1.0
    if needed > 6:
        return 0.0
    miss = (needed - 1) / 6
    return 1 - miss * miss if advantage else 1 - miss


def _options(agent: Agent) -> PerilsOptions:
    opts = agent.options
    return opts if isinstance(opts, PerilsOptions) else PerilsOptions()


def _lose_greedy(view: PerilsView, n: int) -> tuple[str, ...]:
    """Lose levels from the skill with the largest level first, most recent card first (PP-A9)."""
    levels = {s.suit: s.level for s in view.skills}
    tucked = {s.suit: list(s.tucked) for s in view.skills}
    out: list[str] = []
    for _ in range(n):
        suit = max((s for s in _SKILLS if tucked[s]), key=lambda s: (levels[s], s))
        out.append(tucked[suit].pop())
        levels[suit] -= 1
    return tuple(out)


class RuleBasedHero(Agent):
    """A sensible Hero: heal when hurt, collect items, prefer the best margin, save items for
    the Big Bads, always channel, and write a plan that names what it uses. It remembers the
    cards it has seen face up, so a hint's band only covers values still possible.

    Settings: `keep_items` (items kept back for the showdown, default 5).
    """

    name = "rulebased"

    def __init__(self, seed: int = 0, keep_items: int = 5, **settings: Any) -> None:
        super().__init__(seed, **settings)
        self.keep_items = int(keep_items)
        self.seen: set[str] = set()

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
        opts = _options(self)
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
            if _options(self).half_scope == "per_skill":
                return legal[-1]
            return ChooseLostLevels(_lose_greedy(view, view.levels_to_lose))
        return legal[0]

    def _archetype(self, legal: list[Action]) -> Action:
        theme = self._theme()

        def key(a: Action) -> tuple[int, int]:
            assert isinstance(a, ChooseArchetype)
            arch = theme.archetype(a.archetype)
            assert arch is not None
            ranks = [int(c[:-1]) for c in arch.cards if c[-1] in _SKILLS and c[:-1].isdigit()]
            return (min(ranks, default=0), sum(ranks))

        return max(legal, key=key)

    # -- choosing a pathway -------------------------------------------------------------
    def _choose(self, view: PerilsView, legal: list[Action]) -> Action:
        theme = self._theme()
        best, best_score = legal[0], -1e9
        for a in legal:
            assert isinstance(a, ChoosePathway)
            p = view.pathways[a.position]
            hint = p.hint if p.hint is not None else read_hint(p.description or "", theme)
            score = self._score(view, hint)
            if score > best_score + 1e-9:
                best, best_score = a, score
        return best

    def _score(self, view: PerilsView, hint: dict[str, str]) -> float:
        hurt = view.health < view.max_health
        kind = hint.get("kind")
        if view.stage == "showdown":
            suits = [hint["suit"]] if "suit" in hint else list(_SKILLS)
            return sum(self._level(view, s) for s in suits) / len(suits)
        if kind == "gift":
            return 3.0 + (view.max_health - view.health) if hurt else 0.1
        if kind == "item":
            return 2.5
        suits = [hint["suit"]] if "suit" in hint else list(_SKILLS)
        bands = [hint["band"]] if "band" in hint else list(BANDS)
        values = [self._peril_value(view, s, d) for s in suits for b in bands
                  for d in _BAND_VALUES[b] if self._possible(view, f"{d}{s}")]
        if not values:  # every candidate was seen: the hint cannot be read; assume the band
            values = [self._peril_value(view, s, d) for s in suits for b in bands
                      for d in _BAND_VALUES[b]]
        value = sum(values) / len(values)
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
        opts = _options(self)
        level = self._level(view, suit)
        if level > d or (opts.autopass_comparison == ">=" and level >= d):
            return 0.6
        k = len(self._main_items(view, d, list(view.items[i].code for i in range(len(view.items)))))
        p = self._chance(view, suit, d, k)
        cost = 1.0 if view.health > 1 else 4.0
        return p * 1.5 - (1 - p) * cost

    def _chance(self, view: PerilsView, suit: str, d: int, items: int) -> float:
        opts = _options(self)
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
        opts = _options(self)
        theme = self._theme()
        assert view.current is not None and view.difficulty is not None
        peril_suit = view.current[-1]
        channels = [s for s in _SKILLS if s != peril_suit]
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
        return MakePlan(channel, tuple(chosen), write_plan(theme, channel, tuple(chosen)))


def write_plan(theme: Theme, channel: str | None, items: tuple[str, ...]) -> str:
    """A plan text that names the channelled skill and every committed item (so the rubric
    approves them) and is detailed enough for advantage."""
    parts = []
    if channel is not None:
        parts.append(f"I lean on my {theme.skills[channel].name}")
    if items:
        names = [theme.items[c].name for c in items]
        parts.append("I bring out the " + ", the ".join(names))
    text = " and ".join(parts) or "I go carefully"
    text += (". First I study the danger from cover, then I pick my moment, commit to the "
             "plan and push through before it can react.")
    assert word_count(text) >= DETAILED_WORDS
    return text


def read_hint(text: str, theme: Theme) -> dict[str, str]:
    """Recognise the theme's own things and frames in a description (what a reader of the
    playsheet would notice): the hint they carry, or {} when nothing is recognised."""
    return narration.read_hint(text, theme)


class ComputerTeller(Agent):
    """The computer Teller: describes pathways with the view's suggestions, judges plans by the
    rubric, returns lost items to the stack when it chooses, and loses the largest skills'
    most recent levels when it must choose."""

    name = "teller"

    def act(self, view: Any, legal: list[Action]) -> Action:
        assert isinstance(view, PerilsView)
        opts = _options(self)
        if view.phase == "describe" and view.suggestions is not None:
            return DescribePathways(tuple(view.suggestions))
        if view.phase == "judge" and view.plan is not None:
            theme = load_theme(opts.theme, opts.archetype_schema)
            verdict = judge(view.plan.text, view.plan.channel, view.plan.items, theme,
                            opts.advantage_threshold)
            return JudgePlan(verdict.approve_channel, verdict.approve_items, verdict.advantage)
        if view.phase == "shuffle_back":
            return ChooseShuffleBack(tuple(c for c in view.lost_pending
                                           if not c[:-1].isdigit()))
        if view.phase == "lose_levels":
            if opts.half_scope == "per_skill":
                return legal[-1]
            return ChooseLostLevels(_lose_greedy(view, view.levels_to_lose))
        return legal[0]


def agents_for_seat(seat: int, players: int) -> dict[str, Callable[..., Agent]]:
    """Computer players by name: seat 0 (Hero) "rulebased", "random" (and "planner" from
    agents/perils_planner.py when it is present); seat 1 (Teller) "teller", "random". The
    "teller" is agents/perils_styles.py's `StyledTeller` when present (its default style,
    fair, judges exactly as `ComputerTeller`), else `ComputerTeller`."""
    if seat == 0:
        table: dict[str, Callable[..., Agent]] = {"rulebased": RuleBasedHero,
                                                  "random": RandomAgent}
        try:  # the planning Hero lives in its own module (imported late: it imports this one)
            from pocketgalaxy.agents.perils_planner import PlannerHero
        except ImportError:  # pragma: no cover - only when that module is absent
            return table
        table["planner"] = PlannerHero
        return table
    if seat == 1:
        teller: Callable[..., Agent] = ComputerTeller
        try:  # the judging styles live in their own module (it imports this one)
            from pocketgalaxy.agents.perils_styles import StyledTeller
        except ImportError:  # pragma: no cover - only when that module is absent
            pass
        else:
            teller = StyledTeller
        return {"teller": teller, "random": RandomAgent}
    return {}
