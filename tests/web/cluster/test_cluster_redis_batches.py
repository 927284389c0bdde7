"""The tick's Redis work in few calls (web/cluster/presence.py, web/cluster/lease.py): every seat's
presence note and every lease renewal of a tick goes to Redis as one Lua script call per chunk,
with the same effect as the one-command-a-seat pipelines they replace, over more than one chunk."""

from __future__ import annotations

import time

from loopkit import run_on_own_loop

from pocketgalaxy.web.cluster import lease, presence


def test_notes_of_more_seats_than_a_chunk_are_all_written_with_their_expiry(
        redis_url: str) -> None:
    import redis.asyncio as aioredis

    n = presence.CHUNK + 123  # two script calls
    pairs = [(f"pn{i:04d}", i % 2) for i in range(n)]

    async def scenario() -> tuple[list[float | None], list[int], bool, bool]:
        client = aioredis.Redis.from_url(redis_url)
        try:
            await client.delete(*[presence.key(g) for g, _ in pairs])
            mine = presence.Presence(client, "w1", 5.0)
            other = presence.Presence(client, "w2", 5.0)
            before = int(time.time() * 1000)
            await mine.note(pairs)
            scores = [await client.zscore(presence.key(g), f"{seat}@w1") for g, seat in pairs]
            expiries = [await client.pttl(presence.key(g)) for g, _ in pairs[::50]]
            # what the owner's away timer asks: present on another worker, not on its own
            there = await other.elsewhere(pairs[7][0], pairs[7][1])
            here = await mine.elsewhere(pairs[7][0], pairs[7][1])
            return ([s - before if s is not None else None for s in scores], expiries, there,
                    here)
        finally:
            await client.delete(*[presence.key(g) for g, _ in pairs])
            await client.aclose()

    offsets, expiries, there, here = run_on_own_loop(scenario())
    assert all(o is not None and 5_000 <= o <= 6_000 for o in offsets)  # until now + 5 s
    assert all(5_000 < e <= 10_000 for e in expiries)  # the key lapses after two lease times
    assert there is True
    assert here is False


def test_renewing_more_leases_than_a_chunk_keeps_ours_and_reports_the_lost_ones(
        redis_url: str) -> None:
    import redis.asyncio as aioredis

    n = lease.RENEW_CHUNK + 77
    games = [f"ln{i:04d}" for i in range(n)]
    stolen = {games[3], games[lease.RENEW_CHUNK + 5]}  # one in each chunk
    gone = games[10]

    async def scenario() -> tuple[list[str], list[int], set[str], str | None]:
        client = aioredis.Redis.from_url(redis_url)
        try:
            await client.delete(*[lease.key(g) for g in games])
            leases = lease.Leases(client, "w1", 5.0)
            for game_id in games:
                assert await leases.acquire(game_id)
            await client.pexpire(lease.key(games[0]), 1_000)  # about to lapse: renewed
            for game_id in stolen:  # ours lapsed and another worker took it
                await client.set(lease.key(game_id), "w2", px=5_000)
            await client.delete(lease.key(gone))  # lapsed, nobody took it
            lost = await leases.renew_all()
            ttls = [await client.pttl(lease.key(g)) for g in games[:2]]
            still = {g for g in games if leases.owns(g)}
            holder = await client.get(lease.key(games[3]))
            return lost, ttls, still, holder.decode() if holder is not None else None
        finally:
            await client.delete(*[lease.key(g) for g in games])
            await client.aclose()

    lost, ttls, still, holder = run_on_own_loop(scenario())
    assert sorted(lost) == sorted([*stolen, gone])
    assert all(4_000 < t <= 5_000 for t in ttls)  # renewed to a whole lease time
    assert still == set(games) - stolen - {gone}
    assert holder == "w2"  # another worker's lease is left alone
