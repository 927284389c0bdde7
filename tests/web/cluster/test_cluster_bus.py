"""The bus's publishing (web/cluster/bus.py): nudges queued while a round trip is under way go
out together in one pipelined round trip, in order, each once; a failed batch is sent again
whole, in the same order."""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import Any

import orjson
from loopkit import run_on_own_loop

from pocketgalaxy.web.cluster import bus


def test_nudges_queued_together_reach_another_worker_in_order_once_each(redis_url: str) -> None:
    import redis.asyncio as aioredis

    n = 300  # more than one batch (bus.BATCH_LIMIT)

    async def scenario() -> tuple[list[int], int, int]:
        got: list[int] = []
        done = asyncio.Event()

        def on_nudge(nudge: dict[str, Any]) -> None:
            got.append(nudge["index"])
            if len(got) == n:
                done.set()

        sender_redis = aioredis.Redis.from_url(redis_url)
        receiver_redis = aioredis.Redis.from_url(redis_url)
        sender = bus.Bus(sender_redis, "w1", lambda nudge: None)
        receiver = bus.Bus(receiver_redis, "w2", on_nudge)
        try:
            receiver.start()
            await asyncio.wait_for(receiver.subscribed.wait(), 5)
            await receiver.hold(["g1"])  # g1's shard, confirmed by Redis
            sender.start()
            for i in range(n):  # no await between: all queued before the first round trip
                sender.publish("g1", i + 1, "action", {"at": i, "seat": 0,
                                                       "action": {"type": "Pass"}, "by": "person"})
            await asyncio.wait_for(done.wait(), 10)
            await asyncio.sleep(0.2)  # anything sent twice would have come by now
            return got, sender.batches, sender.outbox.qsize()
        finally:
            await sender.stop()
            await receiver.stop()
            await sender_redis.aclose()
            await receiver_redis.aclose()

    got, batches, left = run_on_own_loop(scenario())
    assert got == list(range(1, n + 1))
    assert batches >= 2  # n nudges in batches of at most BATCH_LIMIT, not n round trips
    assert left == 0


class _FailingOnce:
    """A Redis stand-in whose first pipelined round trip fails (Redis away for a moment)."""

    def __init__(self) -> None:
        self.sent: list[list[str]] = []
        self.failures = 1
        self.singles: list[str] = []

    def pipeline(self, transaction: bool = True) -> _Pipe:
        assert transaction is False  # order kept without MULTI
        return _Pipe(self)

    async def publish(self, channel: str, message: str) -> int:
        assert channel == bus.channel("g1")
        self.singles.append(message)
        return 1


class _Pipe:
    def __init__(self, owner: _FailingOnce) -> None:
        self.owner = owner
        self.queued: list[str] = []

    async def __aenter__(self) -> _Pipe:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        return None

    def publish(self, channel: str, message: str) -> None:
        assert channel == bus.channel("g1")
        self.queued.append(message)

    async def execute(self) -> list[int]:
        if self.owner.failures:
            self.owner.failures -= 1
            raise ConnectionError("Redis went away")
        self.owner.sent.append(list(self.queued))
        return [1] * len(self.queued)


def test_a_failed_batch_is_sent_again_whole_and_in_order(monkeypatch: Any) -> None:
    monkeypatch.setattr(bus, "RETRY_S", 0.01)
    fake = _FailingOnce()

    async def scenario() -> None:
        sender = bus.Bus(fake, "w1", lambda nudge: None)
        sender.tasks = [asyncio.create_task(sender._publish_loop())]  # no listener here
        for i in range(5):
            sender.publish("g1", i + 1, "status")
        for _ in range(200):
            if fake.sent:
                break
            await asyncio.sleep(0.01)
        await sender.stop()

    run_on_own_loop(scenario())
    assert len(fake.sent) == 1 and fake.singles == []
    assert [orjson.loads(m)["index"] for m in fake.sent[0]] == [1, 2, 3, 4, 5]


