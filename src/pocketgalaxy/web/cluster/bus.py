"""The nudges between workers: one Redis pub/sub channel, `pocketgalaxy:games`.

After a worker COMMITs a change to a game it publishes a small JSON nudge
`{"game": id, "index": n, "kind": "action" | "seats" | "status", "worker": its id}`. The nudge
of an action also carries that committed action row (`"move": {"at", "seat", "action", "by"}`,
the same values as the stored row): a worker whose copy of the game stands at `at` applies it
at once, without reading the store. Any other case (a gap, a seat or status change, a busy game)
is read from the store (the log is the truth), so a lost, late or repeated nudge only delays or
repeats a cheap read, never shows a wrong game.

One channel for every game rather than one per game: a worker never has to subscribe and
unsubscribe as games come and go (no window where a fresh game's nudges are missed), and each
worker simply drops the nudges of games it does not hold. The cost is that every worker reads
every nudge: about 100 bytes each, a few thousand a second at most at this project's scale.

Publishing never blocks the caller: nudges wait in a queue drained by one task, in order; the
nudges queued while a round trip was under way go in the next one together (a pipeline, no
MULTI: a publish one by one cost the worker about four times the CPU of one in a batch).
Both sides reconnect by themselves after a Redis outage; the store check (web/cluster/node.py)
heals whatever was missed meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from pocketgalaxy.web.live import encode

log = logging.getLogger("pocketgalaxy.web.cluster")

CHANNEL = "pocketgalaxy:games"
MAX_NUDGE_BYTES = 65_536  # a nudge with its action row; anything longer is not ours and ignored
QUEUE_LIMIT = 10_000  # nudges waiting to be published; past it they are dropped (the check heals)
BATCH_LIMIT = 200  # queued nudges published in one pipelined round trip
RETRY_S = 0.5  # pause before reconnecting after a Redis error
STOP_WAIT_S = 2.0  # longest a stop waits for the loops

Handler = Callable[[dict[str, Any]], Awaitable[None] | None]


class Bus:
    """Publish nudges and hand received ones (from other workers) to `handler`."""

    def __init__(self, redis: Any, worker_id: str, handler: Handler) -> None:
        self.redis = redis
        self.worker_id = worker_id
        self.handler = handler
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()  # None: stop
        self.tasks: list[asyncio.Task[None]] = []
        self.subscribed = asyncio.Event()
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
        self.outbox.put_nowait(encode(nudge))

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

    def _take_batch(self, first: str | None) -> list[str]:
        """The first nudge and those queued behind it (at most BATCH_LIMIT), in order; a None
        (put by `stop`, which also sets the flag) ends the batch."""
        batch: list[str] = []
        message = first
        while message is not None:
            batch.append(message)
            if len(batch) >= BATCH_LIMIT or self.outbox.empty():
                return batch
            message = self.outbox.get_nowait()
        return batch

    async def _send(self, batch: list[str]) -> None:
        """One round trip for the whole batch: a pipeline (no MULTI) keeps their order. A
        retried batch may publish some nudges twice, which the receivers ignore (index)."""
        if len(batch) == 1:
            await self.redis.publish(CHANNEL, batch[0])
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for message in batch:
                pipe.publish(CHANNEL, message)
            await pipe.execute()
        self.batches += 1

    async def _listen_loop(self) -> None:
        while not self.stopping:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                self.subscribed.set()
                while not self.stopping:
                    # Blocking: a read with a time-out costs an asyncio timeout per nudge
                    # (every worker reads every nudge); `stop` cancels this wait.
                    message = await pubsub.get_message(timeout=None)
                    if message is not None:
                        await self._deliver(message.get("data"))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.subscribed.clear()
                log.warning("lost the Redis subscription (%s); resubscribing", exc)
                await asyncio.sleep(RETRY_S)
            finally:
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
