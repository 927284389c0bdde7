"""Helpers of the cluster tests (a uniquely named module, not conftest, so that
`from clusterkit import ...` never picks up another folder's conftest)."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any

from pocketgalaxy.web import payloads
from pocketgalaxy.web.hub import Hub
from pocketgalaxy.web.live import Conn

LEASE_TTL_S = 0.6  # short, so that a takeover happens within a second in the tests

Workers = Callable[..., Awaitable[Hub]]
Scenario = Callable[[Workers], Awaitable[None]]
RunCluster = Callable[[Scenario], None]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def wait_for(check: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Wait (polling every 10 ms) until `check()`; fail saying `what` did not happen."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for: {what}")
        await asyncio.sleep(0.01)


async def crash(hub: Hub) -> None:
    """Stop a worker as kill -9 would, as far as the others can tell: its tasks stop, nothing
    is handed back (its leases lapse by themselves) and it writes nothing more."""
    hub.closing = True  # no commit from here on (the hub checks it before every write)
    hub.bots.stop()
    assert hub.cluster is not None
    await hub.cluster.stop(hand_back=False)


def _messages(conn: Conn) -> list[dict[str, Any]]:
    """Everything queued on a connection so far, decoded (the queue is emptied)."""
    out = []
    while not conn.queue.empty():
        item = conn.queue.get_nowait()
        assert item is not None, "the connection was closed"
        out.append(json.loads(item) if isinstance(item, str) else item)
    return out


class Socket:
    """A connection attached to a hub, with every message it has been sent."""

    def __init__(self, hub: Hub, game_id: str, seat: int | None) -> None:
        self.conn = Conn(512)
        self.seen: list[dict[str, Any]] = []
        live = hub.get(game_id)
        hub.attach(live, self.conn, seat, 0)

    def read(self) -> list[dict[str, Any]]:
        self.seen.extend(_messages(self.conn))
        return self.seen

    def index(self) -> int:
        states = [m for m in self.read() if m["type"] in ("snapshot", "update")]
        return int(states[-1]["index"]) if states else -1

    def events(self) -> list[dict[str, Any]]:
        """The events of every snapshot and update, in the order they came."""
        return [e for m in self.read() if m["type"] in ("snapshot", "update") for e in m["events"]]


async def two_people_game(hub: Hub, seed: int = 1234) -> str:
    """A game of two people created on `hub`, once `hub` holds its lease."""
    made = await hub.create("adventure", 2, {}, [{"kind": "human"}, {"kind": "human"}], seed=seed)
    gid = str(made["game_id"])
    cluster = hub.cluster
    assert cluster is not None
    await wait_for(lambda: cluster.owns(gid), "the creating worker to take the lease")
    return gid


async def play_first_legal(hub: Hub, game_id: str) -> None:
    """The seat to act plays its first legal action through this worker."""
    live = hub.get(game_id)
    seat = live.session.to_act
    assert seat is not None
    await hub.act(game_id, seat, payloads.legal_json(live, seat)[0], live.index)
