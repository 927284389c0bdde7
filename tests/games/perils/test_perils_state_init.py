"""`PerilsState`'s own `__init__` and its `clone` (docs/speed.md, "The Perils million"): the
parameters are the dataclass fields in order, with their defaults; a list left out is a new one
each time; `clone` copies every field to the right place and shares nothing mutable."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.perils.options import PerilsOptions
from pocketgalaxy.games.perils.state import PerilsState
from pocketgalaxy.registry import perils_rules


def _marked() -> PerilsState:
    """A state whose every field holds a value no other field holds, so a field copied to the
    wrong place shows."""
    values: dict[str, Any] = {}
    ints = iter(range(101, 200))
    for i, f in enumerate(dataclasses.fields(PerilsState)):
        if f.name == "options":
            values[f.name] = PerilsOptions(max_health=7)
        elif f.name == "rng":
            values[f.name] = Rng(2**63 + 5, pinned=[2])
        elif f.name == "pinned":
            values[f.name] = {"rolls": [4, 5], "draw": ["7D"]}
        elif f.name == "tucked":
            values[f.name] = {"D": ["2D"], "C": ["3C"], "S": [], "H": ["4H", "5H"]}
        elif f.name == "suggested":
            values[f.name] = [True, False, True]
        elif f.name == "rolls":
            values[f.name] = [6, 1]
        elif f.type in ("int", int):
            values[f.name] = next(ints)
        elif f.type in ("bool", bool):
            values[f.name] = True
        elif "list" in str(f.type):
            values[f.name] = [f"{f.name}-{i}", f"{f.name}-{i}b"]
        else:  # str and str | None
            values[f.name] = f"{f.name}-value"
    return PerilsState(**values)


def test_the_parameters_are_the_fields_in_order_with_their_defaults() -> None:
    fields = dataclasses.fields(PerilsState)
    marked = _marked()
    positional = PerilsState(*(getattr(marked, f.name) for f in fields))
    for f in fields:
        assert getattr(positional, f.name) is getattr(marked, f.name), f.name
    bare = PerilsState(PerilsOptions(), 3, 4, Rng(3))
    for f in fields[4:]:
        default = (f.default_factory() if f.default_factory is not dataclasses.MISSING
                   else f.default)
        assert getattr(bare, f.name) == default, f.name
    other = PerilsState(PerilsOptions(), 3, 4, Rng(3))
    for f in fields:  # a list left out is a new one each time
        if f.default_factory is not dataclasses.MISSING:
            assert getattr(bare, f.name) is not getattr(other, f.name), f.name
    assert bare.tucked["D"] is not other.tucked["D"]


def test_clone_copies_every_field_to_its_place_and_shares_nothing_mutable() -> None:
    state = _marked()
    twin = state.clone()
    assert type(twin) is PerilsState
    for f in dataclasses.fields(PerilsState):
        mine, theirs = getattr(state, f.name), getattr(twin, f.name)
        assert theirs == mine, f.name
        if isinstance(mine, (list, dict, Rng)):
            assert theirs is not mine, f.name
    assert twin.options is state.options
    assert all(twin.tucked[s] is not state.tucked[s] for s in state.tucked)
    assert state.pinned is not None and twin.pinned is not None
    assert all(twin.pinned[k] is not state.pinned[k] for k in state.pinned)
    assert twin.to_json() == state.to_json()
    state.deck.append("X")
    state.rng.below(5)
    assert "X" not in twin.deck and twin.rng != state.rng


def test_the_state_pickles_copies_and_reads_back_from_json() -> None:
    state = perils_rules(narrate=False).new(PerilsOptions(archetype="pilot"), 8)
    for again in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state),
                  PerilsState.from_json(state.to_json()),
                  dataclasses.replace(state)):
        assert type(again) is PerilsState
        assert again.to_json() == state.to_json()
    assert dataclasses.replace(state, round=4).round == 4
