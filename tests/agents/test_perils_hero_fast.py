"""The rule-based Hero's fast paths (hero.py, worth.py) against the code they replaced, kept
here as the reference: a pathway's score from the memoised rows and slot masks against the
lru_cache on ten arguments and the set of every card seen or held, bit for bit, over thousands
of seeded views under several option sets and `keep_items` (hints of every suit and band, a
heart's too, which takes the plain way); the channel, items and archetype the Hero picks
against the old picks; and the plan built without the dataclass-made `__init__`."""

from __future__ import annotations

import dataclasses
import random
import struct
from functools import lru_cache
from typing import Any

import pytest

from pocketgalaxy.agents.perils.common import SKILLS, agent_options, success_chance
from pocketgalaxy.agents.perils.hero import RuleBasedHero
from pocketgalaxy.core.game import visible_events
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils.actions import ChooseArchetype, MakePlan
from pocketgalaxy.games.perils.content import BANDS, BUNDLED, Theme, load_theme
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.planning import new_make_plan
from pocketgalaxy.games.perils.views import PerilsView
from pocketgalaxy.registry import perils_rules

_BAND_VALUES = {"low": (2, 3, 4), "mid": (5, 6, 7), "high": (8, 9, 10)}


# -- the reference: the Hero's valuation as it was before the rows ----------------------------
@lru_cache(maxsize=8192)
def _old_peril_value(level: int, current_level: int, d: int, items: int, health: int,
                     keep_items: int, autopass: str, skill_adds: bool, threshold: int | None,
                     comparison: str) -> float:
    if level > d or (autopass == ">=" and level >= d):
        return 0.6

    def chance(lvl: int, k: int) -> float:
        bonus = 1 + k
        if skill_adds:
            bonus += lvl
        adv = threshold is not None and 1 + k >= threshold
        return success_chance(d - bonus + (1 if comparison == ">" else 0), adv)

    k = 0
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


def _old_candidates(suits: tuple[str, ...], bands: tuple[str, ...]
                    ) -> tuple[tuple[str, int, str], ...]:
    return tuple((s, d, f"{d}{s}") for s in suits for b in bands for d in _BAND_VALUES[b])


def _old_mean_value(hero: RuleBasedHero, view: PerilsView,
                    candidates: tuple[tuple[str, int, str], ...]) -> float:
    mine = hero.seen.union(*(s.base for s in view.skills), *(s.tucked for s in view.skills))
    opts = agent_options(hero)
    levels = {skill.suit: skill.level for skill in view.skills}
    current = levels.get(view.current[-1] if view.current else "D", 0)
    fixed = (len(view.items), view.health, hero.keep_items, opts.autopass_comparison,
             opts.skill_adds_to_roll, opts.advantage_threshold, opts.success_comparison)

    def value(s: str, d: int) -> float:
        return _old_peril_value(levels.get(s, 0), current, d, *fixed)

    values = [value(s, d) for s, d, code in candidates if code not in mine]
    if not values:
        values = [value(s, d) for s, d, _ in candidates]
    return sum(values) / len(values)


def _old_score(hero: RuleBasedHero, view: PerilsView, hint: dict[str, str]) -> float:
    hurt = view.health < view.max_health
    kind = hint.get("kind")
    if view.stage == "showdown":
        suits = [hint["suit"]] if "suit" in hint else list(SKILLS)
        return sum(hero._level(view, s) for s in suits) / len(suits)
    if kind == "gift":
        return 3.0 + (view.max_health - view.health) if hurt else 0.1
    if kind == "item":
        return 2.5
    candidates = _old_candidates((hint["suit"],) if "suit" in hint else SKILLS,
                                 (hint["band"],) if "band" in hint else BANDS)
    value = _old_mean_value(hero, view, candidates)
    if kind is None:
        value = 0.55 * value + 0.2 * (3.0 if hurt else 0.1) + 0.25 * 2.5
    return value


def _old_plan_choice(hero: RuleBasedHero, view: PerilsView) -> tuple[str, tuple[str, ...]]:
    opts = agent_options(hero)
    assert view.current is not None and view.difficulty is not None
    peril_suit = view.current[-1]
    channels = [s for s in SKILLS if s != peril_suit]
    if opts.heart_is_skill:
        channels.append("H")
    channel = max(channels, key=lambda s: (hero._level(view, s), s))
    items = [i.code for i in view.items]
    if opts.item_suit_restriction:
        items = [c for c in items if c.startswith("JK") or c[-1] in (peril_suit, channel)]
    if view.stage == "showdown":
        return channel, tuple(hero._showdown_items(view, items))
    return channel, tuple(hero._main_items(view, view.difficulty, items))


def _old_archetype_key(theme: Theme, archetype_id: str) -> tuple[int, int]:
    arch = theme.archetype(archetype_id)
    assert arch is not None
    ranks = [int(c[:-1]) for c in arch.cards if c[-1] in SKILLS and c[:-1].isdigit()]
    return (min(ranks, default=0), sum(ranks))


