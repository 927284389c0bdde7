"""The load benches' client for several workers (bench/load_cluster.py): one process, asyncio.

`Load` creates Adventure games across the workers' URLs, opens one WebSocket per seat and per
watcher (placed `spread` across workers or all on the `game`'s creating worker; no client
pings: 2,000 sockets pinging every 20 s cost the client and the workers CPU that is not the
table's, and the server still pings), and plays both seats with random legal moves, at a
person's pace (0.5 to 2 s, seeded) or at once, on uvloop, reading each message's bytes as they
come (no decode to str) and writing its own with orjson; `Stats` collects the act -> update
latencies on the actor's, the other seat's and the watchers' sockets. `LoopLag` measures how
late the client's own event loop runs.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
import orjson
import uvloop
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

T = TypeVar("T")

THINK_S = (0.5, 2.0)


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run the client on uvloop, as uvicorn runs the workers: the client shares the 2 cores
    with them, so every microsecond it spends per message is taken from the table."""
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def _dumps(message: dict[str, Any]) -> bytes:
    return orjson.dumps(message)


async def _messages(ws: ClientConnection) -> AsyncIterator[bytes]:
    """The socket's messages as they came (bytes, not decoded to str: orjson reads the bytes)
    until it closes."""
    while True:
        try:
            yield await ws.recv(decode=False)
        except ConnectionClosed:
            return


@dataclass
class Stats:
    own: list[float] = field(default_factory=list)  # act -> update on the actor's socket
    other: list[float] = field(default_factory=list)  # ... on the other seat's
    watch: list[float] = field(default_factory=list)  # ... on the watchers' sockets
    actions: int = 0
    finished: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    measuring: bool = False

    def reset(self) -> None:
        self.own.clear()
        self.other.clear()
        self.watch.clear()
        self.actions = 0
        self.finished = 0
        self.refused.clear()


class Table:
    """One live game: two people's sockets and its watchers', and when each move was sent."""

    def __init__(self, made: dict[str, Any], seat_urls: list[str], watch_urls: list[str],
                 rng: random.Random, stats: Stats) -> None:
        self.id = made["game_id"]
        self.tokens = {s["seat"]: s["token"] for s in made["seats"]}
        self.seat_urls, self.watch_urls = seat_urls, watch_urls
        self.rng, self.stats = rng, stats
        self.latest: dict[int, dict[str, Any]] = {}
        self.changed = asyncio.Event()
        self.sent_at: dict[int, float] = {}  # action index -> when its act was sent
        self.socks: list[ClientConnection] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.ready = 0

    async def open(self) -> None:
        for seat, base in enumerate(self.seat_urls):
            ws = await connect(f"{base}/ws/{self.id}", max_size=2**22, compression=None,
                               open_timeout=60, ping_interval=None)
            self.socks.append(ws)
            await ws.send(_dumps({"type": "hello", "seat": seat, "token": self.tokens[seat],
                                  "since": 0}), text=True)
            self.tasks.append(asyncio.create_task(self._seat_reader(seat, ws)))
        for base in self.watch_urls:
            ws = await connect(f"{base}/ws/{self.id}", max_size=2**22, compression=None,
                               open_timeout=60, ping_interval=None)
            self.socks.append(ws)
            await ws.send(_dumps({"type": "hello", "seat": None, "since": 0}), text=True)
            self.tasks.append(asyncio.create_task(self._watch_reader(ws)))

    def _latency(self, msg: dict[str, Any], into: list[float]) -> None:
        if msg["type"] == "update" and self.stats.measuring:
            start = self.sent_at.get(msg["index"] - 1)
            if start is not None:
                into.append(time.perf_counter() - start)

    async def _seat_reader(self, seat: int, ws: ClientConnection) -> None:
        mover = None
        async for raw in _messages(ws):
            msg = orjson.loads(raw)
            kind = msg["type"]
            if kind == "error":
                code = msg["error"]["code"]
                self.stats.refused[code] = self.stats.refused.get(code, 0) + 1
                self.latest[seat] = {**self.latest.get(seat, {}), "retry": True}
            elif kind in ("snapshot", "update"):
                if kind == "snapshot" and seat not in self.latest:
                    self.ready += 1
                mover = self.latest.get(seat, {}).get("legal")
                self._latency(msg, self.stats.own if mover else self.stats.other)
                self.latest[seat] = msg
            else:
                continue
            self.changed.set()

    async def _watch_reader(self, ws: ClientConnection) -> None:
        seen = False
        async for raw in _messages(ws):
            msg = orjson.loads(raw)
            if msg["type"] == "snapshot" and not seen:
                seen = True
                self.ready += 1
            self._latency(msg, self.stats.watch) if msg["type"] == "update" else None

    async def play(self, think: bool, until: float) -> bool:
        """Play both seats until the game ends (True) or `until` (False)."""
        while time.monotonic() < until:
            try:
                async with asyncio.timeout(max(0.01, until - time.monotonic())):  # no extra task
                    await self.changed.wait()
            except TimeoutError:
                return False
            self.changed.clear()
            if any(m.get("status") == "over" for m in self.latest.values()):
                return True
            index = max(m.get("index", 0) for m in self.latest.values())
            for seat, msg in list(self.latest.items()):
                if msg.get("legal") and msg.get("index") == index and index not in self.sent_at:
                    if think:
                        await asyncio.sleep(self.rng.uniform(*THINK_S))
                    elif msg.get("retry"):
                        await asyncio.sleep(0.05)
                    action = self.rng.choice(msg["legal"])
                    self.sent_at[index] = time.perf_counter()
                    self.sent_at.pop(index - 3, None)  # keep only the latest few
                    await self.socks[seat].send(_dumps(
                        {"type": "act", "action": action, "index": index}), text=True)
                    if self.stats.measuring:
                        self.stats.actions += 1
                    break
        return False

    async def close(self) -> None:
        for ws in self.socks:
            await ws.close()
        for task in self.tasks:
            task.cancel()


