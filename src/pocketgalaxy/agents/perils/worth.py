"""What a pathway's peril is worth to the rule-based Hero (hero.py): the value of facing a peril,
the perils a hint may be, and one choice's working (`Decision`).

A peril's value is a pure function of a few numbers (`peril_value`); a hint is worth the mean
value of the perils it may be that the Hero has not seen face up and does not hold. Compiled
with mypyc (docs/speed.md, "The Perils million"): the Hero chooses about 25 times a game, and
this is most of its work. Instead of an lru_cache call on ten arguments per candidate (its key
tuple cost more than the value) and a set of every card seen or held per choice:

- the values of one suit's perils of difficulty 2 to 10 are one row, memoised in a plain dict on
  one packed integer (the settings' number, health, items, the current level, the suit's level);
  numbers that do not fit their field (never in play) are not memoised;
- each candidate is a slot (suit index * 16 + difficulty), and a choice keeps two bit masks:
  the slots looked up, and those whose card is seen or held (its skills' cards marked at once);
- a hint whose suit is no skill's (never in play) takes the plain way, card by card.

The same values in the same order reach the same `sum`: tests/agents/test_perils_hero_fast.py
holds every score to the old code's, bit for bit.
"""

from __future__ import annotations

import threading
from typing import Final

from pocketgalaxy.agents.perils.common import SKILLS, success_chance
from pocketgalaxy.games.perils.content import BANDS
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.views import PerilsView

_BAND_VALUES: Final = {"low": (2, 3, 4), "mid": (5, 6, 7), "high": (8, 9, 10)}
_LOW: Final = 2
_DIFFICULTIES: Final = tuple(range(_LOW, 11))
"""Every difficulty a band holds (`_BAND_VALUES`), in a row's order."""
_SUIT_INDEX: Final = {s: i for i, s in enumerate(SKILLS)}
_SLOT_OF: Final = {f"{d}{s}": i * 16 + d for s, i in _SUIT_INDEX.items() for d in _DIFFICULTIES}
"""The slot of every card a hint of a skill's suit may be."""


def peril_value(level: int, current_level: int, d: int, items: int, health: int,
                keep_items: int, autopass: str, skill_adds: bool, threshold: int | None,
                comparison: str) -> float:
    """What facing a peril of difficulty `d` is worth, with `level` in its suit. `current_level`
    is the level `_main_items` reads its odds with (the current peril's suit, else diamonds)."""
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


# -- the settings' number ---------------------------------------------------------------------
Settings = tuple[int, str, bool, int | None, str]
"""The Hero's `keep_items` and the options a value reads."""
_SETTINGS: dict[Settings, int] = {}
_NUMBERING: Final = threading.Lock()
"""Held while new settings are numbered: two threads must not give two settings one number."""


class _LastSettings:
    """The options object and `keep_items` last numbered, and their number: a simulation's
    choices share one options object, so most skip hashing the settings. Never changed once
    made: the one in use is swapped whole (`_LAST[0]`), which threads may share."""

    def __init__(self, options: object, keep: int, index: int, settings: Settings) -> None:
        self.options = options
        self.keep = keep
        self.index = index
        self.settings = settings


_LAST: Final = [_LastSettings(None, 0, -1, (0, "", False, None, ""))]


def _settings_index(options: PerilsOptions, keep_items: int) -> tuple[int, Settings]:
    last = _LAST[0]
    if options is last.options and keep_items == last.keep:
        return last.index, last.settings
    settings = (keep_items, options.autopass_comparison, options.skill_adds_to_roll,
                options.advantage_threshold, options.success_comparison)
    index = _SETTINGS.get(settings)
    if index is None:
        with _NUMBERING:
            index = _SETTINGS.setdefault(settings, len(_SETTINGS))
    _LAST[0] = _LastSettings(options, keep_items, index, settings)
    return index, settings


_ROWS: dict[int, tuple[float, ...]] = {}
_ROWS_LIMIT: Final = 50_000


# -- the perils a hint may be -----------------------------------------------------------------
def candidates_of(suits: tuple[str, ...], bands: tuple[str, ...]
                  ) -> tuple[tuple[str, int, str], ...]:
    """(suit, difficulty, card code) of every peril a hint of these suits and bands may be, in
    the order their values are summed."""
    return tuple((s, d, f"{d}{s}") for s in suits for b in bands for d in _BAND_VALUES[b])


class Candidates:
    """The perils a hint may be, as `Decision.mean_value` reads them: each one's card code and
    slot; `plain` when a suit is no skill's (no slots: the plain way)."""

    def __init__(self, triples: tuple[tuple[str, int, str], ...]) -> None:
        self.triples = triples
        self.codes = tuple(code for _, _, code in triples)
        self.plain = any(s not in _SUIT_INDEX for s, _, _ in triples)
        self.slots = () if self.plain else tuple(_SUIT_INDEX[s] * 16 + d for s, d, _ in triples)


_CANDIDATES: dict[str | None, dict[str | None, Candidates]] = {}
"""By the hint's suit (None: any), then its band (None: any)."""


