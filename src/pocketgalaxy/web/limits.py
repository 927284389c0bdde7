"""Per-client and server-wide limits: token buckets, socket counts, a bounded table of clients.

A client is its address as the ASGI server reports it (`request.client.host`,
`ws.client.host`; an IPv6 address counts as its /64 network); behind a reverse proxy, uvicorn's
`--proxy-headers` and `--forwarded-allow-ips` decide what that is. Per client: REST requests per
second, games created per hour, open WebSockets, and WebSocket messages per second across all its
sockets. Server-wide: live (unfinished) games and open WebSockets. Every limit is a `Settings`
field; 0 turns a limit off. See docs/web.md ("Limits") for the defaults and what each refusal
looks like.

Memory stays bounded: a client whose buckets have refilled and who has no socket open is dropped
(forgetting it changes nothing), and the table never holds more than `client_table_size` clients.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from fastapi.responses import JSONResponse

from pocketgalaxy.web import payloads
from pocketgalaxy.web.errors import WebError, status_for
from pocketgalaxy.web.settings import Settings

Clock = Callable[[], float]
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

UNKNOWN_CLIENT = "unknown"
_EVICT_PER_CALL = 8  # idle clients dropped per lookup: amortised, never a long pause


class LimitError(WebError):
    """A refusal because a limit is reached; `retry_after` is the whole seconds to wait."""

    def __init__(self, code: str, message: str, retry_after: float) -> None:
        super().__init__(code, message)
        self.retry_after = max(1, math.ceil(retry_after))


class TokenBucket:
    """`rate` tokens per second on average, `burst` at once. `rate <= 0` means no limit."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.capacity = max(1.0, float(burst))
        self.tokens = self.capacity
        self.stamp = now

    def _refill(self, now: float) -> None:
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def wait(self, now: float) -> float:
        """Seconds until a token is available (0: one is available now)."""
        if self.rate <= 0:
            return 0.0
        self._refill(now)
        return 0.0 if self.tokens >= 1.0 else (1.0 - self.tokens) / self.rate

    def take(self, now: float) -> float:
        """Take a token and return 0, or take nothing and return the seconds to wait."""
        wait = self.wait(now)
        if wait == 0.0 and self.rate > 0:
            self.tokens -= 1.0
        return wait

    def is_full(self, now: float) -> bool:
        if self.rate <= 0:
            return True
        self._refill(now)
        return self.tokens >= self.capacity


@dataclass
class ClientState:
    """What the server remembers about one client address."""

    requests: TokenBucket
    games: TokenBucket
    messages: TokenBucket
    sockets: int = 0

    def at_rest(self, now: float) -> bool:
        """Nothing to remember: no socket open and every bucket full again."""
        return self.sockets == 0 and all(
            b.is_full(now) for b in (self.requests, self.games, self.messages))


