"""Leases: one worker runs a game's computer players and timers; when it stops (or crashes)
another takes over from the stored log, and no index is ever played twice."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from clusterkit import LEASE_TTL_S, Scenario, Socket, Workers, crash, wait_for

from pocketgalaxy.web.cluster import lease
from pocketgalaxy.web.hub import Hub

RunCluster = Callable[[Scenario], None]


def _owns(hub: Hub, game_id: str) -> bool:
    return hub.cluster is not None and hub.cluster.owns(game_id)


async def _holder(hub: Hub, game_id: str) -> str | None:
    assert hub.cluster is not None
    value = await hub.cluster.redis.get(lease.key(game_id))
    return value.decode() if value is not None else None


async def _people(hub: Hub, **extra: object) -> str:
    made = await hub.create("adventure", 2, {}, [{"kind": "human"}, {"kind": "human"}],
                            seed=7, **extra)  # type: ignore[arg-type]
    return str(made["game_id"])


async def _bots(hub: Hub) -> str:
    made = await hub.create("adventure", 2, {}, [{"kind": "bot", "bot": "memory"},
                                                 {"kind": "bot", "bot": "memory"}], seed=99,
                            bot_seeds={0: 1, 1: 2})
    return str(made["game_id"])


def _check_log(hub: Hub, game_id: str) -> list[int]:
    """The stored log is dense (0..n-1, each index once) and replays under the rules (each
    action by the seat to act, legal there). Returns the indexes."""
    rows = hub.store.load_actions(game_id)
    indexes = [r.idx for r in rows]
    assert indexes == list(range(len(rows))), indexes
    replayed = hub._load(game_id)  # the integrity check replays every action
    assert replayed.index == len(rows)
    return indexes


def test_the_lease_moves_when_its_owner_stops_renewing(run_cluster: RunCluster) -> None:
    async def scenario(start: Workers) -> None:
        a, b = await start("a"), await start("b")
        gid = await _people(a)
        await wait_for(lambda: _owns(a, gid), "a to own the game it created")
        b.get(gid)  # b holds it too (a socket there, say), but does not own it
        await asyncio.sleep(3 * LEASE_TTL_S)  # several renewals: a keeps it
        assert _owns(a, gid) and not _owns(b, gid)
        assert await _holder(a, gid) == "a"
        await crash(a)
        stopped = time.monotonic()
        await wait_for(lambda: _owns(b, gid), "b to take the lapsed lease", 5.0)
        took = time.monotonic() - stopped
        assert await _holder(b, gid) == "b"
        assert not _owns(a, gid)  # a stopped trusting its lease when it could no longer renew
        assert took < LEASE_TTL_S + 1.0, f"the takeover took {took:.2f} s"

    run_cluster(scenario)


def test_a_stopping_worker_hands_its_leases_back_at_once(run_cluster: RunCluster) -> None:
    async def scenario(start: Workers) -> None:
        a, b = await start("a", lease_ttl_s=30.0), await start("b")
        gid = await _people(a)
        await wait_for(lambda: _owns(a, gid), "a to own the game it created")
        assert a.cluster is not None
        redis = b.cluster.redis if b.cluster is not None else None
        assert redis is not None
        await a.stop()
        assert await redis.get(lease.key(gid)) is None  # not left to lapse for 30 s
        await wait_for(lambda: _owns(b, gid), "b to adopt the game", 5.0)

    run_cluster(scenario)


def test_a_bot_game_keeps_moving_after_its_owner_crashes_and_never_moves_twice(
    run_cluster: RunCluster,
) -> None:
    async def scenario(start: Workers) -> None:
        a = await start("a", bot_delay_ms=20)
        b = await start("b", bot_delay_ms=20)
        gid = await _bots(a)
        await wait_for(lambda: _owns(a, gid), "a to own the bot game")
        await wait_for(lambda: a.get(gid).index >= 4, "a's computer players to move")
        assert gid not in b.live  # nobody has a socket on b: b must find the game by itself
        await crash(a)
        reached = a.store.count_actions(gid)
        await wait_for(lambda: _owns(b, gid), "b to take over the orphaned game", 5.0)
        await wait_for(lambda: (row := b.store.load_game(gid)) is not None
                       and row.status == "over", "the game to end on b", 60.0)
        indexes = _check_log(b, gid)
        assert len(indexes) > reached  # b made moves after a stopped
        assert {r.by for r in b.store.load_actions(gid)} == {"bot"}

    run_cluster(scenario)


def test_two_workers_that_both_think_they_own_a_game_never_play_an_index_twice(
    run_cluster: RunCluster,
) -> None:
    async def scenario(start: Workers) -> None:
        a = await start("a", bot_delay_ms=5)
        b = await start("b", bot_delay_ms=5)
        gid = await _bots(a)
        await wait_for(lambda: _owns(a, gid), "a to own the bot game")
        # A split brain: b wrongly trusts a lease it does not hold (a paused process waking up
        # would). Both run the computer players; only the store decides.
        assert b.cluster is not None
        b.cluster.leases.held[gid] = time.monotonic() + 3600
        b.cluster.leases.renew_all = _keep  # type: ignore[method-assign]
        b._after_change(b.get(gid))
        await wait_for(lambda: (row := a.store.load_game(gid)) is not None
                       and row.status == "over", "the game to end", 60.0)
        _check_log(a, gid)

    run_cluster(scenario)


async def _keep() -> list[str]:
    return []


def test_the_owner_does_not_take_over_a_person_connected_to_another_worker(
    run_cluster: RunCluster,
) -> None:
    async def scenario(start: Workers) -> None:
        a, b = await start("a"), await start("b")
        gid = await _people(a, takeover_after_s=1)
        await wait_for(lambda: _owns(a, gid), "a to own the game")
        seat = a.get(gid).session.to_act
        assert seat is not None
        person = Socket(b, gid, seat)  # the person to act is connected, to b
        await asyncio.sleep(2.5)  # well past the 1 s away time
        assert a.get(gid).seats[seat].takeover is None
        b.detach(person.conn)  # they leave: now a takes over after the away time
        await wait_for(lambda: a.get(gid).seats[seat].takeover is not None,
                       "a to hand the absent seat to a computer player", 6.0)
        assert a.get(gid).seats[seat].takeover_reason == "away"

    run_cluster(scenario)
