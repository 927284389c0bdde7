"""A lone UTF-16 surrogate inside a Teller's description or a Hero's plan, sent as a JSON escape
(`"a door \\ud800 here"`) over REST and over the WebSocket, against a real server: refused with a
4xx / an error reply on an open socket; the game is unchanged and stays readable by every seat
and a watcher (REST and WebSocket), also after the server is killed and restarted; and it plays
on with a valid move."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from faultkit import report
from faultkit.probe import (
    FuzzGame,
    create_game,
    error_code,
    fingerprint,
    request,
    state,
    try_fingerprint,
)
from faultkit.server import ServerProcess
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

SURROGATES = ["a door \ud800 here", "\udfff", "reversed \udc00\ud800 pair"]


def _advance_to(http: httpx.Client, game: FuzzGame, action_type: str) -> tuple[int, int,
                                                                              dict[str, Any]]:
    """Play first legal moves until the seat to act may play `action_type`."""
    for _ in range(60):
        watcher = state(http, game, None)
        seat = watcher["to_act"]
        assert watcher["status"] == "running" and seat is not None, watcher
        legal = state(http, game, seat)["legal"]
        wanted = [a for a in legal if a["type"] == action_type]
        if wanted:
            return seat, watcher["index"], wanted[0]
        res = request(http, "POST", f"/api/games/{game.game_id}/actions",
                      json={"seat": seat, "action": legal[0], "index": watcher["index"]},
                      headers={"Authorization": f"Bearer {game.tokens[seat]}"})
        assert res.status_code == 200, res.text
    raise AssertionError(f"never reached {action_type}")


def _poisoned(action: dict[str, Any], text: str) -> dict[str, Any]:
    if action["type"] == "DescribePathways":
        return {**action, "descriptions": [text] + list(action["descriptions"][1:])}
    return {**action, "plan": text}


def _act_reply(ws: Any, action: dict[str, Any], index: int) -> tuple[dict[str, Any], bool]:
    """Send an act; its first reply, and whether the socket still answers a ping after it."""
    ws.send(json.dumps({"type": "act", "action": action, "index": index}))
    reply = _recv(ws)
    while reply is not None and reply["type"] == "update" and reply["index"] == index:
        reply = _recv(ws)  # a presence update, not the reply
    if reply is None:
        return {"type": "no reply"}, False
    try:
        ws.send(json.dumps({"type": "ping"}))
    except ConnectionClosed:
        return reply, False
    while (msg := _recv(ws)) is not None and msg["type"] != "pong":
        pass
    return reply, msg is not None


def _recv(ws: Any, timeout: float = 5.0) -> dict[str, Any] | None:
    """The next message, or None if the socket closed or stayed silent."""
    try:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    except (ConnectionClosed, TimeoutError):
        return None
    return msg


def _ws_views(server: ServerProcess, game: FuzzGame) -> dict[str, str]:
    """Each seat's and a watcher's WebSocket snapshot, or the error it got instead."""
    out = {}
    for seat in [None, *sorted(game.tokens)]:
        with connect(f"{server.ws_url}/ws/{game.game_id}", open_timeout=30) as ws:
            ws.send(json.dumps({"type": "hello", "seat": seat,
                                "token": None if seat is None else game.tokens[seat],
                                "since": 0}))
            msg = _recv(ws)
            if msg is None:
                got = "closed or silent"
            else:
                got = msg["type"] if msg["type"] != "error" else msg["error"]["code"]
            out["watcher" if seat is None else f"seat {seat}"] = got
    return out


def _attempts(server: ServerProcess, http: httpx.Client, game: FuzzGame,
              answers: list[dict[str, Any]], unchanged: list[bool]) -> bool:
    """Every surrogate over both transports at both text actions; False once the game broke."""
    for action_type in ("DescribePathways", "MakePlan"):
        seat, index, action = _advance_to(http, game, action_type)
        auth = {"Authorization": f"Bearer {game.tokens[seat]}"}
        for text in SURROGATES:
            before = fingerprint(http, game)
            body = json.dumps({"seat": seat, "action": _poisoned(action, text), "index": index})
            assert "\\ud" in body  # sent as the JSON escape, as a hostile client does
            res = request(http, "POST", f"/api/games/{game.game_id}/actions",
                          content=body.encode(),
                          headers={**auth, "Content-Type": "application/json"})
            answers.append({"via": "REST", "action": action_type, "status": res.status_code,
                            "code": error_code(res)})
            unchanged.append(try_fingerprint(http, game) == before)
            if not unchanged[-1]:
                return False
            with connect(f"{server.ws_url}/ws/{game.game_id}", open_timeout=30) as ws:
                ws.send(json.dumps({"type": "hello", "seat": seat, "token": game.tokens[seat],
                                    "since": index}))
                hello = _recv(ws)
                assert hello is not None and hello["type"] == "snapshot", hello
                reply, still_open = _act_reply(ws, _poisoned(action, text), index)
            answers.append({"via": "WebSocket", "action": action_type, "reply": reply["type"],
                            "code": (reply.get("error") or {}).get("code"),
                            "socket_open": still_open})
            unchanged.append(try_fingerprint(http, game) == before)
            if not unchanged[-1]:
                return False
        # A valid move goes through afterwards: the game is not bricked.
        res = request(http, "POST", f"/api/games/{game.game_id}/actions",
                      json={"seat": seat, "action": action, "index": index}, headers=auth)
        assert res.status_code == 200, res.text
    return True


def test_lone_surrogates_in_descriptions_and_plans_are_refused(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path)
    server.start()
    answers: list[dict[str, Any]] = []
    unchanged: list[bool] = []
    try:
        with server.client() as http:
            game = create_game(http, "perils")
            _attempts(server, http, game, answers, unchanged)
            live_views = _ws_views(server, game)
            final = try_fingerprint(http, game)
        server.kill()
        server.start()
        with server.client() as http:
            after_restart = try_fingerprint(http, game)
        restart_views = _ws_views(server, game)
        problems = server.problems()
    finally:
        server.stop()
    refused = [a for a in answers
               if 400 <= a.get("status", 0) < 500 or a.get("reply") == "error"]
    report.record("surrogates", {"attempts": len(answers), "refused": len(refused),
                                 "answers": answers, "game_unchanged_each_time": all(unchanged),
                                 "readable_after_restart": restart_views})
    for a in answers:
        if a["via"] == "REST":
            assert 400 <= a["status"] < 500 and a["code"], a
        else:
            assert a["reply"] == "error" and a["code"] and a["socket_open"], a
    assert all(unchanged), "a refused surrogate changed the game"
    assert set(live_views.values()) == {"snapshot"}, live_views
    assert after_restart == final
    assert set(restart_views.values()) == {"snapshot"}, restart_views
    assert problems == [], "\n".join(problems[:20])
