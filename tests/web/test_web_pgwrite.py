"""The action write on PostgreSQL through the driver (web/pgwrite.py): what it stores, that a
taken index is refused with nothing changed, and that the pooled connection goes back as the
pool hands connections out (not left in autocommit)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from storerows import running_row

from pocketgalaxy.web.live import encode
from pocketgalaxy.web.store import StaleWrite, Store, actions_table, games_table, now


def test_the_driver_write_stores_the_row_and_the_count_and_refuses_a_taken_index(
        pg_url: str) -> None:
    store = Store(pg_url)
    try:
        store.insert_game(running_row("g1"))
        store.append_action("g1", 0, 1, {"type": "Move", "to": [2, 3], "word": "Élan"}, "person")
        with pytest.raises(StaleWrite, match="action 0 of game g1 is already stored"):
            store.append_action("g1", 0, 0, {"type": "Other"}, "bot")
        with pytest.raises(StaleWrite):  # no such game: refused too, nothing written
            store.append_action("nope", 0, 0, {"type": "Other"}, "bot")
        store.append_action("g1", 1, 0, {"type": "Last", "big": 2**70}, "clock",
                            outcome={"winners": [1], "reason": "done"})
        rows = store.load_actions("g1")
        assert [(a.idx, a.seat, a.action, a.by) for a in rows] == [
            (0, 1, {"type": "Move", "to": [2, 3], "word": "Élan"}, "person"),
            (1, 0, {"type": "Last", "big": 2**70}, "clock")]
        row = store.load_game("g1")
        assert row is not None
        assert (row.action_count, row.status, row.outcome) == (
            2, "over", {"winners": [1], "reason": "done"})
        with store.engine.connect() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(actions_table)
                                ).scalar_one() == 2
            assert conn.execute(sa.select(games_table.c.updated_at)).scalar_one() <= now()
            # the pool's connection is back in its usual mode: a transaction, not autocommit
            raw = conn.connection.driver_connection
            assert raw is not None and raw.autocommit is False
    finally:
        store.dispose()


def test_the_stored_json_is_compact_and_takes_what_orjson_refuses() -> None:
    assert encode({"a": [1, None], "b": "é"}) == '{"a":[1,null],"b":"é"}'
    assert encode({"n": 2**70}) == '{"n":1180591620717411303424}'
