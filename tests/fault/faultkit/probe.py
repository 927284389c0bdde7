"""What a game looks like from outside, to tell whether a refused message changed anything.

`fingerprint` reads the game over REST as every seat (with its token) and as a watcher: index,
status, who is to act, each view and each legal list. Presence (who is connected) and the clock
are left out: they change when sockets come and go, which is not a change of the game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx


def request(http: httpx.Client, method: str, url: str, **kwargs: Any) -> httpx.Response:
    """One request, tried once more if the connection broke (after a 500, uvicorn may reset the
    kept-alive connection; the next request must not fail for that)."""
    try:
        return http.request(method, url, **kwargs)
    except httpx.TransportError:
        return http.request(method, url, **kwargs)


@dataclass
class FuzzGame:
    """A game the fuzzer plays with: its id, seat tokens, and the creator's token."""

    game_id: str
    game: str
    tokens: dict[int, str]
    creator_token: str


def create_game(http: httpx.Client, game: str) -> FuzzGame:
    """A two-seat game where both seats are people (so every move comes from the fuzzer)."""
    res = request(http, "POST", "/api/games", json={
        "game": game, "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}],
    })
    assert res.status_code == 201, res.text
    made = res.json()
    return FuzzGame(made["game_id"], game, {s["seat"]: s["token"] for s in made["seats"]},
                    made["creator_token"])


class Unreadable(AssertionError):
    """A game that a seat or watcher can no longer read (the reply was not 200)."""


def state(http: httpx.Client, game: FuzzGame, seat: int | None) -> dict[str, Any]:
    """The REST snapshot for one seat (or the watcher); asserts it can be read."""
    headers = {} if seat is None else {"Authorization": f"Bearer {game.tokens[seat]}"}
    params = {} if seat is None else {"seat": seat}
    res = request(http, "GET", f"/api/games/{game.game_id}/state", params=params,
                  headers=headers)
    if res.status_code != 200:
        raise Unreadable(f"game {game.game_id} unreadable for seat {seat}: "
                         f"{res.status_code} {res.text[:200]}")
    data: dict[str, Any] = res.json()
    return data


def fingerprint(http: httpx.Client, game: FuzzGame) -> str:
    """Everything every seat and a watcher can see of the game, as one canonical string."""
    parts = []
    for seat in [None, *sorted(game.tokens)]:
        snap = state(http, game, seat)
        parts.append({k: snap.get(k) for k in ("index", "status", "to_act", "view", "legal",
                                               "outcome")})
    return json.dumps(parts, sort_keys=True)


def lobby_ids(http: httpx.Client) -> str:
    """The latest games' ids and statuses: a refused create or claim must not change it."""
    res = request(http, "GET", "/api/games")
    assert res.status_code == 200, res.text
    return json.dumps(sorted((g["game_id"], g["status"], g["open_seats"]) for g in res.json()))


def play(http: httpx.Client, game: FuzzGame, steps: int, pick: int = 0) -> int:
    """Play `steps` legal moves over REST (the `pick`-th legal move, wrapped); the new index."""
    index = 0
    for _ in range(steps):
        watcher = state(http, game, None)
        index = int(watcher["index"])
        if watcher["status"] == "over" or watcher["to_act"] is None:
            break
        seat = watcher["to_act"]
        legal = state(http, game, seat)["legal"]
        res = request(http, "POST", f"/api/games/{game.game_id}/actions",
                      json={"seat": seat, "action": legal[pick % len(legal)], "index": index},
                      headers={"Authorization": f"Bearer {game.tokens[seat]}"})
        assert res.status_code == 200, res.text
        index = int(res.json()["index"])
    return index


def error_code(res: httpx.Response) -> str | None:
    """The error code of a refusal, or None when the body is not the error object."""
    try:
        code = res.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None
    return code if isinstance(code, str) else None


def try_fingerprint(http: httpx.Client, game: FuzzGame) -> str:
    """`fingerprint`, or a line saying who could not read the game."""
    try:
        return fingerprint(http, game)
    except Unreadable as exc:
        return f"unreadable: {exc}"
