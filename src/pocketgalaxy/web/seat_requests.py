"""How a request to create a game names its seats, clocks and computer players: the checks
the hub runs before anything is stored. A mixin of `Hub` (split from hub.py by job); it uses the
hub's `settings`, `agent_names` and `make_agent`."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.catalogue import resolve_spec
from pocketgalaxy.core.game import GameRules
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.live import SeatInfo, default_name
from pocketgalaxy.web.settings import Settings

_MAX_SECONDS = 7 * 24 * 3600
"""The longest takeover delay or turn clock a game may ask for: a week."""


class SeatRequests:
    """Checks of the seats, names and time settings a new game asks for."""

    settings: Settings
    agent_names: Callable[[str, int, int], list[str]]
    make_agent: Callable[..., Agent]

    def _seconds(self, name: str, value: Any) -> int | None:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= _MAX_SECONDS:
            raise WebError(
                "request/malformed", f"'{name}' must be null or whole seconds in 1..{_MAX_SECONDS}"
            )
        return value

    def _seat_from_request(
        self, rules: GameRules[Any, Any], seat: int, players: int, spec: Any, seed: int | None
    ) -> tuple[SeatInfo, Agent | None]:
        if not isinstance(spec, dict):
            raise WebError("request/malformed", f"seat {seat} must be a JSON object")
        unknown = sorted(set(spec) - {"kind", "bot", "name"})
        if unknown:
            raise WebError(
                "request/malformed", f"seat {seat}: unknown field(s) {unknown}",
                allowed=["kind", "bot", "name"],
            )
        kind = spec.get("kind")
        if kind not in ("human", "bot"):
            raise WebError(
                "request/malformed", f"seat {seat}: 'kind' must be 'human' or 'bot'",
                allowed=["human", "bot"],
            )
        if kind == "human":
            # A seat given a name is that person's: reserved for its link, never in the lobby.
            name = self.clean_name(spec.get("name"), "")
            if not name:
                return SeatInfo(seat=seat, kind="human", name=default_name(seat)), None
            return SeatInfo(seat=seat, kind="human", name=name, reserved=True), None
        bot = spec.get("bot") or self.default_bot(rules.name, seat, players)
        if not isinstance(bot, str) or len(bot) > 200:
            raise WebError("request/malformed", f"seat {seat}: 'bot' must be a player name")
        bot = resolve_spec(rules.name, bot, seat)  # `bot`: the role's default, stored by name
        bot_seed = secrets.randbelow(2**31) if seed is None else seed  # fixed: lessons
        agent = self.make_agent(rules.name, bot, seat, players, bot_seed)
        name = self.clean_name(spec.get("name"), f"{bot.partition(':')[0].title()} (computer)")
        return SeatInfo(seat=seat, kind="bot", name=name, bot=bot, bot_seed=bot_seed), agent

    def clean_name(self, value: Any, default: str) -> str:
        """A seat name: printable text, trimmed, at most `max_name_len` characters."""
        if value is None or value == "":
            return default
        if not isinstance(value, str):
            raise WebError("request/malformed", "a seat name must be text")
        name = "".join(ch for ch in value if ch.isprintable()).strip()
        limit = self.settings.max_name_len
        if not name:
            return default
        if len(name) > limit:
            raise WebError("request/malformed", f"a seat name is at most {limit} characters")
        return name

    def default_bot(self, game: str, seat: int, players: int) -> str:
        """The computer player used when none is named: `memory`, else the first not `random`."""
        names = self.agent_names(game, seat, players)
        if not names:
            raise WebError("agent/unknown", f"no computer player can sit at {game} seat {seat}")
        if "memory" in names:
            return "memory"
        # Prefer a real player to the uniform random baseline.
        return next((n for n in names if n != "random"), names[0])

