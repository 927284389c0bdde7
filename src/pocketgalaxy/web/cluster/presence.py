"""Which seats have a person connected on some worker: for the owner's away timer.

A seat's person may be connected to any worker, while only the game's owner runs the away timer
that hands an absent person's seat to a computer player. So each worker notes, per game, the
seats it has connections for in one Redis sorted set, `pocketgalaxy:present:<game id>`, member
`<seat>@<worker id>`, score the wall-clock time (ms) until which the note holds. A worker renews
its notes every tick (a third of the lease time) and at once when a seat connects; a note
expires by itself one lease time after its worker stopped renewing it (left or died), so a
crashed worker never keeps a seat "present" for long. Wall clocks of the machines should agree
to well under the lease time (NTP does this).

A tick's notes go to Redis as one small Lua script per `CHUNK` seats (a ZADD and a PEXPIRE per
seat, run inside Redis): as a pipeline of two commands a seat, redis-py's packing and reply
parsing cost a worker about 0.1 ms of CPU a seat, some 11% of its time at 1,000 paced games.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

PREFIX = "pocketgalaxy:present:"
CHUNK = 500  # seats noted by one script call: bounds how long Redis runs one script

# KEYS: the games' keys; ARGV[1] until when (ms), ARGV[2] the key's expiry (ms), ARGV[2 + i] the
# member of KEYS[i]. Returns how many seats were noted.
_NOTE = """
for i, k in ipairs(KEYS) do
  redis.call('zadd', k, ARGV[1], ARGV[i + 2])
  redis.call('pexpire', k, ARGV[2])
end
return #KEYS
"""


def key(game_id: str) -> str:
    return PREFIX + game_id


class Presence:
    """Notes of this worker's connected seats, and the question about other workers' notes."""

    def __init__(self, redis: Any, worker_id: str, ttl_s: float) -> None:
        self.redis = redis
        self.worker_id = worker_id
        self.ttl_ms = max(1, int(ttl_s * 1000))
        self._note = redis.register_script(_NOTE)

    async def note(self, seats: Iterable[tuple[str, int]]) -> None:
        """Note (game, seat) pairs as connected here for one more lease time (one script call
        per CHUNK pairs)."""
        pairs = list(seats)
        if not pairs:
            return
        until = int(time.time() * 1000) + self.ttl_ms
        at = f"@{self.worker_id}"
        for start in range(0, len(pairs), CHUNK):
            chunk = pairs[start:start + CHUNK]
            await self._note(keys=[PREFIX + game_id for game_id, _ in chunk],
                             args=[until, 2 * self.ttl_ms,
                                   *[f"{seat}{at}" for _, seat in chunk]])

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
