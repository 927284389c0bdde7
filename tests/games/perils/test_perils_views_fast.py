"""The fast construction of Perils views (views._new, the shared SkillView and ItemView objects)
gives exactly what the dataclasses' own constructors give, field for field; views pickle and
copy on the path in use (compiled, through their `__reduce__`)."""

from __future__ import annotations

import dataclasses
import pickle

from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils import views
from pocketgalaxy.games.perils.views import ItemView, PathwayView, PerilsView, PlanView, SkillView
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


def test_views_are_given_their_values_in_field_order() -> None:
    # views._new passes the values positionally when compiled: build_view's dicts must list
    # them in the order of the fields (checked by the order each view holds them in, pure, or
    # by the rebuilt views compared field by field above, compiled).
    for view in _views_of_games(1)[:40]:
        for obj in (view, *view.pathways, view.plan):
            if obj is not None and hasattr(obj, "__dict__"):
                assert list(vars(obj)) == [f.name for f in dataclasses.fields(obj)]


def test_new_fills_exactly_the_given_fields_and_stays_frozen() -> None:
    made = views._new(PathwayView, {"position": 1, "description": "a door", "hint": None,
                                    "face": None})
    assert made == PathwayView(1, "a door", None, None)
    assert hash(made) == hash(PathwayView(1, "a door", None, None))
    try:
        made.position = 2  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:  # pragma: no cover - the check above must refuse
        raise AssertionError("a fast-built view must stay frozen")
    assert pickle.loads(pickle.dumps(made)) == made


def test_shared_skill_and_item_views_are_the_plain_ones() -> None:
    assert views._skill("D", "Dash", ("5D",), ("3D",), 6) == SkillView("D", "Dash", ("5D",),
                                                                     ("3D",), 6)
    rules = perils_rules(narrate=False)
    theme = rules.theme(rules.new(None, 1, players=2).options)
    code = sorted(theme.items)[0]
    assert views._item(theme, code) == ItemView(code, theme.items[code].name,
                                                theme.items[code].blurb)
    plan = views._new(PlanView, {"channel": "D", "items": (), "text": "t", "judged": False,
                                 "approve_channel": False, "approve_items": (),
                                 "advantage": False, "bonus": 0, "rolls": (), "reasons": None})
    assert plan == PlanView("D", (), "t", False, False, (), False, 0, ())


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