# -- seeded views ----------------------------------------------------------------------------
_OPTION_SETS = (
    {},
    {"skill_adds_to_roll": True},
    {"success_comparison": ">", "autopass_comparison": ">="},
    {"advantage_threshold": None, "start_health": 1, "max_health": 1},
    {"advantage_threshold": 2, "heart_is_skill": True, "item_suit_restriction": True},
    {"pathways_per_round": 3, "reveal_unchosen": True, "start_health": 5, "max_health": 5},
)
_HINTS: tuple[dict[str, str], ...] = tuple(
    {k: v for k, v in (("kind", kind), ("suit", suit), ("band", band)) if v is not None}
    for kind in (None, "peril") for suit in (None, *SKILLS, "H") for band in (None, *BANDS))


def _bits(x: float) -> bytes:
    return struct.pack("<d", x)


def _hero_views(options: dict[str, Any], keep_items: int, games: int
                ) -> list[tuple[RuleBasedHero, PerilsView]]:
    """(the Hero, the view) at each of the Hero's turns of seeded games, the Hero a copy as it
    stood then (it has seen what it had seen)."""
    rules = perils_rules(narrate=False)
    out: list[tuple[RuleBasedHero, PerilsView]] = []
    for seed in range(games):
        opts = PerilsOptions(**options)
        state = rules.new(opts, 1000 + seed)
        hero = RuleBasedHero(seed=seed, keep_items=keep_items)
        hero.reset(0, 2, opts)
        hero.observe(visible_events(rules.opening_events(state), 0))
        while (seat := rules.to_act(state)) is not None:
            legal = rules.legal_actions(state, seat)
            if seat == 0:
                view = rules.view(state, 0)
                if view.phase in ("choose", "plan"):
                    twin = RuleBasedHero(seed=seed, keep_items=keep_items)
                    twin.reset(0, 2, opts)
                    twin.seen = set(hero.seen)
                    out.append((twin, view))
                action = hero.act(view, legal)
            else:
                action = legal[0]
            hero.observe(visible_events(rules.apply_unchecked(state, seat, action), 0))
    return out


@pytest.mark.parametrize("options", _OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_a_pathways_score_is_the_old_one_bit_for_bit(options: dict[str, Any]) -> None:
    rng = random.Random(len(options))
    checked = 0
    for keep_items in (0, 2, 5):
        for hero, view in _hero_views(options, keep_items, 12):
            if view.phase != "choose":
                continue
            hints = [p.hint for p in view.pathways if p.hint is not None]
            hints += rng.sample(_HINTS, 6)
            decision = hero._decision(view)
            for hint in hints:
                assert _bits(hero._score(view, hint, decision)) == _bits(
                    _old_score(hero, view, hint)), (hint, view.skills, hero.seen)
                checked += 1
            # Every candidate of a band seen: the mean over the whole band, as before.
            hero.seen |= {f"{d}{s}" for s in SKILLS for d in range(2, 11) if rng.random() < 0.7}
            decision = hero._decision(view)
            for hint in rng.sample(_HINTS, 8):
                assert _bits(hero._score(view, hint, decision)) == _bits(
                    _old_score(hero, view, hint))
                checked += 1
    assert checked > 1500


def test_the_plan_and_the_archetype_are_the_old_picks() -> None:
    plans = 0
    for options in _OPTION_SETS:
        for hero, view in _hero_views(options, 1 + plans % 4, 6):
            if view.phase != "plan":
                continue
            action = hero.act(view, [])
            assert isinstance(action, MakePlan)
            assert (action.channel, action.items) == _old_plan_choice(hero, view)
            plans += 1
    assert plans > 100
    for theme_id in BUNDLED:
        for schema in ("one_per_suit", "free"):
            theme = load_theme(theme_id, schema)
            hero = RuleBasedHero()
            hero.reset(0, 2, PerilsOptions(theme=theme_id, archetype_schema=schema))
            legal = [ChooseArchetype(a.id) for a in theme.archetypes]
            for cut in range(len(legal)):
                offered = legal[cut:] + legal[:cut]
                old = max(offered, key=lambda a: _old_archetype_key(theme, a.archetype))
                assert hero._archetype(offered) is old


def test_a_plan_built_without_its_init_is_the_plan() -> None:
    # new_make_plan sets exactly these fields: a new field of MakePlan must fail here.
    assert [f.name for f in dataclasses.fields(MakePlan)] == ["channel", "items", "plan"]
    rng = Rng(5)
    for _ in range(50):
        channel = SKILLS[rng.below(3)]
        items = tuple(f"{rng.below(9) + 2}{SKILLS[rng.below(3)]}" for _ in range(rng.below(4)))
        text = f"plan {rng.below(1000)}"
        fast, plain = new_make_plan(channel, items, text), MakePlan(channel, items, text)
        assert type(fast) is MakePlan and fast == plain and hash(fast) == hash(plain)
        assert fast.to_json() == plain.to_json()
        with pytest.raises(dataclasses.FrozenInstanceError):
            fast.plan = "changed"  # type: ignore[misc]
