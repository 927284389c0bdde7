"""Computer players by name, for every shell.

A player spec is `name` or `name:key=value,key=value` (for example `forgetful:level=easy`,
`ismcts:iterations=500`). Each game module in `agents/` exposes `agents_for_seat(seat, players)`
returning {name: factory}; factories take (seed, **settings). Numeric settings are checked
against their declared ranges (`agents.limits`) here, the one place every shell goes through.
`bot` names the default computer player of the seat's role (`agents.catalogue.resolve_spec`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.catalogue import BOT, ROLE_WORDS, entries, resolve_spec, role_of
from pocketgalaxy.agents.limits import check_settings
from pocketgalaxy.core.errors import PocketGalaxyError

_MODULES = {"perils": "pocketgalaxy.agents.perils", "adventure": "pocketgalaxy.agents.adventure"}


def _factories(game: str, seat: int, players: int) -> dict[str, Callable[..., Agent]]:
    if game not in _MODULES:
        raise PocketGalaxyError(
            f"unknown game {game!r}", code="game/unknown", allowed=sorted(_MODULES)
        )
    module = importlib.import_module(_MODULES[game])
    table: dict[str, Callable[..., Agent]] = module.agents_for_seat(seat, players)
    return table


def agent_names(game: str, seat: int, players: int = 2) -> list[str]:
    """Names of the computer players that can sit at `seat`."""
    return sorted(_factories(game, seat, players))


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """`"forgetful:level=easy,fade=0.1"` -> ("forgetful", {"level": "easy", "fade": 0.1})."""
    name, _, rest = spec.strip().partition(":")
    settings: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq:
            raise PocketGalaxyError(
                f"bad player setting {part!r} in {spec!r}: expected key=value",
                code="agent/bad_spec",
            )
        settings[key.strip()] = _value(value.strip())
    return name, settings


def _value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def make_agent(game: str, spec: str, seat: int, players: int = 2, seed: int = 0) -> Agent:
    """Build the computer player `spec` for `seat`, with its own seeded random source.
    `bot` builds the role's default (agents/catalogue.py)."""
    key = (game, spec, seat, players)
    known = _RESOLVED.get(key)
    if known is None:
        known = _resolve(game, spec, seat, players)
        if len(_RESOLVED) >= _RESOLVED_LIMIT:
            _RESOLVED.clear()
        _RESOLVED[key] = known
    factory, name, settings = known
    try:
        return factory(seed=seed, **settings)
    except TypeError as exc:
        raise PocketGalaxyError(f"bad settings for {name!r}: {exc}", code="agent/bad_spec") from exc


# A simulation builds its players anew for every game, from a handful of specs: each spec is
# resolved (its game's table of players, `bot`, the settings parsed and checked) once, then
# only the player is built (about 45,000 instructions a Perils game less). A resolution
# depends only on the key and the modules' own tables; a refused spec is never kept.
_RESOLVED: dict[tuple[str, str, int, int], tuple[Callable[..., Agent], str, dict[str, Any]]] = {}
_RESOLVED_LIMIT = 256


def _resolve(game: str, spec: str, seat: int, players: int
             ) -> tuple[Callable[..., Agent], str, dict[str, Any]]:
    """The factory, name and checked settings of `spec` at `seat`, or the refusal."""
    table = _factories(game, seat, players)
    if table:
        spec = resolve_spec(game, spec, seat)
    name, settings = parse_spec(spec)
    if name not in table:
        raise unknown_player(game, name, seat, sorted(table))
    check_settings(game, name, settings)
    return table[name], name, settings


def unknown_player(game: str, name: str, seat: int, names: list[str]) -> PocketGalaxyError:
    """The refusal of a name no factory has: it counts the seat from 1, names the role, and
    lists `bot` and the catalogue's specs first, then any other name the registry takes."""
    if not names:
        return PocketGalaxyError(f"no computer player can sit at {game} seat {seat + 1}",
                                 code="agent/unknown", allowed=[])
    role = role_of(game, seat)
    listed = [e.spec for e in entries(game, role)]
    allowed = list(dict.fromkeys([BOT, *listed, *names]))
    where = f"{game} seat {seat + 1}" + ("" if game == "adventure" else
                                         f" (the {ROLE_WORDS[role]})")
    return PocketGalaxyError(
        f"unknown computer player {name!r} for {where}: choose bot (the default) or one of "
        f"the players listed by `pocketgalaxy players {game}`",
        code="agent/unknown",
        allowed=allowed,
    )