class Load:
    """Create games across the workers, open their sockets, and keep them playing."""

    def __init__(self, urls: list[str], games: int, watched: int, watchers: int, seed: int,
                 think: bool, placement: str = "spread") -> None:
        self.urls, self.games, self.watched, self.watchers = urls, games, watched, watchers
        self.placement = placement
        self.rng = random.Random(seed)
        self.think = think
        self.stats = Stats()
        self.tables: list[Table] = []
        self.made = 0
        self.http: list[httpx.AsyncClient] = []

    def _ws(self, i: int) -> str:
        return self.urls[i % len(self.urls)].replace("http", "ws", 1)

    async def new_table(self, slot: int) -> Table:
        n = len(self.urls)
        g = self.made
        self.made += 1
        body = {"game": "adventure", "players": 2,
                "seats": [{"kind": "human"}, {"kind": "human"}],
                "takeover_after_s": None, "turn_clock_s": None}
        for attempt in range(3):
            try:
                res = await self.http[g % n].post("/api/games", json=body)
                break
            except httpx.TransportError:  # a kept-alive connection the server had just closed
                if attempt == 2:
                    raise
        res.raise_for_status()
        # "spread": seat 0 on the creating worker, seat 1 on the next one, watchers on the one
        # after (every move crosses workers); "game": every socket of the game on the creating
        # worker, as a proxy that picks the worker by the game id in the path would do.
        step = 1 if self.placement == "spread" else 0
        seats = [self._ws(g), self._ws(g + step)]
        watch = ([self._ws(g + 2 * step) for _ in range(self.watchers)]
                 if slot < self.watched else [])
        table = Table(res.json(), seats, watch, random.Random(self.rng.random()), self.stats)
        await table.open()
        return table

    async def _slot(self, slot: int, until: float) -> None:
        table = self.tables[slot]
        while time.monotonic() < until:
            if await table.play(self.think, until):
                if self.stats.measuring:
                    self.stats.finished += 1
                await table.close()
                table = self.tables[slot] = await self.new_table(slot)

    async def setup(self) -> None:
        # Idle connections are dropped before uvicorn's own 5 s keep-alive would close them.
        self.http = [httpx.AsyncClient(base_url=u, timeout=60,
                                       limits=httpx.Limits(keepalive_expiry=2.0))
                     for u in self.urls]
        sem = asyncio.Semaphore(50)  # open games 50 at a time: a start-up burst, not a storm

        async def one(slot: int) -> Table:
            async with sem:
                return await self.new_table(slot)

        self.tables = list(await asyncio.gather(*(one(s) for s in range(self.games))))
        deadline = time.monotonic() + 120
        wanted = 2 + self.watchers
        while any(t.ready < (wanted if i < self.watched else 2) for i, t in enumerate(self.tables)):
            if time.monotonic() > deadline:
                raise SystemExit("not every socket got its snapshot within 120 s")
            await asyncio.sleep(0.1)

    async def run(self, warmup: float, seconds: float, on_measure: Any, on_end: Any) -> float:
        start = time.monotonic()
        until = start + warmup + seconds
        slots = [asyncio.create_task(self._slot(s, until)) for s in range(self.games)]
        await asyncio.sleep(warmup)
        on_measure()
        self.stats.measuring = True
        t0 = time.perf_counter()
        await asyncio.gather(*slots)
        elapsed = time.perf_counter() - t0
        self.stats.measuring = False
        on_end()
        return elapsed

    async def close(self) -> None:
        for t in self.tables:
            await t.close()
        for c in self.http:
            await c.aclose()


class LoopLag:
    """How late the client's own event loop wakes up: if it is late, latencies are inflated."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.1)
            self.lags.append(time.perf_counter() - t - 0.1)

    def start(self) -> None:
        self.task = asyncio.create_task(self._tick())

    def stop(self) -> None:
        if self.task:
            self.task.cancel()
