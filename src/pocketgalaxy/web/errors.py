"""Refusals of the web layer, and the one table that maps every error code to an HTTP status.

Every refusal is a `PocketGalaxyError` (core errors from the rules, `WebError` from here). The REST
edge answers `{"error": {"code", "message", "legal"}}` with `status_for(code)`; the WebSocket sends
`{"type": "error", "error": {...}}` and keeps the socket open.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pocketgalaxy.core.errors import PocketGalaxyError


class WebError(PocketGalaxyError):
    """A refusal from the server itself (unknown game, bad token, stale index, limits)."""

    def __init__(self, code: str, message: str, *, allowed: Sequence[Any] = ()) -> None:
        super().__init__(message, code=code)
        # `legal` may hold action JSON objects, not only strings.
        self.legal: list[Any] = list(allowed)

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "legal": self.legal}


_EXACT = {
    "game/unknown": 404,
    "seat/unknown": 404,
    "auth/bad_token": 401,
    "auth/not_creator": 403,
    "action/stale": 409,
    "action/malformed": 400,
    "request/malformed": 400,
    "options/invalid": 400,
    "agent/unknown": 400,
    "agent/bad_spec": 400,
    "seat/not_open": 409,
    "seat/not_taken_over": 409,
    "seat/taken_over": 409,
    "seat/not_human": 409,
    "record/not_finished": 409,
    "rematch/not_finished": 409,
    "rematch/not_seated": 403,
    "record/damaged": 409,
    "game/abandoned": 409,
    "message/too_large": 413,
    "message/rate_limited": 429,
    "request/rate_limited": 429,
    "limit/games_per_hour": 429,
    "limit/connections": 429,
    "limit/live_games": 503,
    "text/invalid": 400,
    "text/too_long": 400,
    "message/too_deep": 400,
    "message/number_too_long": 400,
    "message/malformed_json": 400,
    "server/error": 500,
    "store/failed": 503,
}


def status_for(code: str) -> int:
    """The HTTP status of an error code (illegal actions are 409: they conflict with the state)."""
    if code in _EXACT:
        return _EXACT[code]
    if code.startswith("action/"):
        return 409
    return 400
