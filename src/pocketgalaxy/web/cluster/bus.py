"""The nudges between workers: Redis pub/sub, one channel per shard of the games.

After a worker COMMITs a change to a game it publishes a small JSON nudge
`{"game": id, "index": n, "kind": "action" | "seats" | "status", "worker": its id}`. The nudge
of an action also carries that committed action row (`"move": {"at", "seat", "action", "by"}`,
the same values as the stored row): a worker whose copy of the game stands at `at` applies it
at once, without reading the store. Any other case (a gap, a seat or status change, a busy game)
is read from the store (the log is the truth), so a lost, late or repeated nudge only delays or
repeats a cheap read, never shows a wrong game.

A game's nudges go on the channel of its shard, `pocketgalaxy:games:<n>`, n = crc32(game id) mod
SHARDS (a stable hash: the same in every process, whatever its hash salt), and a worker listens
only to the shards of the games it holds in memory. Before 2026-12-02 there was one channel for
every game, so every worker read and parsed every game's nudge, even placed by game where two
workers of three hold no copy: the listener was about a quarter of a worker's Python time.
No window in which a newly held game's nudges are missed: a worker subscribes to a game's shard
and waits for Redis to confirm it (`hold`) BEFORE it reads the game from the store, so a commit
after that read is nudged to it; anything committed before is in what it read. Shards of games
no longer held are left at the tick (`keep`). The old single channel is still listened to (a
worker of an older version publishes there) and keeps the subscription open when no game is held.

Publishing never blocks the caller: nudges wait in a queue drained by one task, in order; the
nudges queued while a round trip was under way go in the next one together (a pipeline, no
MULTI: a publish one by one cost the worker about four times the CPU of one in a batch).
Both sides reconnect by themselves after a Redis outage (every wanted shard is subscribed again);
the store check (web/cluster/node.py) heals whatever was missed meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import zlib
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import orjson

from pocketgalaxy.web.live import encode

log = logging.getLogger("pocketgalaxy.web.cluster")

CHANNEL = "pocketgalaxy:games"  # the one channel of older versions; also the shards' prefix
SHARDS = 1024  # channels the games are spread over; a worker subscribes to those of its games
SUBSCRIBE_WAIT_S = 2.0  # longest `hold` waits for Redis to confirm (past it: the check heals)
SUBSCRIBE_CHUNK = 256  # shards asked for in one SUBSCRIBE
KEEP_S = 30.0  # a shard asked for by `hold` is kept at least this long (its game being loaded)
MAX_NUDGE_BYTES = 65_536  # a nudge with its action row; anything longer is not ours and ignored
QUEUE_LIMIT = 10_000  # nudges waiting to be published; past it they are dropped (the check heals)
BATCH_LIMIT = 200  # queued nudges published in one pipelined round trip
RETRY_S = 0.5  # pause before reconnecting after a Redis error
STOP_WAIT_S = 2.0  # longest a stop waits for the loops

Handler = Callable[[dict[str, Any]], Awaitable[None] | None]


def channel(game_id: str) -> str:
    """The channel of a game's nudges: its shard's (crc32: stable across processes)."""
    return f"{CHANNEL}:{zlib.crc32(game_id.encode()) % SHARDS}"


class Bus:
    """Publish nudges and hand received ones (from other workers) to `handler`."""

    def __init__(self, redis: Any, worker_id: str, handler: Handler) -> None:
        self.redis = redis
        self.worker_id = worker_id
        self.handler = handler
        # (channel, nudge text); None: stop
        self.outbox: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []
        self.subscribed = asyncio.Event()
        self.wanted: set[str] = set()  # the shards' channels of the games held here
        self.confirmed: set[str] = set()  # those Redis confirmed on the current connection
        self.waiting: dict[str, asyncio.Future[None]] = {}  # channel -> its confirmation
        self.pubsub: Any | None = None  # the current subscription (None: being reconnected)
        self.held_at: dict[str, float] = {}  # channel -> monotonic time of its last `hold`
        self.dropped = 0  # nudges not published (queue full); counted for the logs and tests
        self.batches = 0  # round trips that published more than one nudge (tests)
        self.stopping = False

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self._publish_loop()),
                      asyncio.create_task(self._listen_loop())]

    async def stop(self) -> None:
        """Stop both loops. They also stop by themselves on the flag: a cancellation that
        redis-py swallows inside a call must not leave a loop (and so the stop) waiting."""
        self.stopping = True
        self.outbox.put_nowait(None)
        for task in self.tasks:
            task.cancel()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=STOP_WAIT_S)
        self.tasks = []

    def publish(self, game_id: str, index: int, kind: str,
                move: dict[str, Any] | None = None) -> None:
        """Queue a nudge (never waits; the game's lock may be held). `move`: the committed
        action row of an "action" nudge, for the receivers to apply without a store read."""
        if self.outbox.qsize() >= QUEUE_LIMIT:
            self.dropped += 1
            return
        nudge: dict[str, Any] = {"game": game_id, "index": index, "kind": kind,
                                 "worker": self.worker_id}
        if move is not None:
            nudge["move"] = move
        self.outbox.put_nowait((channel(game_id), encode(nudge)))

    async def _publish_loop(self) -> None:
        while not self.stopping:
            batch = self._take_batch(await self.outbox.get())
            while batch and not self.stopping:
                try:
                    await self._send(batch)
                    break
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # Redis away: wait and retry these same nudges
                    log.warning("could not publish to Redis (%s); retrying", exc)
                    await asyncio.sleep(RETRY_S)

    def _take_batch(self, first: tuple[str, str] | None) -> list[tuple[str, str]]:
        """The first nudge and those queued behind it (at most BATCH_LIMIT), in order; a None
        (put by `stop`, which also sets the flag) ends the batch."""
        batch: list[tuple[str, str]] = []
        message = first
        while message is not None:
            batch.append(message)
            if len(batch) >= BATCH_LIMIT or self.outbox.empty():
                return batch
            message = self.outbox.get_nowait()
        return batch

    async def _send(self, batch: list[tuple[str, str]]) -> None:
        """One round trip for the whole batch: a pipeline (no MULTI) keeps their order. A
        retried batch may publish some nudges twice, which the receivers ignore (index)."""
        if len(batch) == 1:
            await self.redis.publish(*batch[0])
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for name, message in batch:
                pipe.publish(name, message)
            await pipe.execute()
        self.batches += 1

    # -- listening ------------------------------------------------------------------------
    async def hold(self, game_ids: Iterable[str]) -> None:
        """Listen to these games' shards, and wait (at most SUBSCRIBE_WAIT_S) until Redis has
        confirmed each: called before a game is read from the store, so that no commit after
        the read goes unheard. Redis away: the shards are wanted and subscribed on reconnecting,
        and this returns after the wait (the store check heals what comes meanwhile)."""
        wanted = {channel(g) for g in game_ids}
        now = time.monotonic()
        for name in wanted:
            self.held_at[name] = now
        new = sorted(wanted - self.wanted)  # sorted: the same requests in every process
        self.wanted.update(new)
        if new and self.pubsub is not None:
            with contextlib.suppress(Exception):  # the listener resubscribes on its error
                await self._subscribe(self.pubsub, new)
        pending = [self._confirmation(c) for c in sorted(wanted) if c not in self.confirmed]
        if pending:
            await asyncio.wait(pending, timeout=SUBSCRIBE_WAIT_S)

    def holding(self, game_id: str) -> bool:
        """Is this game's shard listened to (or asked for)?"""
        return channel(game_id) in self.wanted

    async def keep(self, game_ids: Iterable[str]) -> None:
        """Leave the shards that none of these games (those held now) maps to, unless a
        `hold` asked for them within KEEP_S (a game being loaded is not held yet)."""
        needed = {channel(g) for g in game_ids}
        now = time.monotonic()
        self.held_at = {c: t for c, t in self.held_at.items() if now - t < KEEP_S}
        extra = sorted(self.wanted - needed - set(self.held_at))
        if not extra:
            return
        self.wanted.difference_update(extra)
        self.confirmed.difference_update(extra)
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                for start in range(0, len(extra), SUBSCRIBE_CHUNK):
                    await self.pubsub.unsubscribe(*extra[start:start + SUBSCRIBE_CHUNK])

    def _confirmation(self, name: str) -> asyncio.Future[None]:
        future = self.waiting.get(name)
        if future is None or future.done():
            future = self.waiting[name] = asyncio.get_running_loop().create_future()
        return future

    async def _subscribe(self, pubsub: Any, names: list[str]) -> None:
        for start in range(0, len(names), SUBSCRIBE_CHUNK):
            await pubsub.subscribe(*names[start:start + SUBSCRIBE_CHUNK])

    def _confirmed(self, name: Any) -> None:
        text = name.decode() if isinstance(name, bytes) else str(name)
        if text in self.wanted:
            self.confirmed.add(text)
        future = self.waiting.pop(text, None)
        if future is not None and not future.done():
            future.set_result(None)

    async def _listen_loop(self) -> None:
        while not self.stopping:
            pubsub = self.redis.pubsub()
            try:
                self.confirmed = set()
                await pubsub.subscribe(CHANNEL)
                self.pubsub = pubsub
                await self._subscribe(pubsub, sorted(self.wanted))
                self.subscribed.set()
                while not self.stopping:
                    # Blocking: a read with a time-out costs an asyncio timeout per nudge;
                    # `stop` cancels this wait.
                    message = await pubsub.get_message(timeout=None)
                    if message is None:
                        continue
                    kind = message.get("type")
                    if kind == "message":
                        await self._deliver(message.get("data"))
                    elif kind == "subscribe":
                        self._confirmed(message.get("channel"))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.subscribed.clear()
                log.warning("lost the Redis subscription (%s); resubscribing", exc)
                await asyncio.sleep(RETRY_S)
            finally:
                self.pubsub = None
                self.confirmed = set()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    async def _deliver(self, data: Any) -> None:
        nudge = parse(data)
        if nudge is None or nudge["worker"] == self.worker_id:
            return  # not ours to read, or our own (already shown here)
        try:
            result = self.handler(nudge)
            if result is not None:
                await result
        except Exception:
            log.exception("a nudge for game %s could not be handled", nudge["game"])


def parse(data: Any) -> dict[str, Any] | None:
    """A received nudge, or None when it is not one (anything else on the channel is ignored)."""
    if not isinstance(data, (bytes, str)) or len(data) > MAX_NUDGE_BYTES:
        return None
    try:
        nudge = orjson.loads(data)  # bytes as they come from Redis; bad UTF-8 is refused too
    except ValueError:  # orjson.JSONDecodeError is a ValueError
        return None
    if not isinstance(nudge, dict):
        return None
    game, index, kind, worker = (nudge.get(k) for k in ("game", "index", "kind", "worker"))
    if not (isinstance(game, str) and 1 <= len(game) <= 32 and isinstance(kind, str)
            and isinstance(worker, str) and isinstance(index, int)
            and not isinstance(index, bool)):
        return None
    if "move" in nudge and _move(nudge["move"]) is None:
        del nudge["move"]  # unreadable: the receiver reads the store instead
    return nudge


def _move(move: Any) -> dict[str, Any] | None:
    """The action row a nudge carries, checked for shape (the rules check the action itself)."""
    if not isinstance(move, dict):
        return None
    at, seat, action, by = (move.get(k) for k in ("at", "seat", "action", "by"))
    if not (isinstance(at, int) and not isinstance(at, bool) and at >= 0
            and isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0
            and isinstance(action, dict) and isinstance(by, str)):
        return None
    return move
