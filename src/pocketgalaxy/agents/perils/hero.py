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

from typing import Any, Final

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

_BAND_VALUES: Final = {"low": (2, 3, 4), "mid": (5, 6, 7), "high": (8, 9, 10)}


def _peril_value(level: int, current_level: int, d: int, items: int, health: int,
                 keep_items: int, autopass: str, skill_adds: bool, threshold: int | None,
                 comparison: str) -> float:
    """What facing a peril of difficulty `d` is worth: a pure function of these few numbers
    (a decision reads it through `_VALUES`). `current_level` is the level `_main_items` reads
    its odds with (the current peril's suit, else diamonds)."""
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


# Speed (docs/speed.md, "The Perils million"): the values of a suit's perils of difficulty 2 to
# 10 are one row, memoised in a plain dict on one packed integer (the settings' part as a small
# index, then health, items, the current level and the suit's level), not one lru_cache call
# on ten arguments per candidate, whose key tuple cost more than the value. The same few hundred
# rows recur all through a simulation; numbers that do not fit their field are not memoised.
_ROWS: dict[int, tuple[float, ...]] = {}
_ROWS_LIMIT: Final = 50_000
_Settings = tuple[int, str, bool, int | None, str]
_SETTINGS: dict[_Settings, int] = {}
"""The Hero's `keep_items` and the options a value reads, numbered as first met."""
_LOW: Final = 2
_DIFFICULTIES: Final = tuple(range(_LOW, 11))
"""Every difficulty a hint's band may hold (`_BAND_VALUES`), in a row's order."""


class _LastSettings:
    """The options object and `keep_items` last numbered, and their number: a simulation's
    decisions share one options object, so most decisions skip hashing the settings."""

    def __init__(self) -> None:
        self.options: object = None
        self.keep = 0
        self.index = -1
        self.settings: _Settings = (0, "", False, None, "")


_LAST: Final = _LastSettings()


def _settings_index(hero: RuleBasedHero) -> tuple[int, _Settings]:
    opts = agent_options(hero)
    last = _LAST
    if opts is last.options and hero.keep_items == last.keep:
        return last.index, last.settings
    settings = (hero.keep_items, opts.autopass_comparison, opts.skill_adds_to_roll,
                opts.advantage_threshold, opts.success_comparison)
    index = _SETTINGS.get(settings)
    if index is None:
        index = _SETTINGS[settings] = len(_SETTINGS)
    last.options, last.keep, last.index, last.settings = opts, hero.keep_items, index, settings
    return index, settings


def _fresh_row(level: int, current: int, items: int, health: int, settings: _Settings
               ) -> tuple[float, ...]:
    keep, autopass, adds, threshold, comparison = settings
    return tuple(_peril_value(level, current, d, items, health, keep, autopass, adds,
                              threshold, comparison) for d in _DIFFICULTIES)


class _Candidates:
    """The perils a hint may be (`_candidates`), as `mean_value` reads them: each one's suit,
    card code and slot (suit index * 16 + difficulty: a bit per suit and difficulty)."""

    def __init__(self, triples: tuple[tuple[str, int, str], ...]) -> None:
        self.suits = tuple(s for s, _, _ in triples)
        self.codes = tuple(code for _, _, code in triples)
        self.slots = tuple(_suit_index(s) * 16 + d for s, d, _ in triples)


_SUIT_INDEX: dict[str, int] = {s: i for i, s in enumerate(SKILLS)}


def _suit_index(suit: str) -> int:
    found = _SUIT_INDEX.get(suit)
    if found is None:  # a hint's suit that is no skill: still its own slots
        found = _SUIT_INDEX[suit] = len(_SUIT_INDEX)
    return found


_CANDIDATES: dict[str | None, dict[str | None, _Candidates]] = {}
"""The candidates by the hint's suit (None: any), then its band (None: any)."""


def _candidates(suits: tuple[str, ...], bands: tuple[str, ...]
                ) -> tuple[tuple[str, int, str], ...]:
    """(suit, difficulty, card code) of every peril a hint of these suits and bands may be, in
    the order `_score` averages them."""
    return tuple((s, d, f"{d}{s}") for s in suits for b in bands for d in _BAND_VALUES[b])