@dataclass
class Limits:
    """The limits of one server process (one per app, in `app.state.limits`)."""

    settings: Settings
    clock: Clock = time.monotonic
    clients: OrderedDict[str, ClientState] = field(default_factory=OrderedDict)
    sockets: int = 0

    # -- the table of clients ------------------------------------------------------------------
    def client(self, address: str) -> ClientState:
        """The client's state, created on first sight; idle clients are dropped meanwhile."""
        now = self.clock()
        state = self.clients.get(address)
        if state is None:
            s = self.settings
            state = ClientState(
                requests=TokenBucket(s.client_requests_per_s, s.client_requests_burst, now),
                games=TokenBucket(s.client_games_per_hour / 3600, s.client_games_per_hour, now),
                messages=TokenBucket(s.client_messages_per_s, s.client_messages_burst, now),
            )
            self.clients[address] = state
        self.clients.move_to_end(address)
        self._evict(now, keep=address)
        return state

    def _evict(self, now: float, keep: str) -> None:
        for _ in range(_EVICT_PER_CALL):
            oldest = next(iter(self.clients))
            if oldest == keep or not self.clients[oldest].at_rest(now):
                break
            del self.clients[oldest]
        limit = max(1, self.settings.client_table_size)
        if len(self.clients) > limit:
            # Full of busy clients: forget the least recently seen without an open socket
            # (it starts afresh if it comes back; the socket caps are never forgotten).
            for address in list(self.clients):
                if len(self.clients) <= limit:
                    break
                if address != keep and self.clients[address].sockets == 0:
                    del self.clients[address]

    # -- REST ------------------------------------------------------------------------------------
    def take_request(self, address: str) -> None:
        """One REST request; raises `request/rate_limited` (429) over the client's rate."""
        wait = self.client(address).requests.take(self.clock())
        if wait:
            s = self.settings
            raise LimitError(
                "request/rate_limited",
                f"at most {s.client_requests_per_s:g} requests per second from one address "
                f"(bursts of {s.client_requests_burst}); try again in {math.ceil(wait)} s",
                wait,
            )

    def check_new_game(self, address: str, live_games: int) -> None:
        """Before creating a game: the client's hourly allowance and the server's live games."""
        s = self.settings
        if s.max_live_games and live_games >= s.max_live_games:
            raise LimitError(
                "limit/live_games",
                f"the server is running its maximum of {s.max_live_games} games; "
                "try again when some have finished",
                60,
            )
        wait = self.client(address).games.wait(self.clock())
        if wait:
            raise LimitError(
                "limit/games_per_hour",
                f"one address may create at most {s.client_games_per_hour} games per hour; "
                f"the next one in {math.ceil(wait)} s",
                wait,
            )

    def game_created(self, address: str) -> None:
        """Count a game that was created (refused attempts cost nothing)."""
        self.client(address).games.take(self.clock())

    # -- WebSockets ------------------------------------------------------------------------------
    def open_socket(self, address: str) -> None:
        """Count a new socket, or raise `limit/connections` (no count taken then)."""
        s = self.settings
        if s.max_connections and self.sockets >= s.max_connections:
            raise LimitError(
                "limit/connections",
                f"the server has its maximum of {s.max_connections} connections open; "
                "try again later",
                30,
            )
        state = self.client(address)
        if s.client_sockets and state.sockets >= s.client_sockets:
            raise LimitError(
                "limit/connections",
                f"one address may hold at most {s.client_sockets} connections open; "
                "close one (another tab?) and try again",
                30,
            )
        state.sockets += 1
        self.sockets += 1

    def close_socket(self, address: str) -> None:
        state = self.clients.get(address)
        if state is not None and state.sockets > 0:
            state.sockets -= 1
        self.sockets = max(0, self.sockets - 1)

    def take_message(self, address: str) -> float:
        """One WebSocket message of this client (any of its sockets): 0, or seconds to wait."""
        return self.client(address).messages.take(self.clock())


def client_address(scope: Scope) -> str:
    """The client as the limits count it: its IPv4 address, or its IPv6 /64 network.

    One IPv6 subscriber usually holds a whole /64, so counting single IPv6 addresses would let
    one client rotate through billions of them.
    """
    client = scope.get("client")
    if not client or not client[0]:
        return UNKNOWN_CLIENT
    host = str(client[0])
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host  # not an IP (a test client, a Unix socket): counted as it is
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class RequestLimit:
    """ASGI middleware: every `/api/` request takes a token of its client's request bucket."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and str(scope.get("path", "")).startswith("/api/"):
            try:
                self.limits.take_request(client_address(scope))
            except LimitError as exc:
                await limit_response(exc)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def limit_response(exc: LimitError) -> JSONResponse:
    """The JSON refusal of a limit, with `Retry-After` (429, or 503 for server-wide caps)."""
    return JSONResponse(
        payloads.error_body(exc), status_code=status_for(exc.code),
        headers={"Retry-After": str(exc.retry_after)},
    )
