"""The WebSocket handler `/ws/{game_id}`: hello, act, ping; errors keep the socket open.

A new socket counts against its client's and the server's connection caps (over one: an error
`limit/connections`, then close code 1013 "try again later"). Inbound messages are checked in a
fixed order: size (`message/too_large`), rate per connection and per client across all its
sockets (`message/rate_limited`), UTF-8 and bounded JSON (`web.inputs`: `action/malformed`,
`message/too_deep`, `message/number_too_long`), every string (`text/invalid`, `text/too_long`),
the message's shape (`action/malformed`), then the hub's own checks. Every refusal is a reply and
the socket stays open. Outbound messages go through the connection's queue (see `hub.Conn`),
drained here by a writer task.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.web import inputs, payloads
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.hub import Conn, Hub, LiveGame, encode
from pocketgalaxy.web.limits import LimitError, Limits, TokenBucket, client_address

log = logging.getLogger("pocketgalaxy.web")

_TYPES = ["hello", "act", "ping"]


async def _writer(ws: WebSocket, conn: Conn) -> None:
    while True:
        message = await conn.queue.get()
        if message is None:
            break
        text = message if isinstance(message, str) else encode(message)
        # Never fail a reader on text that cannot be encoded (see inputs.sendable).
        await ws.send_text(inputs.sendable(text))
    with contextlib.suppress(Exception):
        await ws.close(code=1008 if conn.queue.qsize() else 1000)


async def websocket_endpoint(ws: WebSocket, game_id: str) -> None:
    """Serve one WebSocket for one game until the client leaves."""
    hub: Hub = ws.app.state.hub
    limits: Limits = ws.app.state.limits
    address = client_address(ws.scope)
    await ws.accept()
    try:
        limits.open_socket(address)
    except LimitError as exc:
        with contextlib.suppress(Exception):
            await ws.send_text(encode(payloads.error_message(exc)))
            await ws.close(code=1013)  # "try again later"
        return
    try:
        await _serve(ws, hub, limits, address, game_id)
    finally:
        limits.close_socket(address)


async def _serve(ws: WebSocket, hub: Hub, limits: Limits, address: str, game_id: str) -> None:
    settings = hub.settings
    conn = Conn(settings.outbound_queue)
    writer = asyncio.create_task(_writer(ws, conn))
    loop = asyncio.get_running_loop()
    bucket = TokenBucket(settings.rate_per_s, settings.rate_burst, loop.time())
    text_limits = inputs.TextLimits(
        text=settings.max_text_len, name=settings.max_name_len, field=settings.max_field_len)
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
                size = len(raw.encode("utf-8", "surrogatepass"))
            if size > settings.max_message_bytes:
                conn.push(payloads.error_message(WebError(
                    "message/too_large",
                    f"a message may be at most {settings.max_message_bytes} bytes, not {size}")))
                continue
            refusal = _rate_refusal(settings.rate_per_s, bucket.take(loop.time()),
                                    limits, address)
            if refusal is not None:
                conn.push(payloads.error_message(refusal))
                continue
            try:
                text = raw if raw is not None else inputs.decode_utf8(raw_bytes)
                data = inputs.checked_json(text, text_limits)
                await _handle(hub, conn, game_id, data)
            except PocketGalaxyError as exc:
                conn.push(payloads.error_message(exc))
            except Exception:  # a server bug: log it, answer, keep the socket
                log.exception("unexpected error on a WebSocket of game %s", game_id)
                conn.push(payloads.error_message(WebError(
                    "server/error", "the server failed to handle this message; it is logged")))
    except WebSocketDisconnect:
        pass
    finally:
        hub.detach(conn)
        conn.close()
        with contextlib.suppress(Exception):
            await writer


def _rate_refusal(
    rate: float, wait: float, limits: Limits, address: str
) -> WebError | None:
    """`message/rate_limited` when this socket or its client (all sockets) is over its rate."""
    if wait:
        return WebError(
            "message/rate_limited",
            f"at most {rate:g} messages per second on one connection; this one was dropped")
    if limits.take_message(address):
        s = limits.settings
        return WebError(
            "message/rate_limited",
            f"at most {s.client_messages_per_s:g} messages per second from one address across "
            "all its connections; this one was dropped")
    return None


async def _handle(hub: Hub, conn: Conn, game_id: str, data: Any) -> None:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise WebError(
            "action/malformed", "a message is a JSON object with a 'type'", allowed=_TYPES
        )
    kind = data["type"]
    if kind == "ping":
        conn.push({"type": "pong"})
    elif kind == "hello":
        await _hello(hub, conn, game_id, data)
    elif kind == "act":
        live = await _live(hub, conn, game_id)
        if conn.seat is None:
            raise WebError(
                "auth/bad_token", "watchers cannot act: say hello with your seat and its token"
            )
        if "action" not in data or "index" not in data:
            raise WebError("action/malformed", "an act message needs 'action' and 'index'")
        await hub.act(live.id, conn.seat, data["action"], data["index"])
    else:
        raise WebError("action/malformed", f"unknown message type {kind!r}", allowed=_TYPES)


async def _live(hub: Hub, conn: Conn, game_id: str) -> LiveGame:
    if conn.game_id is None:
        raise WebError("protocol/hello_first", "say hello first: {\"type\": \"hello\", ...}")
    return await hub.fetch(game_id)


async def _hello(hub: Hub, conn: Conn, game_id: str, data: dict[str, Any]) -> None:
    unknown = sorted(set(data) - {"type", "seat", "token", "since"})
    if unknown:
        raise WebError(
            "action/malformed", f"unknown field(s) {unknown} in hello",
            allowed=["seat", "token", "since"],
        )
    since = data.get("since", 0)  # absent means 0; null, [] or {} are refused, not read as 0
    if isinstance(since, bool) or not isinstance(since, int) or since < 0:
        raise WebError("action/malformed", "'since' must be an action index (0 or more)")
    # Under the game's lock: never in the middle of a commit, so the snapshot shows stored
    # actions only. If the game was replaced in memory while we waited, take the new one's lock.
    for attempt in range(3):  # replaced again and again: attach to the last one seen
        live = await hub.fetch(game_id)
        async with live.lock:
            current = hub.live.get(game_id)
            if current is not None and current is not live and attempt < 2:
                continue
            seat = await hub.authenticate_locked(live, data.get("seat"), data.get("token"))
            hub.attach(live, conn, seat, min(since, live.index))
            return
