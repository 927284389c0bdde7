"""Which seats have a person connected on some worker: for the owner's away timer.

A seat's person may be connected to any worker, while only the game's owner runs the away timer
that hands an absent person's seat to a computer player. So each worker notes, per game, the
seats it has connections for in one Redis sorted set, `pocketgalaxy:present:<game id>`, member
`<seat>@<worker id>`, score the wall-clock time (ms) until which the note holds. A worker renews
its notes every tick (a third of the lease time) and at once when a seat connects; a note
expires by itself one lease time after its worker stopped renewing it (left or died), so a
crashed worker never keeps a seat "present" for long. Wall clocks of the machines should agree
to well under the lease time (NTP does this).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

PREFIX = "pocketgalaxy:present:"


def key(game_id: str) -> str:
    return PREFIX + game_id


class Presence:
    """Notes of this worker's connected seats, and the question about other workers' notes."""

    def __init__(self, redis: Any, worker_id: str, ttl_s: float) -> None:
        self.redis = redis
        self.worker_id = worker_id
        self.ttl_ms = max(1, int(ttl_s * 1000))

    async def note(self, seats: Iterable[tuple[str, int]]) -> None:
        """Note (game, seat) pairs as connected here for one more lease time (one round trip)."""
        pairs = list(seats)
        if not pairs:
            return
        until = int(time.time() * 1000) + self.ttl_ms
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id, seat in pairs:
                pipe.zadd(key(game_id), {f"{seat}@{self.worker_id}": until})
                pipe.pexpire(key(game_id), 2 * self.ttl_ms)
            await pipe.execute()

    async def elsewhere(self, game_id: str, seat: int) -> bool:
        """True when another worker has a live note that this seat's person is connected."""
        now = int(time.time() * 1000)
        members = await self.redis.zrangebyscore(key(game_id), now, "+inf")
        prefix = f"{seat}@"
        ours = f"{seat}@{self.worker_id}"
        for member in members:
            text = member.decode() if isinstance(member, bytes) else str(member)
            if text.startswith(prefix) and text != ours:
                return True
        return False
