"""The declared ranges of computer-player settings (agents/limits.py), enforced by make_agent."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from pocketgalaxy.agents.ismcts import ISMCTSAgent
from pocketgalaxy.agents.limits import LIMITS, check_settings, is_heavy
from pocketgalaxy.agents.registry import agent_names, make_agent
from pocketgalaxy.core.errors import PocketGalaxyError

_SEATS = {"adventure": (0, 4), "perils": (0, 2)}


def _factories() -> list[tuple[str, str, Any]]:
    import importlib

    out = []
    for game in ("adventure", "perils"):
        module = importlib.import_module(f"pocketgalaxy.agents.{game}")
        seats = range(_SEATS[game][1]) if game == "perils" else (0,)
        for seat in seats:
            for name, factory in module.agents_for_seat(seat, _SEATS[game][1]).items():
                out.append((game, name, factory))
    return out


def _numeric_parameters(factory: Any) -> set[str]:
    target = ISMCTSAgent.__init__ if factory.__name__ == "make_ismcts" else factory.__init__
    names = set()
    for p in inspect.signature(target).parameters.values():
        if p.name in ("self", "seed") or p.kind is p.VAR_KEYWORD:
            continue
        default = p.default
        annotation = str(p.annotation)
        numeric = (isinstance(default, (int, float)) and not isinstance(default, bool)) or any(
            t in annotation for t in ("int", "float"))
        if numeric:
            names.add(p.name)
    return names


@pytest.mark.parametrize(("game", "name", "factory"), _factories(),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_every_numeric_setting_has_a_declared_range(game: str, name: str, factory: Any) -> None:
    declared = set(LIMITS[game][name])
    assert _numeric_parameters(factory) <= declared, f"{game} {name}: undeclared numeric setting"


def test_every_registered_player_is_in_the_table() -> None:
    for game, (_, players) in _SEATS.items():
        for seat in range(players if game == "perils" else 1):
            assert set(agent_names(game, seat, players)) <= set(LIMITS[game])


@pytest.mark.parametrize(
    ("game", "spec", "fragment"),
    [
        ("adventure", "ismcts:iterations=100000000", "iterations must be a whole number from 1 to"),
        ("adventure", "ismcts:seconds=60", "seconds must be a number from 0.001 to 5"),
        ("adventure", "ismcts:depth=65", "depth must be a whole number from 0 to 64"),
        ("adventure", "ismcts:iterations=1e3", "whole number"),
        ("adventure", "ismcts:c=nan", "c must be a number"),
        ("adventure", "forgetful:fade=2", "fade must be a number from 0 to 1"),
        ("perils", "planner:samples=10000000", "samples must be a whole number from 1 to 1000"),
        ("perils", "planner:confidence=inf", "confidence must be a number from 0 to 10"),
        ("perils", "rulebased:keep_items=true", "keep_items must be a whole number"),
    ],
)
def test_a_setting_beyond_its_range_is_refused_with_the_range(
    game: str, spec: str, fragment: str
) -> None:
    with pytest.raises(PocketGalaxyError) as caught:
        make_agent(game, spec, 0, _SEATS[game][1], seed=1)
    assert caught.value.code == "agent/bad_spec"
    assert fragment in caught.value.message
    assert caught.value.allowed and ".." in caught.value.allowed[0]


def test_the_maximums_themselves_are_accepted() -> None:
    for game, table in LIMITS.items():
        for name, limits in table.items():
            if not limits or name == "teller":
                continue
            for key, limit in limits.items():
                high = int(limit.high) if limit.integer else limit.high
                agent = make_agent(game, f"{name}:{key}={high}", 0, _SEATS[game][1], seed=1)
                assert agent.name == name  # the named player, built at its maximum
    # The Teller sits at seat 1.
    assert make_agent("perils", "teller:low=1,high=1", 1, 2) is not None


def test_the_check_itself_ignores_unknown_keys_and_the_player_refuses_them() -> None:
    check_settings("adventure", "ismcts", {"colour": "red"})  # the player's own job
    with pytest.raises(PocketGalaxyError, match="bad settings"):
        make_agent("adventure", "ismcts:colour=red", 0, 4)


def test_heavy_players_are_the_searchers() -> None:
    assert is_heavy("adventure", "ismcts") and is_heavy("perils", "planner")
    assert not is_heavy("adventure", "memory") and not is_heavy("perils", "teller")
