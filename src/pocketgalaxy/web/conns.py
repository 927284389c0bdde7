"""Fan-out to a game's connections: updates after a change, presence when a seat comes or goes.

Every message is queued on each connection (`live.Conn.push`) under the game's lock, so each
connection sees them in order. An update is built once per (seat, last index sent) and shared
(one encoded text for every socket of that seat, or of the watchers), its public parts once;
a presence message is built once and shared by all. A watcher joining or leaving sends nothing
to the others, so the work of a connect does not grow with the number of watchers.
"""

from __future__ import annotations

from typing import Any

from pocketgalaxy.web import payloads
from pocketgalaxy.web.live import Conn, LiveGame, encode


def broadcast(live: LiveGame, clock: dict[str, Any] | None, *, skip: Conn | None = None) -> None:
    """Queue an update for every connection, each built for that connection's seat."""
    built: dict[tuple[int | None, int], str] = {}
    public: dict[str, Any] | None = None  # the parts alike for every seat, built once
    for conn in list(live.conns):
        if conn is skip or conn.closed:
            continue
        key = (conn.seat, conn.sent_index)
        if key not in built:  # watchers of one seat share one encoded message
            if public is None:
                public = payloads.public_parts(live, clock)
            built[key] = encode(payloads.seat_payload(
                live, conn.seat, "update", since=conn.sent_index, clock=clock, public=public))
        conn.push(built[key])
        conn.sent_index = live.index
    # The legal list served every socket of the seat just now; kept, it would be the biggest
    # part of a waiting game's memory (~20 KB of dicts) for a rare reuse (a refusal, a REST
    # read), which simply builds it again.
    live.legal_cache = None


def count(live: LiveGame, seat: int | None, step: int) -> bool:
    """Count a seat's open connections (+1 or -1); True when its connected state flipped."""
    if seat is None:
        return False
    before = live.seat_conns.get(seat, 0)
    after = max(0, before + step)
    live.seat_conns[seat] = after
    return (before > 0) != (after > 0)


def presence(live: LiveGame, *, skip: Conn | None = None) -> None:
    """Queue one small `presence` message (who is connected, per seat) for every connection."""
    message = encode(payloads.presence(live))
    for conn in list(live.conns):
        if conn is not skip and not conn.closed:
            conn.push(message)
