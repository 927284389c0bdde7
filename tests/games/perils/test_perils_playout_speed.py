"""The pieces the Perils random-playout work added or rewrote (docs/speed.md, "Perils random
playouts"): the field-by-field `PerilsState.clone`, events with their own `__init__` (and so a
pickle that works), the shared legal-list instances, the one-entry caches of the theme and the
cast, and the per-theme table of the things matching. Each runs on the speed path in use; the
byte identity of pure and compiled is tests/test_speed_paths.py's.
"""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from pocketgalaxy.core.game import Event
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils import events as ev
from pocketgalaxy.games.perils import things
from pocketgalaxy.games.perils.actions import JudgePlan
from pocketgalaxy.games.perils.content import cast_of, load_theme, thing_for
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.state import PerilsState
from pocketgalaxy.registry import perils_rules

QUIET = perils_rules(narrate=False)


def _random_game(seed: int, options: PerilsOptions | None = None,
                 stop_after: int | None = None) -> tuple[PerilsState, list[Event]]:
    """A seeded random playout on the quiet rules; every event kept."""
    state = QUIET.new(options, seed)
    rng = Rng(seed * 3 + 1)
    log: list[Event] = []
    steps = 0
    seat = QUIET.to_act(state)
    while seat is not None and (stop_after is None or steps < stop_after):
        legal = QUIET.legal_actions(state, seat)
        log += QUIET.apply_unchecked(state, seat, legal[rng.below(len(legal))])
        steps += 1
        seat = QUIET.to_act(state)
    return state, log


def test_clone_copies_every_field_and_shares_nothing_mutable() -> None:
    state, _ = _random_game(4, stop_after=30)
    state.pinned = {"rolls": [3, 4]}  # a pinned game's lists are copied too
    copy = state.clone()
    assert copy.to_json() == state.to_json()
    for f in dataclasses.fields(PerilsState):
        mine, theirs = getattr(state, f.name), getattr(copy, f.name)
        if isinstance(mine, (list, dict, Rng)):
            assert mine is not theirs, f.name
    assert copy.options is state.options  # frozen: shared
    assert copy.tucked["D"] is not state.tucked["D"]
    assert copy.pinned is not None and copy.pinned["rolls"] is not state.pinned["rolls"]
    # Playing on the copy leaves the original as it was.
    before = state.to_json()
    seat = QUIET.to_act(copy)
    assert seat is not None
    QUIET.apply_unchecked(copy, seat, QUIET.legal_actions(copy, seat)[0])
    assert state.to_json() == before
    assert copy.to_json() != before


def test_states_and_every_event_of_a_game_pickle() -> None:
    state, log = _random_game(11)
    assert state.phase == "over"
    kinds = {type(e).__name__ for e in log}
    assert {"PathwaysDealt", "CardRevealed", "PlanJudged", "DieRolled"} <= kinds
    for event in log:
        again = pickle.loads(pickle.dumps(event))
        assert again == event and type(again) is type(event)
    again_state = pickle.loads(pickle.dumps(state))
    assert again_state.to_json() == state.to_json()


def test_events_keep_their_defaults_and_stay_frozen() -> None:
    dealt = ev.PathwaysDealt(round=2, cards=("8D", "3H"))
    assert dealt.audience == ev.TELLER_ONLY
    assert dealt.to_json() == {"type": "PathwaysDealt", "round": 2, "cards": ["8D", "3H"],
                               "audience": [1]}
    revealed = ev.CardRevealed(card="8D", kind="peril", difficulty=8)
    assert (revealed.thing, revealed.story, revealed.audience) == ("", "", None)
    try:
        revealed.card = "9D"  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("an event must stay frozen")
    assert revealed == ev.CardRevealed(card="8D", kind="peril", difficulty=8, thing="")


def test_legal_lists_are_fresh_lists_equal_to_a_fresh_build() -> None:
    opts = PerilsOptions(teller_policy="human", advantage_threshold=2)
    state = QUIET.new(opts, 2)
    rng = Rng(9)
    judged = 0
    seat = QUIET.to_act(state)
    while seat is not None:
        legal = QUIET.legal_actions(state, seat)
        if state.phase == "judge":
            chans = (False, True) if state.plan_channel is not None else (False,)
            built = [JudgePlan(c, tuple(state.plan_items[:k]), a) for c in chans
                     for k in range(len(state.plan_items) + 1) for a in (False, True)]
            assert legal == built
            judged += 1
        # The caller may change its list: the next listing is whole again.
        legal.clear()
        legal = QUIET.legal_actions(state, seat)
        assert legal
        QUIET.apply_unchecked(state, seat, legal[rng.below(len(legal))])
        seat = QUIET.to_act(state)
    assert judged > 0


def test_thing_for_matches_the_cast_across_interleaved_games() -> None:
    a, b = QUIET.new(None, 1), QUIET.new(None, 2)
    c = QUIET.new(PerilsOptions(theme="dungeon", clarity="plain"), 1)
    theme = load_theme("cosmic")
    for state, th, clarity in ((a, theme, "fair"), (b, theme, "fair"),
                               (c, load_theme("dungeon"), "plain"), (a, theme, "fair")):
        cast = cast_of(th, state.narration_seed, clarity)
        for code in ("8D", "3H", "KS", "AC"):
            assert thing_for(state, code) is cast[code]
    assert thing_for(a, "8D") != thing_for(b, "8D") or thing_for(a, "9C") != thing_for(b, "9C")


