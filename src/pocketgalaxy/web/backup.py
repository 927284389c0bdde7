"""A consistent copy of the web store while the server runs (SQLite's online backup API).

`backup_sqlite(source, dest)` copies the whole database in one step of `sqlite3.Connection.backup`
inside one read transaction, so the copy is the database as of one moment: every action committed
before it, none half-written. In WAL mode the server keeps writing meanwhile. The copy is written
to `DEST.partial`, checked with `PRAGMA integrity_check`, and only then renamed to `DEST`.

PostgreSQL is backed up with its own tool: `pg_dump_hint(url)` says how.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

import sqlalchemy as sa

_HEADER = b"SQLite format 3\x00"


class BackupError(Exception):
    """The backup could not be made; the message says why (nothing was left at DEST)."""


def backup_sqlite(source: Path, dest: Path, *, overwrite: bool = False) -> None:
    """Copy the SQLite database `source` to `dest` consistently, even while it is written."""
    if not source.is_file():
        raise BackupError(f"there is no database file at {source}")
    with source.open("rb") as fh:
        if fh.read(len(_HEADER)) != _HEADER:
            raise BackupError(f"{source} is not a SQLite database (truncated or overwritten?)")
    if dest.exists() and not overwrite:
        raise BackupError(f"{dest} already exists: name a new file, or add --force to replace it")
    if dest.exists() and dest.resolve() == source.resolve():
        raise BackupError("the backup must go to another file than the database itself")
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(source, timeout=10)
    try:
        out = sqlite3.connect(partial)
        try:
            src.backup(out)  # pages=-1: all at once, one snapshot
            verdict = out.execute("PRAGMA integrity_check").fetchone()
        finally:
            out.close()
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(f"the backup of {source} failed: {exc}") from exc
    finally:
        src.close()
    if verdict is None or verdict[0] != "ok":
        partial.unlink(missing_ok=True)
        raise BackupError(f"the copy of {source} fails SQLite's integrity check: {verdict}")
    os.replace(partial, dest)
    for suffix in ("-wal", "-shm"):  # the copy is whole in itself; stale side files would mislead
        with contextlib.suppress(FileNotFoundError):
            Path(str(dest) + suffix).unlink()


def pg_dump_hint(url: str, dest: str) -> str:
    """How to back up (and restore) a PostgreSQL store with pg_dump, for this URL."""
    plain = sa.engine.make_url(url).set(drivername="postgresql")
    shown = plain.render_as_string(hide_password=True)
    return (
        "PostgreSQL is backed up with its own tool, pg_dump, which takes a consistent snapshot "
        "while the server runs:\n"
        f"  pg_dump --format=custom --file {dest} '{shown}'\n"
        "and restored into an empty database with:\n"
        f"  pg_restore --no-owner --dbname '{shown}' {dest}"
    )
