"""The cheap paths of a cluster: a nudged action applied without reading the store, the tick's
store check limited to the games not heard of, and the lease not asked for again and again."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from clusterkit import (
    RunCluster,
    Socket,
    Workers,
    play_first_legal,
    two_people_game,
    wait_for,
)

from pocketgalaxy.web import payloads
from pocketgalaxy.web.cluster import bus
from pocketgalaxy.web.hub import Hub


class Reads:
    """Counts a store's reads of games and action rows (the catch-up's two reads)."""

    def __init__(self, hub: Hub) -> None:
        self.calls: list[str] = []
        store = hub.store
        load_game, load_actions = store.load_game, store.load_actions

        def counted_game(game_id: str) -> Any:
            self.calls.append("load_game")
            return load_game(game_id)

        def counted_actions(game_id: str, since: int = 0) -> Any:
            self.calls.append("load_actions")
            return load_actions(game_id, since)

        store.load_game = counted_game  # type: ignore[method-assign]
        store.load_actions = counted_actions  # type: ignore[method-assign]


def test_a_nudged_action_is_applied_on_the_other_worker_without_a_store_read(
    run_cluster: RunCluster,
) -> None:
    async def scenario(start: Workers) -> None:
        # Long leases: no tick runs during the test, so only the nudges carry the moves.
        a, b = await start("a", lease_ttl_s=60.0), await start("b", lease_ttl_s=60.0)
        gid = await two_people_game(a)
        watcher = Socket(b, gid, None)
        reads = Reads(b)
        assert b.cluster is not None
        for n in range(1, 6):
            await play_first_legal(a, gid)
            await wait_for(lambda n=n: watcher.index() == n,  # type: ignore[misc]
                           f"the watcher on b to be sent index {n}")
        assert reads.calls == []  # every move came with its nudge
        assert b.cluster.applied == 5
        updates = [m for m in watcher.read() if m["type"] == "update"]
        assert [u["index"] for u in updates] == [1, 2, 3, 4, 5]  # in order, each once
        assert watcher.events() == payloads.events_json(a.get(gid), None, 0)
        assert b.get(gid).by == a.get(gid).by == ["person"] * 5

    run_cluster(scenario)


def test_a_nudge_with_a_gap_is_caught_up_from_the_store(run_cluster: RunCluster) -> None:
    async def scenario(start: Workers) -> None:
        a, b = await start("a", lease_ttl_s=60.0), await start("b", lease_ttl_s=60.0)
        gid = await two_people_game(a)
        watcher = Socket(b, gid, None)
        assert a.cluster is not None and b.cluster is not None
        published = a.cluster.committed
        a.cluster.committed = lambda *_: None  # type: ignore[method-assign]  # lost
        await play_first_legal(a, gid)
        a.cluster.committed = published  # type: ignore[method-assign]
        reads = Reads(b)
        await play_first_legal(a, gid)  # its nudge carries row 1; b stands at 0: a gap
        await wait_for(lambda: watcher.index() == 2, "the watcher on b to reach index 2")
        assert "load_actions" in reads.calls
        assert b.cluster.applied == 0
        assert watcher.events() == payloads.events_json(a.get(gid), None, 0)

    run_cluster(scenario)


def test_a_nudged_action_the_rules_refuse_is_read_from_the_store_instead(
    run_cluster: RunCluster,
) -> None:
    async def scenario(start: Workers) -> None:
        a, b = await start("a", lease_ttl_s=60.0), await start("b", lease_ttl_s=60.0)
        gid = await two_people_game(a)
        watcher = Socket(b, gid, None)
        assert b.cluster is not None
        live_b = b.get(gid)
        # A nudge whose row does not apply here (a wrong seat): nothing changes from it; the
        # store, where no such row exists, is read instead, and the game stays at 0.
        wrong = 1 - int(live_b.session.to_act or 0)
        b.cluster.on_nudge({"game": gid, "index": 1, "kind": "action", "worker": "a",
                            "move": {"at": 0, "seat": wrong, "action": {"type": "Nothing"},
                                     "by": "person"}})
        await wait_for(lambda: gid not in b.cluster.following, "b's catch-up to end")  # type: ignore[union-attr]
        assert live_b.index == 0 and b.cluster.applied == 0
        await play_first_legal(a, gid)
        await wait_for(lambda: watcher.index() == 1, "the watcher on b to reach index 1")
        assert watcher.events() == payloads.events_json(a.get(gid), None, 0)

    run_cluster(scenario)


def test_the_tick_compares_with_the_store_only_the_games_not_heard_of(
    run_cluster: RunCluster,
) -> None:
    async def scenario(start: Workers) -> None:
        a, b = await start("a", lease_ttl_s=60.0), await start("b", lease_ttl_s=60.0)
        busy, quiet = await two_people_game(a, 1), await two_people_game(a, 2)
        for gid in (busy, quiet):
            Socket(b, gid, None)
        assert b.cluster is not None
        asked: list[list[str]] = []
        progress = b.store.progress

        def spied(ids: list[str]) -> Any:
            asked.append(list(ids))
            return progress(ids)

        b.store.progress = spied  # type: ignore[method-assign]
        old = time.monotonic() - 2 * b.cluster.tick_s
        b.get(busy).heard_at = b.get(quiet).heard_at = old
        await play_first_legal(a, busy)  # b hears of `busy` now
        await wait_for(lambda: b.get(busy).index == 1, "b to apply the move of `busy`")
        await b.cluster.check()
        assert asked == [[quiet]]  # one query, for the game b heard nothing of
        await b.cluster.check()
        assert asked == [[quiet]]  # just checked: not again before a tick has passed
        await b.cluster.check(every=True)
        assert sorted(asked[-1]) == sorted([busy, quiet])

    run_cluster(scenario)


def test_the_lease_of_a_game_owned_elsewhere_is_not_asked_for_on_every_move(
    run_cluster: RunCluster,
) -> None:
    async def scenario(start: Workers) -> None:
        a, b = await start("a", lease_ttl_s=60.0), await start("b", lease_ttl_s=60.0)
        gid = await two_people_game(a)
        watcher = Socket(b, gid, None)
        assert b.cluster is not None
        asked: list[str] = []
        acquire = b.cluster.leases.acquire

        async def spied(game_id: str) -> bool:
            asked.append(game_id)
            return await acquire(game_id)

        b.cluster.leases.acquire = spied  # type: ignore[method-assign]
        # A tick of 50 ms and moves 60 ms apart: asking once a tick would ask on every move.
        b.cluster.tick_s = 0.05
        for n in range(1, 5):
            await asyncio.sleep(0.06)
            await play_first_legal(a, gid)
            await wait_for(lambda n=n: watcher.index() == n,  # type: ignore[misc]
                           f"the watcher on b to reach index {n}")
        # The one ask when the game came to b (its task may run after the spy is in place);
        # none on the moves, though each came more than a tick after the last.
        assert asked in ([], [gid])
        assert not b.cluster.owns(gid)

    run_cluster(scenario)


def test_a_nudge_carries_the_committed_row_and_a_malformed_row_is_dropped() -> None:
    good = ('{"game":"g1","index":3,"kind":"action","worker":"w1",'
            '"move":{"at":2,"seat":1,"action":{"type":"Pass"},"by":"person"}}')
    parsed = bus.parse(good)
    assert parsed is not None
    assert parsed["move"] == {"at": 2, "seat": 1, "action": {"type": "Pass"}, "by": "person"}
    for move in ('{"at":-1,"seat":1,"action":{},"by":"p"}', '{"at":2,"seat":true,"action":{},'
                 '"by":"p"}', '{"at":2,"seat":1,"action":[],"by":"p"}', '"text"'):
        bad = bus.parse('{"game":"g1","index":3,"kind":"action","worker":"w1","move":'
                        + move + '}')
        assert bad is not None and "move" not in bad  # still a nudge: the store is read
    assert bus.parse("x" * (bus.MAX_NUDGE_BYTES + 1)) is None


def test_the_check_still_finds_a_seat_change_whose_nudge_was_lost(
    run_cluster: RunCluster,
) -> None:
    async def scenario(start: Workers) -> None:
        a, b = await start("a", lease_ttl_s=60.0), await start("b", lease_ttl_s=60.0)
        made = await a.create("adventure", 2, {}, [{"kind": "human"}, {"kind": "human"}], seed=5)
        gid = str(made["game_id"])
        Socket(b, gid, None)
        assert a.cluster is not None and b.cluster is not None
        await b.cluster.check(every=True)  # equal: b notes the seats text as seen
        assert gid in b.cluster.seats_seen
        a.cluster.changed = lambda *_: None  # type: ignore[method-assign]  # nudges lost
        await a.take_over(gid, 1, made["creator_token"], None)
        await b.cluster.check(every=True)
        await wait_for(lambda: b.get(gid).seats[1].takeover is not None,
                       "b to take the takeover from the store")
        assert b.get(gid).seats_json() == a.get(gid).seats_json()

    run_cluster(scenario)


def test_a_nudge_in_bytes_is_read_and_bad_utf8_is_ignored() -> None:
    raw = b'{"game":"g1","index":1,"kind":"seats","worker":"w2"}'
    assert bus.parse(raw) == {"game": "g1", "index": 1, "kind": "seats", "worker": "w2"}
    assert bus.parse(b'{"game":"g\xff","index":1,"kind":"seats","worker":"w2"}') is None


def test_a_late_renewal_is_not_made_up_per_game_and_the_lease_loop_restores_it(
    run_cluster: RunCluster,
) -> None:
    """Our own lease, distrusted here because a renewal came late: a move does not renew it on
    its own (a burst of those opened Redis connections by the hundred); the lease loop's one
    call renews it with the others and the game is owned again."""

    async def scenario(start: Workers) -> None:
        a = await start("a", lease_ttl_s=60.0)
        gid = await two_people_game(a)
        assert a.cluster is not None
        cluster = a.cluster
        await wait_for(lambda: cluster.owns(gid), "a to own its game")
        asked: list[str] = []
        acquire = cluster.leases.acquire

        async def spied(game_id: str) -> bool:
            asked.append(game_id)
            return await acquire(game_id)

        cluster.leases.acquire = spied  # type: ignore[method-assign]
        cluster.leases.held[gid] = time.monotonic() - 1  # trusted until a second ago
        assert not cluster.owns(gid)
        for _ in range(3):
            await play_first_legal(a, gid)
        await asyncio.sleep(0.1)  # any task a move spawned has run
        assert asked == []
        assert cluster.regain == {gid}
        await cluster._renew()  # the lease loop's round
        cluster._regained()
        assert cluster.owns(gid)
        assert cluster.regain == set()
        assert asked == []

    run_cluster(scenario)
