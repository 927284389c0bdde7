"""Damaging a stopped server's SQLite database the way accidents and bad tools do.

Each function works on the database file directly with the standard library's sqlite3 (the
server must be stopped first), and says what it did so the report can name the case.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path


def _connect(db: Path) -> sqlite3.Connection:
    assert db.is_file(), f"no database at {db}"
    return sqlite3.connect(db, isolation_level=None)


def action_indexes(db: Path, game_id: str) -> list[int]:
    with _connect(db) as conn:
        rows = conn.execute("SELECT idx FROM actions WHERE game_id = ? ORDER BY idx",
                            (game_id,)).fetchall()
    return [int(r[0]) for r in rows]


def delete_action(db: Path, game_id: str, which: str) -> int:
    """Delete the `last` or a `middle` action row of a game; returns the index deleted."""
    indexes = action_indexes(db, game_id)
    assert len(indexes) >= 3, f"game {game_id} has too few actions to damage: {indexes}"
    idx = indexes[-1] if which == "last" else indexes[len(indexes) // 2]
    conn = _connect(db)
    try:
        conn.execute("DELETE FROM actions WHERE game_id = ? AND idx = ?", (game_id, idx))
    finally:
        conn.close()
    return idx


def bad_json(db: Path, game_id: str, column: str = "options") -> None:
    """Write text that is not JSON into one JSON column of one game's row."""
    assert column in ("options", "seats", "outcome", "pinned")
    conn = _connect(db)
    try:
        conn.execute(f"UPDATE games SET {column} = ? WHERE id = ?", ('{"broken": ', game_id))
    finally:
        conn.close()


def _sidecars(db: Path) -> list[Path]:
    return [db.with_name(db.name + suffix) for suffix in ("-wal", "-shm", "-journal")]


def truncate(db: Path, keep_bytes: int = 0) -> None:
    """Cut the file to `keep_bytes` (0: an empty file) and drop its WAL and shared-memory files."""
    with db.open("r+b") as f:
        f.truncate(keep_bytes)
    for side in _sidecars(db):
        side.unlink(missing_ok=True)


def delete(db: Path) -> None:
    """Remove the database file (and its WAL files); the data folder stays."""
    db.unlink()
    for side in _sidecars(db):
        side.unlink(missing_ok=True)
