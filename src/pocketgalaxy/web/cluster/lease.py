"""Leases: which worker runs a game's computer players, turn clock and away timer.

A lease is one Redis key per game, `pocketgalaxy:lease:<game id>`, whose value is the owner's
worker id. It is taken with `SET key worker NX PX ttl` (only if nobody holds it), renewed and
given back by small Lua scripts that first compare the value with our own id, so a worker never
extends or deletes a lease another worker has taken since ours lapsed.

A worker trusts its own lease only until `ttl` after the start of its last successful renewal
(`Leases.owns`), so it stops acting before the key can have expired in Redis, even if Redis is
unreachable. Two workers may still briefly both act (a paused process that wakes up): the store's
UNIQUE (game, index) guard refuses the second write of an index, so no move is made twice.
"""

from __future__ import annotations

import time
from typing import Any

PREFIX = "pocketgalaxy:lease:"

# Renew only our own lease: 1 if renewed, 0 if it is gone or someone else's.
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""

# Renew every lease of KEYS that is still ours (ARGV as for _RENEW): a list, 1 renewed, 0 lost.
# One call for a whole chunk: a pipeline of one EVALSHA a game cost the worker far more CPU.
_RENEW_MANY = """
local out = {}
for i, k in ipairs(KEYS) do
  if redis.call('get', k) == ARGV[1] then
    out[i] = redis.call('pexpire', k, ARGV[2])
  else
    out[i] = 0
  end
end
return out
"""
RENEW_CHUNK = 500  # leases renewed by one script call: bounds how long Redis runs one script

# Give back only our own lease.
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


def key(game_id: str) -> str:
    """The Redis key of a game's lease."""
    return PREFIX + game_id


class Leases:
    """The leases this worker holds, over one Redis client (redis.asyncio.Redis)."""

    def __init__(self, redis: Any, worker_id: str, ttl_s: float) -> None:
        self.redis = redis
        self.worker_id = worker_id
        self.ttl_ms = max(1, int(ttl_s * 1000))
        self.ttl_s = ttl_s
        # game id -> monotonic time until which we may act on it (insertion order: stable)
        self.held: dict[str, float] = {}
        self._renew = redis.register_script(_RENEW)
        self._renew_many = redis.register_script(_RENEW_MANY)
        self._release = redis.register_script(_RELEASE)

    def owns(self, game_id: str) -> bool:
        """True while our lease on the game is certainly still ours."""
        until = self.held.get(game_id)
        return until is not None and time.monotonic() < until

    async def acquire(self, game_id: str) -> bool:
        """Take the game's lease if nobody holds it (or keep ours). True when we hold it."""
        started = time.monotonic()
        if game_id in self.held:
            return await self._renew_one(game_id, started)
        taken = await self.redis.set(key(game_id), self.worker_id, nx=True, px=self.ttl_ms)
        if taken:
            self.held[game_id] = started + self.ttl_s
            return True
        return False

    async def renew_all(self) -> list[str]:
        """Renew every lease we hold (one script call per RENEW_CHUNK); returns the games whose
        lease we lost."""
        games = list(self.held)
        if not games:
            return []
        started = time.monotonic()
        results: list[Any] = []
        for start in range(0, len(games), RENEW_CHUNK):
            chunk = games[start:start + RENEW_CHUNK]
            results.extend(await self._renew_many(keys=[PREFIX + g for g in chunk],
                                                  args=[self.worker_id, self.ttl_ms]))
        lost = []
        for game_id, ok in zip(games, results, strict=True):
            if ok:
                self.held[game_id] = started + self.ttl_s
            else:
                self.held.pop(game_id, None)
                lost.append(game_id)
        return lost

    async def _renew_one(self, game_id: str, started: float) -> bool:
        ok = await self._renew(keys=[key(game_id)], args=[self.worker_id, self.ttl_ms])
        if ok:
            self.held[game_id] = started + self.ttl_s
            return True
        self.held.pop(game_id, None)
        return False

    async def release(self, game_id: str) -> None:
        """Give a lease back (the game ended or left memory), so no one waits for it to lapse."""
        if self.held.pop(game_id, None) is not None:
            await self._release(keys=[key(game_id)], args=[self.worker_id])

    async def release_all(self) -> None:
        for game_id in list(self.held):
            await self.release(game_id)

    async def holders(self, game_ids: list[str]) -> dict[str, str | None]:
        """Who holds each game's lease now (None: nobody), read in chunks of 500."""
        out: dict[str, str | None] = {}
        for start in range(0, len(game_ids), 500):
            chunk = game_ids[start:start + 500]
            values = await self.redis.mget([key(g) for g in chunk])
            for game_id, value in zip(chunk, values, strict=True):
                out[game_id] = _text(value)
        return out


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)
