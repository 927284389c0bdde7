"""Committing an action: the store write runs in a thread (the event loop keeps serving), a
socket that says hello meanwhile waits for it, a cancellation cannot split memory from the store,
and the action write (one statement on PostgreSQL) keeps its guarantees on both backends."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from loopkit import run_on_own_loop
from storerows import running_row

from pocketgalaxy.web import payloads
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.hub import Hub
from pocketgalaxy.web.live import Conn, encode
from pocketgalaxy.web.settings import Settings
from pocketgalaxy.web.store import StaleWrite, Store, games_table

WRITE_S = 0.3  # how long the slowed store write takes


class SlowWrites:
    """Slows `append_action` down (or makes it fail) and notes which thread ran it."""

    def __init__(self, store: Store, fail: bool = False) -> None:
        self.threads: list[int] = []
        self.started = threading.Event()
        write = store.append_action

        def slow(*args: Any, **kwargs: Any) -> None:
            self.threads.append(threading.get_ident())
            self.started.set()
            time.sleep(WRITE_S)
            if fail:
                raise RuntimeError("the database went away")
            write(*args, **kwargs)

        store.append_action = slow  # type: ignore[method-assign]


def _run(tmp_path: Path, scenario: Any) -> None:
    async def main() -> None:
        settings = Settings(data_dir=tmp_path / "data", bot_delay_ms=0)
        store = Store(f"sqlite:///{(tmp_path / 'db.sqlite3').as_posix()}")
        hub = Hub(store, settings)
        await hub.start()
        try:
            await scenario(hub)
        finally:
            await hub.stop()
            store.dispose()

    run_on_own_loop(main())


async def _game(hub: Hub) -> str:
    made = await hub.create("adventure", 2, {}, [{"kind": "human"}, {"kind": "human"}], seed=77)
    return str(made["game_id"])


def _move(hub: Hub, gid: str) -> tuple[int, dict[str, Any], int]:
    live = hub.get(gid)
    seat = live.session.to_act
    assert seat is not None
    return seat, payloads.legal_json(live, seat)[0], live.index


def _decoded(conn: Conn) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        item = conn.queue.get_nowait()
        assert item is not None
        out.append(json.loads(item) if isinstance(item, str) else item)
    return out


def test_a_slow_store_write_does_not_block_the_event_loop(tmp_path: Path) -> None:
    async def scenario(hub: Hub) -> None:
        gid = await _game(hub)
        slow = SlowWrites(hub.store)
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        counting = asyncio.create_task(ticker())
        await hub.act(gid, *_move(hub, gid))
        counting.cancel()
        # The loop ran on while the write slept (blocked, it would not have ticked at all).
        assert ticks >= 10
        assert slow.threads and slow.threads[0] != threading.get_ident()
        assert hub.store.count_actions(gid) == hub.get(gid).index == 1

    _run(tmp_path, scenario)


def test_a_hello_during_a_write_waits_and_sees_only_stored_actions(tmp_path: Path) -> None:
    async def scenario(hub: Hub) -> None:
        gid = await _game(hub)
        slow = SlowWrites(hub.store)
        act = asyncio.create_task(hub.act(gid, *_move(hub, gid)))
        await asyncio.to_thread(slow.started.wait, 5)
        from pocketgalaxy.web import ws

        conn = Conn(64)
        await ws._hello(hub, conn, gid, {"type": "hello"})
        assert act.done()  # the hello waited for the commit
        stored = hub.store.count_actions(gid)
        snapshot = _decoded(conn)[0]
        assert snapshot["type"] == "snapshot" and snapshot["index"] == stored == 1
        await act

    _run(tmp_path, scenario)


def test_a_cancelled_act_still_finishes_its_commit_and_tells_the_sockets(
    tmp_path: Path,
) -> None:
    async def scenario(hub: Hub) -> None:
        gid = await _game(hub)
        live = hub.get(gid)
        conn = Conn(64)
        hub.attach(live, conn, None, 0)
        _decoded(conn)  # the snapshot
        slow = SlowWrites(hub.store)
        act = asyncio.create_task(hub.act(gid, *_move(hub, gid)))
        await asyncio.to_thread(slow.started.wait, 5)
        act.cancel()
        with pytest.raises(asyncio.CancelledError):
            await act
        # Memory, store and sockets agree: the write finished, was recorded and was told.
        assert hub.store.count_actions(gid) == live.index == 1
        assert live.by == ["person"]
        assert [m["index"] for m in _decoded(conn) if m["type"] == "update"] == [1]
        assert not live.lock.locked()

    _run(tmp_path, scenario)


def test_a_failed_write_changes_nothing_and_resends_a_snapshot_to_whoever_saw_it(
    tmp_path: Path,
) -> None:
    async def scenario(hub: Hub) -> None:
        gid = await _game(hub)
        live = hub.get(gid)
        SlowWrites(hub.store, fail=True)
        conn = Conn(64)
        hub.attach(live, conn, None, 0)
        _decoded(conn)
        seat, action, index = _move(hub, gid)
        parsed = live.rules.parse_action(action)
        commit = asyncio.create_task(hub._commit(live, seat, parsed, "person"))
        await asyncio.sleep(0.05)
        conn.sent_index = live.index  # as if it had been sent the (not yet stored) action
        with pytest.raises(WebError) as err:
            await commit
        assert err.value.code == "store/failed"
        assert live.index == hub.store.count_actions(gid) == 0 and live.by == []
        resent = _decoded(conn)
        assert [(m["type"], m["index"]) for m in resent] == [("snapshot", 0)]
        assert conn.sent_index == 0

    _run(tmp_path, scenario)


def test_the_action_write_counts_ends_and_refuses_a_taken_index(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.insert_game(running_row("g1"))
        store.append_action("g1", 0, 0, {"type": "Draw", "n": 1}, "person")
        store.append_action("g1", 1, 1, {"type": "Pass"}, "bot")
        with pytest.raises(StaleWrite):
            store.append_action("g1", 1, 0, {"type": "Other"}, "person")
        row = store.load_game("g1")
        assert row is not None and (row.action_count, row.status) == (2, "running")
        store.append_action("g1", 2, 0, {"type": "Last"}, "clock", outcome={"winners": [0]})
        row = store.load_game("g1")
        assert row is not None
        assert (row.action_count, row.status, row.outcome) == (3, "over", {"winners": [0]})
        assert [(a.idx, a.seat, a.action, a.by) for a in store.load_actions("g1")] == [
            (0, 0, {"type": "Draw", "n": 1}, "person"), (1, 1, {"type": "Pass"}, "bot"),
            (2, 0, {"type": "Last"}, "clock")]
        assert [a.idx for a in store.load_actions("g1", since=2)] == [2]
        with store.engine.connect() as conn:  # the refused write changed nothing
            count = conn.execute(sa.select(games_table.c.action_count)).scalar_one()
        assert count == 3
    finally:
        store.dispose()


def test_encode_writes_the_same_text_as_json_and_falls_back_for_what_orjson_refuses() -> None:
    message = {"type": "update", "text": "Élan ✓", "n": [1, 2.5, None, True], "nested": {"a": {}}}
    assert encode(message) == json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    huge = {"seed": 2**70, 3: "int key"}
    assert encode(huge) == json.dumps(huge, separators=(",", ":"), ensure_ascii=False)
