"""The action write on PostgreSQL, straight through the driver (psycopg) on a pooled connection.

Every action of every game is one such write, so its CPU counts per action: through SQLAlchemy's
Core (a cached compiled statement, its execution context, result and parameter processing) it
cost about 0.7 to 1.0 ms of CPU a write, through the driver's cursor 0.3 to 0.4 ms (side by side,
1,500 writes each, 2026-12-02). It is the same one statement as before (a data-modifying CTE:
the action row and the game's count, atomic, in autocommit: one round trip), on a connection of
the store's own pool, so the pool's limits and its reset on return still hold. The UNIQUE
(game, index) constraint refuses a taken index as before: the driver's IntegrityError, which the
store turns into `StaleWrite`. A connection that broke is invalidated, not pooled again.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy.engine import Engine

from pocketgalaxy.web.live import encode  # the one compact JSON writer (orjson, json fallback)

_INSERT = ('WITH ins AS (INSERT INTO actions (game_id, idx, seat, action, "by", created_at) '
           "VALUES (%(game)s, %(idx)s, %(seat)s, %(action)s::json, %(by)s, %(stamp)s) "
           "RETURNING game_id) ")
_COUNT = _INSERT + ("UPDATE games SET action_count = %(n)s, updated_at = %(stamp)s "
                    "WHERE games.id = (SELECT game_id FROM ins)")
_END = _INSERT + ("UPDATE games SET action_count = %(n)s, updated_at = %(stamp)s, "
                  "status = 'over', outcome = %(outcome)s::json "
                  "WHERE games.id = (SELECT game_id FROM ins)")


class Refused(Exception):
    """The database refused the row (the index is taken, or the game is not stored)."""


def append(engine: Engine, game_id: str, idx: int, seat: int, action: dict[str, Any], by: str,
           stamp: dt.datetime, outcome: dict[str, Any] | None) -> None:
    """Write action `idx` and the game's new count (and, if it ended the game, its outcome)."""
    dbapi = engine.dialect.loaded_dbapi
    params: dict[str, Any] = {"game": game_id, "idx": idx, "seat": seat,
                              "action": encode(action), "by": by, "stamp": stamp,
                              "n": idx + 1}
    if outcome is not None:
        params["outcome"] = encode(outcome)
    fairy = engine.raw_connection()
    try:
        conn = fairy.driver_connection
        assert conn is not None
        conn.autocommit = True  # one statement, atomic by itself: no BEGIN nor COMMIT
        try:
            with conn.cursor() as cursor:
                cursor.execute(_COUNT if outcome is None else _END, params)
        finally:
            if not conn.closed:
                conn.autocommit = False  # as the pool hands connections out
    except dbapi.IntegrityError as exc:
        raise Refused(str(exc)) from exc
    except (dbapi.OperationalError, dbapi.InterfaceError):
        fairy.invalidate()  # broken: not handed out again
        raise
    finally:
        fairy.close()
