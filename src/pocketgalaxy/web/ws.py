"""The WebSocket handler `/ws/{game_id}`: hello, act, ping; errors keep the socket open.

Inbound messages are checked in a fixed order: size (`message/too_large`), rate
(`message/rate_limited`), JSON shape (`action/malformed`), then the hub's own checks. Outbound
messages go through the connection's queue (see `hub.Conn`), drained here by a writer task.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.web import payloads
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.hub import Conn, Hub, LiveGame, encode

_TYPES = ["hello", "act", "ping"]


class TokenBucket:
    """`rate` messages per second on average, `burst` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.capacity = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


async def _writer(ws: WebSocket, conn: Conn) -> None:
    while True:
        message = await conn.queue.get()
        if message is None:
            break
        await ws.send_text(message if isinstance(message, str) else encode(message))
    with contextlib.suppress(Exception):
        await ws.close(code=1008 if conn.queue.qsize() else 1000)


async def websocket_endpoint(ws: WebSocket, game_id: str) -> None:
    """Serve one WebSocket for one game until the client leaves."""
    hub: Hub = ws.app.state.hub
    settings = hub.settings
    await ws.accept()
    conn = Conn(settings.outbound_queue)
    writer = asyncio.create_task(_writer(ws, conn))
    bucket = TokenBucket(settings.rate_per_s, settings.rate_burst)
    try:
        while not conn.closed:
            timeout = settings.hello_timeout_s if conn.game_id is None else None
            try:
                message = await asyncio.wait_for(ws.receive(), timeout)
            except TimeoutError:
                conn.push(payloads.error_message(
                    WebError("protocol/hello_timeout", "no hello received; closing")))
                break
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                raw_bytes = message.get("bytes") or b""
                size = len(raw_bytes)
            else:
                size = len(raw.encode("utf-8"))
            if size > settings.max_message_bytes:
                conn.push(payloads.error_message(WebError(
                    "message/too_large",
                    f"a message may be at most {settings.max_message_bytes} bytes, not {size}")))
                continue
            if not bucket.take():
                conn.push(payloads.error_message(WebError(
                    "message/rate_limited",
                    f"at most {settings.rate_per_s:g} messages per second; this one was dropped")))
                continue
            try:
                text = raw if raw is not None else raw_bytes.decode("utf-8")
                await _handle(hub, conn, game_id, text)
            except PocketGalaxyError as exc:
                conn.push(payloads.error_message(exc))
            except UnicodeDecodeError:
                conn.push(payloads.error_message(
                    WebError("action/malformed", "messages must be UTF-8 JSON text")))
    except WebSocketDisconnect:
        pass
    finally:
        hub.detach(conn)
        conn.close()
        with contextlib.suppress(Exception):
            await writer


async def _handle(hub: Hub, conn: Conn, game_id: str, text: str) -> None:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise WebError(
            "action/malformed", f"message is not JSON: {exc.msg}", allowed=_TYPES
        ) from exc
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise WebError(
            "action/malformed", "a message is a JSON object with a 'type'", allowed=_TYPES
        )
    kind = data["type"]
    if kind == "ping":
        conn.push({"type": "pong"})
    elif kind == "hello":
        _hello(hub, conn, game_id, data)
    elif kind == "act":
        live = _live(hub, conn, game_id)
        if conn.seat is None:
            raise WebError(
                "auth/bad_token", "watchers cannot act: say hello with your seat and its token"
            )
        if "action" not in data or "index" not in data:
            raise WebError("action/malformed", "an act message needs 'action' and 'index'")
        await hub.act(live.id, conn.seat, data["action"], data["index"])
    else:
        raise WebError("action/malformed", f"unknown message type {kind!r}", allowed=_TYPES)


def _live(hub: Hub, conn: Conn, game_id: str) -> LiveGame:
    if conn.game_id is None:
        raise WebError("protocol/hello_first", "say hello first: {\"type\": \"hello\", ...}")
    return hub.get(game_id)


def _hello(hub: Hub, conn: Conn, game_id: str, data: dict[str, Any]) -> None:
    unknown = sorted(set(data) - {"type", "seat", "token", "since"})
    if unknown:
        raise WebError(
            "action/malformed", f"unknown field(s) {unknown} in hello",
            allowed=["seat", "token", "since"],
        )
    live = hub.get(game_id)
    since = data.get("since") or 0
    if isinstance(since, bool) or not isinstance(since, int) or since < 0:
        raise WebError("action/malformed", "'since' must be an action index (0 or more)")
    seat = hub.authenticate(live, data.get("seat"), data.get("token"))
    hub.attach(live, conn, seat, min(since, live.index))
