"""Computer-player settings beyond their documented maximums are refused with 400 (and the
allowed range in the message), over `POST /api/games` and the takeover route, and change
nothing; settings within range are accepted. Against a real server that is SIGKILLed at the end,
so a server that wrongly accepted a huge setting (and thinks forever) cannot hang the suite."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from faultkit import report
from faultkit.probe import error_code, lobby_ids
from faultkit.server import ServerProcess

HUGE_ISMCTS = "ismcts:iterations=100000000"
HUGE_PLANNER = "planner:samples=10000000"


def _post(http: httpx.Client, path: str, body: dict[str, Any],
          token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        res = http.post(path, json=body, headers=headers)
    except httpx.TimeoutException:
        return {"status": "timed out (the server is busy thinking)", "code": None}
    message = ""
    if res.status_code >= 400:
        try:
            message = res.json()["error"]["message"]
        except (ValueError, KeyError, TypeError):
            message = res.text[:200]
    return {"status": res.status_code, "code": error_code(res), "message": message,
            "json": res.json() if res.status_code < 300 else None}


def _seats(http: httpx.Client, game_id: str) -> Any:
    """The game's seats, or None when the server is too busy to answer."""
    try:
        return http.get(f"/api/games/{game_id}").json()["seats"]
    except httpx.TimeoutException:
        return None


def test_bot_settings_beyond_their_maximum_are_refused(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path)
    server.start()
    answers: dict[str, dict[str, Any]] = {}
    try:
        with httpx.Client(base_url=server.url, timeout=5) as http:
            control = _post(http, "/api/games", {
                "game": "adventure", "players": 2,
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "ismcts:iterations=50"}]})
            answers["ismcts:iterations=50 (within range)"] = control
            assert control["status"] == 201, control
            made = control["json"]
            lobby = lobby_ids(http)
            answers[f"create with {HUGE_ISMCTS}"] = _post(http, "/api/games", {
                "game": "adventure", "players": 2,
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": HUGE_ISMCTS}]})
            before = _seats(http, made["game_id"])
            answers[f"takeover with {HUGE_ISMCTS}"] = _post(
                http, f"/api/games/{made['game_id']}/seats/0/takeover", {"bot": HUGE_ISMCTS},
                token=made["creator_token"])
            seats_unchanged = before is not None and _seats(http, made["game_id"]) == before
            # Last: a Perils Hero acts first, so a wrongly accepted planner starts thinking now.
            answers[f"create with {HUGE_PLANNER}"] = _post(http, "/api/games", {
                "game": "perils", "players": 2,
                "seats": [{"kind": "bot", "bot": HUGE_PLANNER}, {"kind": "human"}]})
            try:
                lobby_unchanged = lobby_ids(http) == lobby
            except httpx.TimeoutException:
                lobby_unchanged = False
    finally:
        server.kill()  # not stop(): a server stuck in a huge search would not stop politely
    report.record("bot_bounds", {k: {"status": v["status"], "code": v["code"],
                                     "message": v.get("message")} for k, v in answers.items()})
    for case, got in answers.items():
        if "within range" in case:
            continue
        assert got["status"] == 400 and got["code"], (case, got)
    assert seats_unchanged, "a refused takeover changed the seats"
    assert lobby_unchanged, "a refused create added a game"
