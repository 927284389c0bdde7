"""Presence: joining or leaving sends a small `presence` message only when a seat's connected
state flips; a watcher joining costs its own snapshot and nothing for the others."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from starlette.testclient import TestClient

from pocketgalaxy.web.hub import Conn, Hub

_SMALL = 200  # bytes: a presence message for two seats is far below this


def _hello(ws: Any, seat: int | None = None, token: str | None = None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "seat": seat, "token": token})
    msg: dict[str, Any] = ws.receive_json()
    assert msg["type"] == "snapshot", msg
    return msg


def _nothing_waiting(ws: Any) -> None:
    """The next message is the reply to this ping: nothing else was queued for this socket."""
    ws.send_json({"type": "ping"})
    assert ws.receive_json() == {"type": "pong"}


def test_watchers_cost_one_snapshot_each_and_seats_one_small_presence(
    client: TestClient, create: Any
) -> None:
    made = create("adventure", [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}])
    gid, ada = made["game_id"], made["seats"][0]["token"]
    with contextlib.ExitStack() as stack:
        watchers = []
        for _ in range(12):
            ws = stack.enter_context(client.websocket_connect(f"/ws/{gid}"))
            _hello(ws)
            watchers.append(ws)
        for ws in watchers:
            _nothing_waiting(ws)  # no update or presence for a watcher joining

        with client.websocket_connect(f"/ws/{gid}") as seat0:
            snap = _hello(seat0, 0, ada)
            assert snap["seats"][0]["connected"] is True
            for ws in watchers:
                raw = ws.receive_text()
                msg = json.loads(raw)
                assert msg == {"type": "presence", "game_id": gid, "seats": [
                    {"seat": 0, "connected": True}, {"seat": 1, "connected": False}]}
                assert len(raw.encode()) < _SMALL
            # A second socket for the same seat flips nothing: nobody hears of it.
            with client.websocket_connect(f"/ws/{gid}") as again:
                _hello(again, 0, ada)
            for ws in watchers:
                _nothing_waiting(ws)
            _nothing_waiting(seat0)
        for ws in watchers:  # Ada's last socket left
            msg = ws.receive_json()
            assert msg["type"] == "presence" and msg["seats"][0] == {"seat": 0, "connected": False}

        watchers.pop().close()  # a watcher leaving tells nobody
        for ws in watchers:
            _nothing_waiting(ws)


def test_n_watchers_joining_cost_n_messages_not_n_squared(
    client: TestClient, create: Any, hub: Hub
) -> None:
    made = create("adventure", [{"kind": "human"}, {"kind": "human"}])
    gid, token = made["game_id"], made["seats"][1]["token"]
    n = 400

    async def join_all() -> tuple[list[Conn], int]:
        live = hub.get(gid)
        conns = [Conn(1000) for _ in range(n)]
        for conn in conns:
            hub.attach(live, conn, None, 0)
        queued = sum(c.queue.qsize() for c in conns)
        seat = Conn(1000)
        hub.attach(live, seat, await hub.authenticate(live, 1, token), 0)
        return conns, queued

    conns, queued = client.portal.call(join_all)  # type: ignore[union-attr]
    assert queued == n  # one snapshot each; the old server sent n*(n-1)/2 more updates
    sizes = []
    for conn in conns:
        assert conn.queue.qsize() == 2  # its snapshot, then one presence for seat 1
        conn.queue.get_nowait()
        message = conn.queue.get_nowait()
        assert isinstance(message, str)
        assert json.loads(message)["type"] == "presence"
        sizes.append(len(message.encode()))
    assert max(sizes) < _SMALL

    async def leave_all() -> int:
        for conn in conns:
            hub.detach(conn)
        return sum(c.queue.qsize() for c in conns)

    assert client.portal.call(leave_all) == 0  # type: ignore[union-attr]
