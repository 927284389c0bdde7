"""Refusals of the web layer, and the one table that maps every error code to an HTTP status.

Every refusal is a `PocketGalaxyError` (core errors from the rules, `WebError` from here). The REST
edge answers `{"error": {"code", "message", "legal", "explanation"}}` with `status_for(code)`; the
WebSocket sends `{"type": "error", "error": {...}}` and keeps the socket open. `explanation` is the
sentence a page shows a person (a move refused by the rules: in the player's words, seats and
slots counted from 1, with `rule` beside it); `message` stays the precise text for developers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pocketgalaxy.core.errors import IllegalActionError, PocketGalaxyError
from pocketgalaxy.refusals import explain_refusal


class WebError(PocketGalaxyError):
    """A refusal from the server itself (unknown game, bad token, stale index, limits), or a
    move refused by the rules as the web answers it (`refused_move`)."""

    def __init__(self, code: str, message: str, *, allowed: Sequence[Any] = (),
                 explanation: str | None = None, rule: str | None = None) -> None:
        super().__init__(message, code=code)
        # `legal` may hold action JSON objects, not only strings.
        self.legal: list[Any] = list(allowed)
        self.explanation = explanation or PLAYER_WORDS.get(code) or message
        self.rule = rule

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"code": self.code, "message": self.message, "legal": self.legal,
                                  "explanation": self.explanation}
        if self.rule:
            out["rule"] = self.rule
        return out


PLAYER_WORDS = {
    "action/stale": "Another move came first: look at the table again and choose again.",
    "action/game_over": "The game is over: no more moves can be made.",
    "action/malformed": "The page sent a move the server does not understand: reload the page "
                        "and try again.",
    "seat/taken_over": "A computer player is playing your seat: take it back first, then move.",
    "auth/bad_token": "This link's key is not right for this seat: open the seat's own link "
                      "again.",
    "message/rate_limited": "Too many messages at once: wait a moment and try again.",
    "request/rate_limited": "Too many requests at once: wait a moment and try again.",
    "store/failed": "The move could not be saved: try again.",
    "game/abandoned": "This game was abandoned: start a new one from the lobby.",
    "record/damaged": "This game's stored record is damaged, so it cannot go on: start a new "
                      "one from the lobby.",
}
"""The sentence a person is shown for the server's own refusals (the rest show `message`)."""


def error_json(err: PocketGalaxyError) -> dict[str, Any]:
    """Any error as the web sends it: every reply carries `explanation` (a core error's own
    message is already written for people: options, content, records)."""
    out = dict(err.to_json())
    out.setdefault("explanation", err.message)
    return out


def refused_move(game: str, error: IllegalActionError, view: Any, names: Sequence[str],
                 legal: Sequence[Any]) -> WebError:
    """A move the rules refused, as the web answers it: the rules' code, message and rule,
    the seat's own legal actions, and the sentence for the person (from that seat's view)."""
    said = explain_refusal(game, error, view, names)
    return WebError(error.code, error.message, allowed=legal, explanation=said, rule=error.rule)


_EXACT = {
    "game/unknown": 404,
    "seat/unknown": 404,
    "study/not_found": 404,
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
    "lesson/unknown": 404,
    "lesson/not_a_lesson": 404,
    "lesson/not_the_learner": 403,
}


def status_for(code: str) -> int:
    """The HTTP status of an error code (illegal actions are 409: they conflict with the state)."""
    if code in _EXACT:
        return _EXACT[code]
    if code.startswith("action/"):
        return 409
    return 400
