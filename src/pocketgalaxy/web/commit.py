"""Committing one action of a game: apply it in memory, write its row, then tell everyone.

Called by the hub (`Hub._commit`) for people's, computer players' and turn clocks' actions, with
the game's lock held. The store write runs in a thread (`asyncio.to_thread`), so the event loop
serves every other game while the database answers; this game waits under its lock, and a
socket saying hello waits for the lock too (web/ws.py), so no snapshot shows an action that is
not stored yet. A cancellation that comes during the write (a timer stopped, a server closing)
is held back until the commit is finished and told, then raised: memory, store and sockets
never disagree. A failed write rebuilds the game from the store.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from pocketgalaxy.core.game import Action
from pocketgalaxy.web import payloads
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.live import LiveGame
from pocketgalaxy.web.store import StaleWrite

if TYPE_CHECKING:
    from pocketgalaxy.web.hub import Hub

log = logging.getLogger("pocketgalaxy.web")


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
        hub._reload(live)
        resync(hub, live)
        if live.index > at:  # another worker's action holds the index: show it here
            hub._broadcast(live)
        raise WebError("action/stale", f"position {at} was taken by another action") from exc
    except Exception as exc:
        log.exception("could not store action %d of game %s", at, live.id)
        hub._reload(live)
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


def resync(hub: Hub, live: LiveGame) -> None:
    """After a failed write: a connection attached during it without the lock (hello takes the
    lock; other callers of `Hub.attach` may not) and sent the refused action gets a fresh
    snapshot of the game as stored."""
    for conn in list(live.conns):
        if conn.sent_index > live.index and not conn.closed:
            conn.sent_index = live.index
            conn.push(payloads.seat_payload(live, conn.seat, "snapshot", since=0,
                                            clock=hub.clock_json(live)))


async def _finish(write: asyncio.Future[None]) -> bool:
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
