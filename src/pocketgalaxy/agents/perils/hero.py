"""The rule-based Hero for Perils & Pathways (`rulebased`).

It sees only its seat's view (and the events its seat may see). It reads each pathway's
structured hint, which the view gives only when the description is the computer Teller's own
suggestion (the text carries the same information to a person); for a text written by a person
it tries to recognise the theme's fragments in it, and otherwise treats the path as unknown.
What a hint is worth comes from worth.py, its plans from the plan writer (plans.py).

Compiled with mypyc with worth.py, plans.py, common.py and agents/base.py (docs/speed.md, "The
Perils million"): it decides at every "choose" and "plan" view of a simulation.
"""

from __future__ import annotations

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
from pocketgalaxy.agents.perils.worth import Decision, hint_candidates, peril_value
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.core.mypyc_marks import mypyc_attr
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils.actions import (
    ChooseArchetype,
    ChooseLostLevels,
    ChoosePathway,
)
from pocketgalaxy.games.perils.content import Theme, load_theme
from pocketgalaxy.games.perils.planning import new_make_plan
from pocketgalaxy.games.perils.views import PerilsView


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
        keys = _archetype_keys(self._theme())

        def key(a: Action) -> tuple[int, int]:
            assert isinstance(a, ChooseArchetype)
            found = keys.get(a.archetype)
            assert found is not None
            return found

        return max(legal, key=key)

    # -- choosing a pathway -------------------------------------------------------------
    def _choose(self, view: PerilsView, legal: list[Action]) -> Action:
        theme: Theme | None = None  # loaded only to read a hint from a person's text
        best, best_score = legal[0], -1e9
        decision = self._decision(view)
        for a in legal:
            assert isinstance(a, ChoosePathway)
            p = view.pathways[a.position]
            hint = p.hint
            if hint is None:
                if theme is None:
                    theme = self._theme()
                hint = read_hint(p.description or "", theme)
            score = self._score(view, hint, decision)
            if score > best_score + 1e-9:
                best, best_score = a, score
        return best

    def _score(self, view: PerilsView, hint: dict[str, str],
               decision: Decision | None = None) -> float:
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
            decision = self._decision(view)
        value = decision.mean_value(hint_candidates(hint))
        if kind is None:  # unknown: mix in the chance of a gift or an item
            value = 0.55 * value + 0.2 * (3.0 if hurt else 0.1) + 0.25 * 2.5
        return value

    def _decision(self, view: PerilsView) -> Decision:
        """The working of one choice of a pathway (worth.py)."""
        return Decision(view, self.seen, self.keep_items, agent_options(self))

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
        return peril_value(
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
        levels: dict[str, int] = {}
        for skill in view.skills:
            if skill.suit not in levels:  # the first, as `view.skill` finds
                levels[skill.suit] = skill.level
        # The channel with the largest (level, suit), as max() over those pairs picks it.
        channel, best = channels[0], levels.get(channels[0], 0)
        for s in channels[1:]:
            level = levels.get(s, 0)
            if level > best or (level == best and s > channel):
                channel, best = s, level
        items = [i.code for i in view.items]
        if opts.item_suit_restriction:
            items = [c for c in items if c.startswith("JK") or c[-1] in (peril_suit, channel)]
        if view.stage == "showdown":
            chosen = tuple(self._showdown_items(view, items))
        else:
            chosen = tuple(self._main_items(view, view.difficulty, items))
        return new_make_plan(channel, chosen, self._writer.write(view, theme, channel, chosen))


_ARCHETYPE_KEYS: dict[int, tuple[Theme, dict[str, tuple[int, int]]]] = {}
"""Per loaded theme (by identity; the theme is kept so its id is never reused under it)."""


def _archetype_keys(theme: Theme) -> dict[str, tuple[int, int]]:
    """What the Hero ranks an archetype by: (its lowest, its total) skill card rank."""
    known = _ARCHETYPE_KEYS.get(id(theme))
    if known is None or known[0] is not theme:
        keys: dict[str, tuple[int, int]] = {}
        for arch in theme.archetypes:
            if arch.id in keys:  # the first of an id, as `theme.archetype` finds
                continue
            ranks = [int(c[:-1]) for c in arch.cards if c[-1] in SKILLS and c[:-1].isdigit()]
            keys[arch.id] = (min(ranks, default=0), sum(ranks))
        if len(_ARCHETYPE_KEYS) > 64:
            _ARCHETYPE_KEYS.clear()
        known = _ARCHETYPE_KEYS[id(theme)] = (theme, keys)
    return known[1]
