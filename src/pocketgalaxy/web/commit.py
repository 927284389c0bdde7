"""Committing one action of a game: apply it in memory, write its row, then tell everyone.

Called by the hub (`Hub._commit`) for people's, computer players' and turn clocks' actions, with
the game's lock held. The store write runs in a thread (`asyncio.to_thread`), so the event loop
serves every other game while the database answers; this game waits under its lock, and a
socket saying hello waits for the lock too (web/ws.py), so no snapshot shows an action that is
not stored yet. A cancellation that comes during the write (a timer stopped, a server closing)
is held back until the commit is finished and told, then raised: memory, store and sockets
never disagree. A failed write rebuilds the game from the store.

`held` is the same pattern for every other store write or read of a request or timer (seats,
new games, rematches, status): the blocking call in a thread, then the change to memory on the
loop, cancellation held back until both are done. See docs/web.md, "What runs off the event loop".
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from pocketgalaxy.core.game import Action
from pocketgalaxy.web import payloads
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.live import LiveGame
from pocketgalaxy.web.store import StaleWrite

if TYPE_CHECKING:
    from pocketgalaxy.web.hub import Hub

log = logging.getLogger("pocketgalaxy.web")

T = TypeVar("T")
R = TypeVar("R")


async def held(work: Callable[[], T], then: Callable[[T], R]) -> R:
    """Run the blocking `work` (a store call) in a thread, then `then(result)` on the loop.

    If `work` raises, `then` never runs and the error goes to the caller: memory keeps nothing
    of a write that failed. A cancellation that comes meanwhile is held back until `work` has
    ended and `then` has run, then raised, so memory and store never disagree."""
    task = asyncio.ensure_future(asyncio.to_thread(work))
    cancelled = await _finish(task)
    if cancelled:
        try:
            then(task.result())
        except Exception:
            log.exception("a store call failed while its caller was cancelled")
        raise asyncio.CancelledError
    return then(task.result())


async def commit(hub: Hub, live: LiveGame, seat: int, action: Action, by: str) -> int:
    """Apply, persist, then tell everyone (game lock held). Returns the action's index."""
    session = live.session
    at = live.index
    session.act(seat, action)  # refuses before changing anything
    stored = session.record.actions[-1][1]
    outcome = session.outcome.to_json() if session.outcome is not None else None
    write = asyncio.ensure_future(asyncio.to_thread(
        hub.store.append_action, live.id, at, seat, stored, by, outcome=outcome))
    cancelled = await _finish(write)
    try:
        write.result()
    except StaleWrite as exc:
        await hub._reload(live)
        resync(hub, live)
        if live.index > at:  # another worker's action holds the index: show it here
            hub._broadcast(live)
        raise WebError("action/stale", f"position {at} was taken by another action") from exc
    except Exception as exc:
        log.exception("could not store action %d of game %s", at, live.id)
        await hub._reload(live)
        resync(hub, live)
        raise WebError("store/failed", "the action could not be saved; try again") from exc
    live.by.append(by)
    if not live.conns:
        live.idle_since = time.monotonic()
    hub._broadcast(live)
    if hub.cluster is not None:
        hub.cluster.committed(live, at, seat, stored, by)  # the other workers, after the COMMIT
    hub._after_change(live)
    if cancelled:
        raise asyncio.CancelledError
    return at


async def saved(what: str, work: Callable[[], T], then: Callable[[T], R]) -> R:
    """`held`, with a failed store call told as 503 `store/failed` (memory unchanged)."""
    try:
        return await held(work, then)
    except (WebError, asyncio.CancelledError):
        raise
    except Exception as exc:
        log.exception("could not store %s", what)
        raise WebError(
            "store/failed", f"{what} could not be saved, so nothing changed; try again"
        ) from exc


def resync(hub: Hub, live: LiveGame) -> None:
    """After a failed write: a connection attached during it without the lock (hello takes the
    lock; other callers of `Hub.attach` may not) and sent the refused action gets a fresh
    snapshot of the game as stored."""
    for conn in list(live.conns):
        if conn.sent_index > live.index and not conn.closed:
            conn.sent_index = live.index
            conn.push(payloads.seat_payload(live, conn.seat, "snapshot", since=0,
                                            clock=hub.clock_json(live)))


async def _finish(write: asyncio.Future[Any]) -> bool:
    """Wait for a store write to end, even through cancellation; True if we were cancelled."""
    cancelled = False
    while not write.done():
        try:
            await asyncio.shield(write)
        except asyncio.CancelledError:
            cancelled = True
        except Exception:  # the caller reads the result and handles the error
            break
    return cancelled