def hint_candidates(hint: dict[str, str]) -> Candidates:
    """The perils a hint of a suit (else any skill's) and a band (else any) may be."""
    suit = hint.get("suit")
    band = hint.get("band")
    row = _CANDIDATES.get(suit)
    if row is None:
        row = _CANDIDATES[suit] = {}
    found = row.get(band)
    if found is None:
        found = row[band] = Candidates(candidates_of(SKILLS if suit is None else (suit,),
                                                     BANDS if band is None else (band,)))
    return found


# -- one choice -------------------------------------------------------------------------------
class Decision:
    """One choice of a pathway: a peril's value depends only on (suit, difficulty) and the
    view, and the cards that cannot lie behind a pathway (`seen` face up, or in the Hero's
    skills) are the same for every pathway, so both are worked out once per choice, lazily (a
    gift or an item needs neither)."""

    def __init__(self, view: PerilsView, seen: set[str], keep_items: int,
                 options: PerilsOptions) -> None:
        self.view = view
        self.seen = seen
        self.keep_items = keep_items
        self.options = options
        self.ready = False
        self.last: Candidates | None = None  # the last hint's candidates and their mean
        self.last_mean = 0.0

    def _prepare(self) -> None:
        view = self.view
        held = 0  # the slots of the cards in my skills
        levels: dict[str, int] = {}
        for skill in view.skills:
            for code in skill.base:
                slot = _SLOT_OF.get(code)
                if slot is not None:
                    held |= 1 << slot
            for code in skill.tucked:
                slot = _SLOT_OF.get(code)
                if slot is not None:
                    held |= 1 << slot
            levels[skill.suit] = skill.level
        self.levels = levels
        self.checked = held  # slots whose card was looked up
        self.mine = held  # of those, the cards seen or held: not behind a pathway
        self.rows: list[tuple[float, ...] | None] = [None, None, None]  # by suit index
        index, self.settings = _settings_index(self.options, self.keep_items)
        self.current = current = levels.get(view.current[-1] if view.current else "D", 0)
        self.items = items = len(view.items)
        self.health = health = view.health
        self.base = (((index * 256 + health) * 256 + items) * 256 + current) * 256 if (
            0 <= health < 256 and 0 <= items < 256 and 0 <= current < 256) else -1
        self.ready = True

    def _value(self, suit: str, d: int) -> float:
        keep, autopass, adds, threshold, comparison = self.settings
        return peril_value(self.levels.get(suit, 0), self.current, d, self.items, self.health,
                           keep, autopass, adds, threshold, comparison)

    def _row(self, si: int) -> tuple[float, ...]:
        """The values of the perils of skill suit number `si`, difficulty 2 first."""
        suit = SKILLS[si]
        level = self.levels.get(suit, 0)
        key = self.base + level
        if self.base < 0 or not 0 <= level < 256:
            row = tuple(self._value(suit, d) for d in _DIFFICULTIES)
        else:
            found = _ROWS.get(key)
            if found is None:
                if len(_ROWS) >= _ROWS_LIMIT:
                    _ROWS.clear()
                found = _ROWS[key] = tuple(self._value(suit, d) for d in _DIFFICULTIES)
            row = found
        self.rows[si] = row
        return row

    def mean_value(self, candidates: Candidates) -> float:
        """The mean value of the candidates not seen or held (all of them when every one is:
        the hint cannot be read, assume the band), summed in the candidates' order."""
        if not self.ready:
            self._prepare()
        if candidates is self.last:  # both pathways' hints alike: the same sum again
            return self.last_mean
        if candidates.plain:
            mean = self._plain_mean(candidates)
        else:
            slots, codes = candidates.slots, candidates.codes
            seen, rows = self.seen, self.rows
            checked, mine = self.checked, self.mine
            values: list[float] = []
            for i in range(len(slots)):
                slot = slots[i]
                bit = 1 << slot
                if not checked & bit:
                    checked |= bit
                    if codes[i] in seen:
                        mine |= bit
                if not mine & bit:
                    row = rows[slot >> 4]
                    if row is None:
                        row = self._row(slot >> 4)
                    values.append(row[(slot & 15) - _LOW])
            self.checked, self.mine = checked, mine
            if not values:
                for slot in slots:
                    row = rows[slot >> 4]
                    if row is None:
                        row = self._row(slot >> 4)
                    values.append(row[(slot & 15) - _LOW])
            mean = sum(values) / len(values)
        self.last, self.last_mean = candidates, mean
        return mean

    def _plain_mean(self, candidates: Candidates) -> float:
        """`mean_value` card by card (a hint's suit that is no skill's)."""
        skills = self.view.skills
        mine = self.seen.union(*(s.base for s in skills), *(s.tucked for s in skills))
        values = [self._value(s, d) for s, d, code in candidates.triples if code not in mine]
        if not values:
            values = [self._value(s, d) for s, d, _ in candidates.triples]
        return sum(values) / len(values)
