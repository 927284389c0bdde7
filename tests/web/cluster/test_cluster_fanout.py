"""Two workers on one PostgreSQL and one Redis: each one's moves reach the other's sockets, in
order and exactly once, and a lost nudge is healed from the store."""

from __future__ import annotations

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
from pocketgalaxy.web.live import LiveGame


def _full_events(live: LiveGame, seat: int | None) -> list[dict[str, Any]]:
    return payloads.events_json(live, seat, 0)


def test_moves_through_either_worker_reach_every_socket_in_order_exactly_once(
    run_cluster: RunCluster,
) -> None:
    async def scenario(start: Workers) -> None:
        # A long tick: only the nudges can carry the moves across (the store check never runs).
        a, b = await start("a", lease_ttl_s=60.0), await start("b", lease_ttl_s=60.0)
        gid = await two_people_game(a)
        sockets = [Socket(a, gid, None), Socket(b, gid, None), Socket(b, gid, 0),
                   Socket(a, gid, 1)]
        moves = 0
        while moves < 24 and not a.get(gid).session.is_over:
            worker = (a, b)[moves % 2]  # alternate: every move comes from the other worker
            await wait_for(lambda w=worker, n=moves: w.get(gid).index == n,  # type: ignore[misc]
                           f"worker {worker.settings.worker_id} to reach index {moves}")
            await play_first_legal(worker, gid)
            moves += 1
        for s in sockets:
            await wait_for(lambda s=s: s.index() == moves,  # type: ignore[misc]
                           f"a socket to be sent index {moves}")
        truth = a.get(gid)
        assert truth.index == moves == a.store.count_actions(gid)
        for s in sockets:
            seat = s.read()[0]["seat"]
            # Every event once, in order: exactly the events of the whole game for that seat.
            assert s.events() == _full_events(truth, seat)
            indexes = [m["index"] for m in s.read() if m["type"] in ("snapshot", "update")]
            assert indexes == sorted(indexes) and len(set(indexes)) == len(indexes)
        assert b.get(gid).session.view(None).to_json() == truth.session.view(None).to_json()

    run_cluster(scenario)


def test_a_lost_nudge_is_healed_by_the_next_one(run_cluster: RunCluster) -> None:
    async def scenario(start: Workers) -> None:
        # A long tick: the store check cannot be what heals here, only the next nudge.
        a, b = await start("a", lease_ttl_s=60.0), await start("b", lease_ttl_s=60.0)
        gid = await two_people_game(a)
        watcher = Socket(b, gid, None)
        cluster = a.cluster
        assert cluster is not None
        published = cluster.committed
        cluster.committed = lambda *_: None  # type: ignore[method-assign]  # this one is lost
        await play_first_legal(a, gid)
        cluster.committed = published  # type: ignore[method-assign]
        await play_first_legal(a, gid)
        await wait_for(lambda: watcher.index() == 2, "the watcher on b to reach index 2")
        assert watcher.events() == _full_events(a.get(gid), None)
        updates = [m for m in watcher.read() if m["type"] == "update"]
        assert [u["index"] for u in updates] == [2]  # one update carried both moves

    run_cluster(scenario)


def test_the_store_check_heals_when_every_nudge_is_lost(run_cluster: RunCluster) -> None:
    async def scenario(start: Workers) -> None:
        a, b = await start("a"), await start("b")
        gid = await two_people_game(a)
        watcher = Socket(b, gid, None)
        cluster = a.cluster
        assert cluster is not None
        cluster.committed = lambda *_: None  # type: ignore[method-assign]
        for _ in range(3):
            await play_first_legal(a, gid)
        # b's tick (every lease_ttl_s / 3) compares its games with the store.
        await wait_for(lambda: watcher.index() == 3, "the watcher on b to reach index 3", 5.0)
        assert watcher.events() == _full_events(a.get(gid), None)

    run_cluster(scenario)


def test_a_stale_move_on_a_lagging_worker_is_refused_and_changes_nothing(
    run_cluster: RunCluster,
) -> None:
    async def scenario(start: Workers) -> None:
        a, b = await start("a", lease_ttl_s=60.0), await start("b", lease_ttl_s=60.0)
        gid = await two_people_game(a)
        b.get(gid)
        b_cluster = b.cluster
        assert b_cluster is not None
        b_cluster.on_nudge = lambda nudge: None  # type: ignore[method-assign]  # b hears nothing
        b_cluster.bus.handler = b_cluster.on_nudge
        first = a.get(gid)
        seat = first.session.to_act
        assert seat is not None
        legal = payloads.legal_json(first, seat)
        await a.act(gid, seat, legal[0], 0)
        # b still thinks the game is at 0; the store's UNIQUE index refuses its write.
        try:
            await b.act(gid, seat, legal[-1], 0)
        except Exception as exc:
            assert getattr(exc, "code", None) == "action/stale"
        else:
            raise AssertionError("the lagging worker's move was accepted")
        assert [r.action for r in a.store.load_actions(gid)] == [legal[0]]
        assert b.get(gid).index == 1  # it rebuilt itself from the store

    run_cluster(scenario)


def test_a_seat_claimed_on_one_worker_is_known_to_the_other(run_cluster: RunCluster) -> None:
    async def scenario(start: Workers) -> None:
        a, b = await start("a"), await start("b")
        gid = await two_people_game(a)
        watcher = Socket(b, gid, None)
        await a.claim(gid, 1, "Ada")
        await wait_for(lambda: b.get(gid).seats[1].name == "Ada", "b to learn the claim")
        names = [s["name"] for s in watcher.read()[-1]["seats"]]
        assert names == ["Player 1", "Ada"]
        # b refuses a second claim of the same seat (it knows the seat is no longer open).
        try:
            await b.claim(gid, 1, "Bob")
        except Exception as exc:
            assert getattr(exc, "code", None) == "seat/not_open"
        else:
            raise AssertionError("b let a taken seat be claimed again")
        assert a.store.load_game(gid) is not None
        stored = a.store.load_game(gid)
        assert stored is not None and stored.seats[1]["name"] == "Ada"

    run_cluster(scenario)