def _hint_candidates(hint: dict[str, str]) -> _Candidates:
    """The candidates of a hint's suit (else every skill's) and band (else every band)."""
    suit = hint.get("suit")
    band = hint.get("band")
    row = _CANDIDATES.get(suit)
    if row is None:
        row = _CANDIDATES[suit] = {}
    found = row.get(band)
    if found is None:
        found = row[band] = _Candidates(_candidates(SKILLS if suit is None else (suit,),
                                                    BANDS if band is None else (band,)))
    return found


class _Decision:
    """One choice of a pathway: a peril's value depends only on (suit, difficulty) and the
    view, and the cards that cannot lie behind a pathway are the same for every pathway, so
    both are worked out once per decision (lazily: a gift or an item needs neither): a row of
    values per suit, and per slot whether its card is known to be elsewhere."""

    def __init__(self, hero: RuleBasedHero, view: PerilsView) -> None:
        self.hero = hero
        self.view = view
        self.ready = False

    def _prepare(self) -> None:
        hero, view = self.hero, self.view
        self.seen = hero.seen
        own: set[str] = set()
        levels: dict[str, int] = {}
        for skill in view.skills:
            own.update(skill.base)
            own.update(skill.tucked)
            levels[skill.suit] = skill.level
        self.own = own
        self.levels = levels
        self.rows: list[tuple[float, ...] | None] = [None] * len(_SUIT_INDEX)  # by suit index
        self.checked = 0  # slots whose card was looked up
        self.mine = 0  # of those, the cards seen or in my skills: not behind a pathway
        index, self.settings = _settings_index(hero)
        self.current = current = levels.get(view.current[-1] if view.current else "D", 0)
        self.items = items = len(view.items)
        self.health = health = view.health
        self.base = (((index * 256 + health) * 256 + items) * 256 + current) * 256 if (
            0 <= health < 256 and 0 <= items < 256 and 0 <= current < 256) else -1
        self.ready = True

    def _row(self, slot: int, suit: str) -> tuple[float, ...]:
        """The values of `suit`'s perils, difficulty 2 first (the suit's index is `slot >> 4`)."""
        level = self.levels.get(suit, 0)
        if self.base >= 0 and 0 <= level < 256:
            key = self.base + level
            row = _ROWS.get(key)
            if row is None:
                if len(_ROWS) >= _ROWS_LIMIT:
                    _ROWS.clear()
                row = _ROWS[key] = _fresh_row(level, self.current, self.items, self.health,
                                              self.settings)
        else:
            row = _fresh_row(level, self.current, self.items, self.health, self.settings)
        rows = self.rows
        si = slot >> 4
        while len(rows) <= si:  # a suit first met after `_prepare` (not a skill's)
            rows.append(None)
        rows[si] = row
        return row

    def mean_value(self, candidates: _Candidates) -> float:
        """The mean value of the candidates not seen (all of them when every one was seen:
        the hint cannot be read, assume the band), summed in the candidates' order."""
        if not self.ready:
            self._prepare()
        slots, codes = candidates.slots, candidates.codes
        seen, own, rows = self.seen, self.own, self.rows
        checked, mine = self.checked, self.mine
        values: list[float] = []
        for i in range(len(slots)):
            slot = slots[i]
            bit = 1 << slot
            if not checked & bit:
                checked |= bit
                code = codes[i]
                if code in seen or code in own:
                    mine |= bit
            if not mine & bit:
                si = slot >> 4
                row = rows[si] if si < len(rows) else None
                if row is None:
                    row = self._row(slot, candidates.suits[i])
                values.append(row[(slot & 15) - _LOW])
        self.checked, self.mine = checked, mine
        if not values:
            values = [self._row(slot, candidates.suits[i])[(slot & 15) - _LOW]
                      for i, slot in enumerate(slots)]
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
        decision = _Decision(self, view)
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
        value = decision.mean_value(_hint_candidates(hint))
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
        return _make_plan(channel, chosen, self._writer.write(view, theme, channel, chosen))


def _make_plan(channel: str, items: tuple[str, ...], text: str) -> MakePlan:
    """`MakePlan(channel, items, text)`, its fields set as the dataclass-made `__init__` sets
    them (object.__setattr__ on the frozen class, which has no `__post_init__`): that
    `__init__` is interpreted code (actions.py stays pure) and cost about 6,000 instructions
    a plan. tests/agents/test_perils_hero_fast.py holds the two equal, field list included."""
    plan = MakePlan.__new__(MakePlan)
    object.__setattr__(plan, "channel", channel)
    object.__setattr__(plan, "items", items)
    object.__setattr__(plan, "plan", text)
    return plan


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