def test_one_nudge_alone_is_one_plain_publish() -> None:
    fake = _FailingOnce()

    async def scenario() -> None:
        sender = bus.Bus(fake, "w1", lambda nudge: None)
        sender.tasks = [asyncio.create_task(sender._publish_loop())]
        sender.publish("g1", 1, "seats")
        for _ in range(200):
            if fake.singles:
                break
            await asyncio.sleep(0.01)
        await sender.stop()

    run_on_own_loop(scenario())
    assert [orjson.loads(m) for m in fake.singles] == [
        {"game": "g1", "index": 1, "kind": "seats", "worker": "w1"}]
    assert fake.sent == []


def test_a_listener_waiting_for_a_nudge_stops_at_once(redis_url: str) -> None:
    import redis.asyncio as aioredis

    async def scenario() -> tuple[float, bool]:
        client = aioredis.Redis.from_url(redis_url)
        listener = bus.Bus(client, "w1", lambda nudge: None)
        try:
            listener.start()
            await asyncio.wait_for(listener.subscribed.wait(), 5)
            await asyncio.sleep(0.2)  # now waiting in the read, with no time-out
            tasks = list(listener.tasks)
            started = asyncio.get_running_loop().time()
            await listener.stop()
            took = asyncio.get_running_loop().time() - started
            return took, all(t.done() for t in tasks)
        finally:
            await client.aclose()

    took, done = run_on_own_loop(scenario())
    assert done
    assert took < bus.STOP_WAIT_S  # cancelled out of the wait, not left until the stop gave up


def test_a_worker_hears_only_the_shards_of_the_games_it_holds(redis_url: str) -> None:
    """Nudges go on the game's shard; a worker hears a game once it holds it (hold returns
    after Redis confirmed), not before, and not after it left the shard (keep)."""
    import redis.asyncio as aioredis

    mine, other = "gmine", next(f"g{i}" for i in range(1000)
                                if bus.channel(f"g{i}") != bus.channel("gmine"))

    async def scenario() -> tuple[list[tuple[str, int]], set[str]]:
        got: list[tuple[str, int]] = []
        sender_redis = aioredis.Redis.from_url(redis_url)
        receiver_redis = aioredis.Redis.from_url(redis_url)
        sender = bus.Bus(sender_redis, "w1", lambda nudge: None)
        receiver = bus.Bus(receiver_redis, "w2",
                           lambda nudge: got.append((nudge["game"], nudge["index"])))
        try:
            receiver.start()
            await asyncio.wait_for(receiver.subscribed.wait(), 5)
            sender.start()
            sender.publish(mine, 1, "seats")  # not held yet: not heard
            await asyncio.sleep(0.2)
            await receiver.hold([mine])
            # no sleep: a nudge published right after `hold` returned is heard
            sender.publish(mine, 2, "seats")
            sender.publish(other, 1, "seats")  # another shard, never held here
            await asyncio.sleep(0.3)
            receiver.held_at.clear()  # as if the hold was long ago
            await receiver.keep([])  # nothing held any more: the shard is left
            await asyncio.sleep(0.2)
            sender.publish(mine, 3, "seats")
            await asyncio.sleep(0.3)
            return got, set(receiver.wanted)
        finally:
            await sender.stop()
            await receiver.stop()
            await sender_redis.aclose()
            await receiver_redis.aclose()

    got, wanted = run_on_own_loop(scenario())
    assert got == [(mine, 2)]
    assert wanted == set()


def test_the_shard_of_a_game_is_the_same_in_every_process() -> None:
    import subprocess
    import sys

    code = ("from pocketgalaxy.web.cluster import bus; "
            "print(bus.channel('abc123'), bus.channel('Zx-9_q'))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={"PYTHONHASHSEED": seed, "PATH": ""}, check=True).stdout
            for seed in ("1", "2", "3")}
    assert outs == {f"{bus.channel('abc123')} {bus.channel('Zx-9_q')}\n"}
    assert bus.channel("abc123").startswith(bus.CHANNEL + ":")
    assert 0 <= int(bus.channel("abc123").rsplit(":", 1)[1]) < bus.SHARDS
