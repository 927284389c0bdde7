"""Perils views as built (their own `__init__`, shared SkillView and ItemView objects) equal what
the dataclasses' generated constructors give, field for field; the legal actions' JSON is each
action's own `to_json`; views pickle and copy on the path in use (compiled, through their
`__reduce__`). tests/games/perils/test_perils_views_reference.py holds every field to a plain
reference build."""

from __future__ import annotations

import dataclasses
import pickle

from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils import views
from pocketgalaxy.games.perils.views import PathwayView, PerilsView
from pocketgalaxy.registry import perils_rules


def _rebuilt(obj: object) -> object:
    """The same values passed through the class's generated __init__ (recursively)."""
    assert dataclasses.is_dataclass(obj) and not isinstance(obj, type)
    values = {}
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            v = _rebuilt(v)
        elif isinstance(v, tuple) and v and dataclasses.is_dataclass(v[0]):
            v = tuple(_rebuilt(x) for x in v)
        values[f.name] = v
    return type(obj)(**values)


def _views_of_games(games: int) -> list[PerilsView]:
    rules = perils_rules(narrate=False)
    rng = Rng(7)
    out = []
    for g in range(games):
        state = rules.new(None, g, players=2)
        seat = rules.to_act(state)
        while seat is not None:
            for s in (0, 1, None):
                out.append(rules.view(state, s))
            legal = rules.legal_actions(state, seat)
            rules.apply_unchecked(state, seat, legal[rng.below(len(legal))])
            seat = rules.to_act(state)
        out.append(rules.view(state, None))
    return out


def test_fast_views_equal_the_generated_constructors() -> None:
    seen_plan = seen_items = 0
    for view in _views_of_games(6):
        again = _rebuilt(view)
        assert again == view
        assert again.to_json() == view.to_json()  # type: ignore[attr-defined]
        # every field was set (compiled, a view has no __dict__: ask for each field)
        assert [f.name for f in dataclasses.fields(PerilsView) if not hasattr(view, f.name)] == []
        seen_plan += view.plan is not None
        seen_items += bool(view.items)
    assert seen_plan > 0 and seen_items > 0  # the plan and item views were exercised


def test_views_stay_frozen_and_hash_like_the_generated_ones() -> None:
    view = _views_of_games(1)[5]
    made = PathwayView(1, "a door", None, None)
    assert made == _rebuilt(made) and hash(made) == hash(_rebuilt(made))
    for obj in (view, made, *view.skills):
        try:
            setattr(obj, dataclasses.fields(obj)[0].name, None)
        except dataclasses.FrozenInstanceError:
            pass
        else:  # pragma: no cover - the assignment above must be refused
            raise AssertionError(f"{type(obj).__name__} must stay frozen")


def test_legal_is_the_acting_seats_actions_as_json_made_when_read() -> None:
    rules = perils_rules(narrate=False)
    state = rules.new(None, 3, players=2)
    rng = Rng(4)
    while (seat := rules.to_act(state)) is not None:
        legal = rules.legal_actions(state, seat)
        mine = rules.view(state, seat)
        assert mine.legal_actions == tuple(legal)
        assert mine.legal == tuple(a.to_json() for a in legal)
        assert mine.to_json()["legal"] == [a.to_json() for a in legal]
        assert mine.to_json()["legal"][0] is not mine.legal[0]  # the JSON is a copy
        for other in (1 - seat, None):
            view = rules.view(state, other)
            assert view.legal_actions == () and view.legal == () and view.to_json()["legal"] == []
        rules.apply_unchecked(state, seat, legal[rng.below(len(legal))])


def test_legal_actions_json_is_each_actions_own_to_json() -> None:
    """views._action_json (field names looked up once per class) gives Action.to_json's dict,
    key order included, for every kind of Perils action a game lists."""
    rules = perils_rules(narrate=False)
    rng = Rng(11)
    kinds: set[str] = set()
    for g in range(6):
        state = rules.new(None, 100 + g, players=2)
        seat = rules.to_act(state)
        while seat is not None:
            legal = rules.legal_actions(state, seat)
            for action in legal:
                got = views._action_json(action)
                assert list(got.items()) == list(action.to_json().items())
                kinds.add(got["type"])
            rules.apply_unchecked(state, seat, legal[rng.below(len(legal))])
            seat = rules.to_act(state)
    assert {"ChooseArchetype", "ChoosePathway", "MakePlan", "Roll"} <= kinds


def test_every_view_class_pickles_and_deep_copies_to_an_equal_view() -> None:
    import copy

    seen: set[str] = set()
    for view in _views_of_games(2)[::7]:
        for obj in (view, *view.skills, *view.items, *view.pathways, view.plan):
            if obj is None:
                continue
            seen.add(type(obj).__name__)
            again = pickle.loads(pickle.dumps(obj))
            assert type(again) is type(obj) and again == obj
            assert copy.deepcopy(obj) == obj
        assert pickle.loads(pickle.dumps(view)).to_json() == view.to_json()
    assert seen == {"PerilsView", "SkillView", "ItemView", "PathwayView", "PlanView"}


def test_legal_json_is_shared_by_identity_and_equal_by_value() -> None:
    from pocketgalaxy.games.perils.actions import MakePlan

    first = MakePlan("D", ("JC",), "I dash past the drone.")
    twin = MakePlan("D", ("JC",), "I dash past the drone.")
    got = views._action_json(first)
    assert views._action_json(first) is got  # the same instance: the memo by identity
    assert views._action_json(twin) == got == first.to_json()
    assert views._action_json(MakePlan("S", (), "")) == {"type": "MakePlan", "channel": "S",
                                                         "items": [], "plan": ""}