def test_theme_table_by_identity_is_the_sorted_pool_table() -> None:
    theme = load_theme("dungeon")
    pool = tuple(sorted(theme.things.values(), key=lambda t: t.id))
    for plain in (False, True):
        assert things._fitting_for(theme.things, plain) == things._fitting(pool, plain)
        assert things._fitting_for(theme.things, plain) is things._fitting_for(theme.things,
                                                                               plain)


def _play_with(rules: object, seed: int) -> tuple[dict[str, object], list[Event]]:
    from pocketgalaxy.games.perils.rules import PerilsRules

    assert isinstance(rules, PerilsRules)
    state = rules.new(None, seed)
    rng = Rng(seed + 11)
    log: list[Event] = []
    seat = rules.to_act(state)
    while seat is not None:
        legal = rules.legal_actions(state, seat)
        log += rules.apply_unchecked(state, seat, legal[rng.below(len(legal))])
        seat = rules.to_act(state)
    return state.to_json(), log


def test_the_rules_and_their_plan_judge_pickle() -> None:
    """A `PerilsRules` (full or quiet) pickles as its constructor's arguments, its plan judge as
    its stemmer and name (a module-level function), with no memo: the copy plays the same
    games as the original."""
    from pocketgalaxy.registry import plan_judge, snowball_stem

    for narrate in (True, False):
        rules = perils_rules(narrate=narrate)
        _play_with(rules, 5)  # warm the memos: they must not travel
        data = pickle.dumps(rules)
        assert len(data) < 2_000
        copy = pickle.loads(data)
        assert type(copy) is type(rules) and copy is not rules
        assert copy.narrate is narrate
        assert copy.judge.name == plan_judge().name == "snowball-english"
        assert copy.judge._stem_fn is snowball_stem
        assert copy.judge.stem("dodging") == rules.judge.stem("dodging") == "dodg"
        for seed in (1, 2, 3):
            assert _play_with(copy, seed) == _play_with(rules, seed)


def _reference_assign(pool: dict[str, things.Thing], narration_seed: int, plain: bool
                      ) -> dict[str, things.Thing]:
    """The matching by codes and thing ids that `things.assign` replaced (its integer version
    must give the same things, in the same entry order, from the same draws)."""
    rng = Rng(things.mix(narration_seed, 0x7417C5))
    order = list(things._ORDER)
    rng.shuffle(order)
    fitting = things._fitting(tuple(sorted(pool.values(), key=lambda t: t.id)), plain)
    fits: dict[str, list[things.Thing]] = {}
    for code in order:
        options = list(fitting[code])
        rng.shuffle(options)
        fits[code] = options
    owner: dict[str, str] = {}

    def place(code: str, seen: set[str]) -> bool:
        for t in fits[code]:
            if t.id in seen:
                continue
            seen.add(t.id)
            if t.id not in owner or place(owner[t.id], seen):
                owner[t.id] = code
                return True
        return False

    for code in order:
        place(code, set())
    out = {code: pool[tid] for tid, code in owner.items()}
    for code in order:
        if code not in out:
            out[code] = fits[code][rng.below(len(fits[code]))]
    return out


def test_the_integer_matching_gives_the_reference_cast() -> None:
    """`things.assign` on indices: the same thing for every card, in the same order, for many
    seeds, both bundled themes, plain and not, and a small theme where cards must share."""
    few = dict(load_theme("cosmic").things)
    for tid in sorted(few):  # drop every peril and gift a card can do without
        if few[tid].kind in ("peril", "gift"):
            rest = {k: t for k, t in few.items() if k != tid}
            if all(any(t.fits(code) for t in rest.values()) for code in things._ORDER):
                few = rest
    shared = 0
    for pool in (load_theme("cosmic").things, load_theme("dungeon").things, few):
        for plain in (False, True):
            for seed in range(0, 400 * 7919, 7919):
                got = things.assign(pool, seed, plain)
                want = _reference_assign(pool, seed, plain)
                assert list(got.items()) == list(want.items()), (seed, plain)
                assert all(got[c] is want[c] for c in got)
                if pool is few:
                    shared += len(got) - len({t.id for t in got.values()})
    assert shared > 0  # the small pool left cards over: the shared branch ran


def test_listed_plans_are_the_plans_the_constructor_makes() -> None:
    """`planning.new_make_plan` (fields set without the interpreted dataclass `__init__`)
    gives a `MakePlan` equal to the constructor's, hashing alike, frozen and picklable."""
    from pocketgalaxy.games.perils.actions import MakePlan
    from pocketgalaxy.games.perils.planning import new_make_plan

    for channel, items in ((None, ()), ("D", ("JD",)), ("S", ("QS", "JK1"))):
        made = new_make_plan(channel, items)
        want = MakePlan(channel, items, "")
        assert type(made) is MakePlan
        assert made == want and hash(made) == hash(want) and repr(made) == repr(want)
        assert (made.channel, made.items, made.plan) == (channel, items, "")
        assert pickle.loads(pickle.dumps(made)) == want
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.plan = "x"  # type: ignore[misc]
