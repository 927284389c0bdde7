"""The web store's schema, as Alembic revisions (`versions/`), applied when a store opens.

`upgrade(engine)` brings a database to the newest revision on the store's own engine and
connection, with a Config built here (no alembic.ini). Three cases:

- a new, empty database: every revision runs, from `0001_initial` on;
- a database made before migrations existed (by `metadata.create_all`: tables `games` and
  `actions`, no `alembic_version`): its tables are checked against `0001_initial`, the revision
  is stamped, and the later revisions run, so every game is kept;
- a database already at the newest revision: nothing is done (one cheap query).

A database stamped with a revision this version does not know (written by a newer version) is
refused with `SchemaError`, and so is one whose tables this code did not make.

To change the schema: change the tables in `web/store.py`, add `versions/rNNNN_what.py` with
`revision`, `down_revision` (the previous head), `upgrade()` and `downgrade()`, and run
`tests/web/test_web_migrations.py`, which checks that the revisions build what store.py declares.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy.engine import Connection, Engine

log = logging.getLogger("pocketgalaxy.web")

SCRIPTS = Path(__file__).parent
LEGACY_REVISION = "0001_initial"
"""What a database from before migrations is: the schema `metadata.create_all` made then."""

_LEGACY_COLUMNS = {
    "games": {"id", "game", "options", "players", "seed", "pinned", "seats",
              "creator_token_hash", "takeover_after_s", "turn_clock_s", "status", "outcome",
              "action_count", "created_at", "updated_at"},
    "actions": {"id", "game_id", "idx", "seat", "action", "by", "created_at"},
}


class SchemaError(Exception):
    """The database's schema is not one this version can use or upgrade."""


def config(connection: Connection | None = None) -> Config:
    """An Alembic Config for the packaged scripts, handing over `connection` to env.py."""
    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPTS).replace("%", "%%"))
    cfg.attributes["connection"] = connection
    return cfg


@lru_cache(maxsize=1)
def head() -> str:
    """The newest revision id."""
    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None, "no revisions in web/migrations/versions"
    return found


def revisions() -> list[str]:
    """Every revision id, oldest first."""
    script = ScriptDirectory.from_config(config())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def current(connection: Connection) -> str | None:
    """The revision the database is stamped with (None: never stamped)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, target: str = "head") -> None:
    """Bring the database at `engine` to `target` (the newest revision unless told otherwise).

    Servers starting at once on one database upgrade it once: the work runs under a lock
    (PostgreSQL: a transaction-scoped advisory lock; SQLite: BEGIN IMMEDIATE), and whoever
    gets it second finds the database already upgraded.
    """
    if target == "head":
        with engine.connect() as conn:
            if current(conn) == head():
                return  # the usual case: no lock taken
    with engine.begin() as conn, _patient(conn):
        _lock(conn)
        found = current(conn)
        if found == head() and target == "head":
            return
        cfg = config(conn)
        if found is None:
            tables = set(sa.inspect(conn).get_table_names())
            if tables & set(_LEGACY_COLUMNS):
                _check_legacy(conn, tables)
                log.warning("the database has no schema revision; it was made before "
                            "migrations: stamping %s and upgrading", LEGACY_REVISION)
                command.stamp(cfg, LEGACY_REVISION)
        elif found not in revisions():
            raise SchemaError(
                f"the database is at schema revision {found!r}, which this version of Pocket "
                f"Galaxy does not know (it knows {', '.join(revisions())}): it was written by "
                "a newer version; run that version, or restore a backup made before it"
            )
        try:
            command.upgrade(cfg, target)
        except CommandError as exc:  # pragma: no cover - a broken revision chain
            raise SchemaError(f"the database schema cannot be upgraded: {exc}") from exc
        log.info("database schema at revision %s", current(conn))


@contextmanager
def _patient(conn: Connection) -> Iterator[None]:
    """On SQLite, wait up to 60 s for locks while upgrading, then restore the connection's own
    busy timeout. Servers starting at once queue behind one upgrade, which on a loaded machine
    can outlast the store's usual 5 s."""
    if conn.dialect.name != "sqlite":
        yield
        return
    usual = conn.exec_driver_sql("PRAGMA busy_timeout").scalar()
    conn.exec_driver_sql("PRAGMA busy_timeout=60000")
    try:
        yield
    finally:
        conn.exec_driver_sql(f"PRAGMA busy_timeout={int(usual or 0)}")


_LOCK_KEY = 0x506F636B47616C  # "PockGal": this schema's advisory lock on PostgreSQL


def _lock(conn: Connection) -> None:
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
    elif conn.dialect.name == "sqlite":
        # pysqlite opens no transaction before DDL; take the write lock now (waits busy_timeout).
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def _check_legacy(conn: Connection, tables: set[str]) -> None:
    inspector = sa.inspect(conn)
    for table, expected in sorted(_LEGACY_COLUMNS.items()):
        if table not in tables:
            raise SchemaError(
                f"the database has {sorted(tables & set(_LEGACY_COLUMNS))} but no {table!r} "
                "table and no schema revision: it was not made by Pocket Galaxy"
            )
        columns = {c["name"] for c in inspector.get_columns(table)}
        missing = sorted(expected - columns)
        if missing:
            raise SchemaError(
                f"the database's {table!r} table lacks the column(s) {missing} and has no "
                "schema revision: it was not made by Pocket Galaxy"
            )
