"""The data folder's marker: how many games the database held, so losing it cannot go unnoticed.

`DATA_DIR/pocketgalaxy-store.json` is rewritten (atomically) when the store opens and after every
game is created:

    {"format": "pocketgalaxy-store", "version": 1, "database": "sqlite:///data/...", "games": 12,
     "written_at": "2026-12-01T09:30:00+00:00"}

When the server starts and the marker says games existed, but the SQLite file is gone, empty, or
not a database, or the database holds no games, the store refuses to open with a message saying
what was found and how to go on (restore a backup, or start with `--allow-empty`, or remove the
marker, to start fresh). A marker that cannot be read is only warned about and rewritten: it is a
safeguard, never a reason to refuse a sound database.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("pocketgalaxy.web")

MARKER_NAME = "pocketgalaxy-store.json"
_FORMAT = "pocketgalaxy-store"
_SQLITE_HEADER = b"SQLite format 3\x00"

_HOW = (
    "To go on: restore the database from a backup (`pocketgalaxy db backup` makes them), or, to "
    "start with no games on purpose, start the server with --allow-empty (or delete {marker})."
)


class StoreOpenError(Exception):
    """The database cannot be used as it is: the message says what was found and how to go on."""


@dataclass(frozen=True)
class Expected:
    """What the marker remembers."""

    path: Path
    database: str
    games: int
    written_at: str


def marker_path(data_dir: Path) -> Path:
    return Path(data_dir) / MARKER_NAME


def read(path: Path) -> Expected | None:
    """The marker, or None when there is none (or it cannot be read: warned, then rewritten)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("cannot read the data folder marker %s (%s); it will be rewritten", path, exc)
        return None
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            raise ValueError("not a Pocket Galaxy store marker")
        games = data["games"]
        if isinstance(games, bool) or not isinstance(games, int) or games < 0:
            raise ValueError(f"'games' should be a count, not {games!r}")
        return Expected(path, str(data.get("database", "")), games, str(data.get("written_at")))
    except (ValueError, KeyError) as exc:
        log.warning("the data folder marker %s is unreadable (%s); it will be rewritten", path, exc)
        return None


def write(path: Path, database: str, games: int) -> None:
    """Replace the marker atomically (a crash leaves the old one or the new one, never half)."""
    data = {
        "format": _FORMAT, "version": 1, "database": database, "games": games,
        "written_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _said(expected: Expected) -> str:
    return (
        f"The data folder's marker {expected.path} says the database held {expected.games} "
        f"game(s) on {expected.written_at} ({expected.database})"
    )


def check_file(file: Path, expected: Expected, url: str) -> None:
    """Before SQLite touches `file` (and would make a new empty one): refuse a missing, empty or
    foreign file when the marker says games existed."""
    if expected.games == 0:
        return
    how = _HOW.format(marker=expected.path)
    if not file.exists():
        raise StoreOpenError(
            f"the database file {file} is missing. {_said(expected)}. {how}"
        )
    size = file.stat().st_size
    if size == 0:
        raise StoreOpenError(
            f"the database file {file} is empty (0 bytes). {_said(expected)}. {how}"
        )
    with file.open("rb") as fh:
        header = fh.read(len(_SQLITE_HEADER))
    if header != _SQLITE_HEADER:
        raise StoreOpenError(
            f"the database file {file} ({size} bytes) is not a SQLite database (truncated or "
            f"overwritten?). {_said(expected)}. Restore it from a backup; the server will not "
            f"write over it (move it aside and start with --allow-empty to start fresh)."
        )


def check_count(expected: Expected, count: int, url: str) -> None:
    """After opening: refuse a database with no games when the marker says there were some."""
    if expected.games > 0 and count == 0:
        raise StoreOpenError(
            f"the database {url} holds no games. {_said(expected)}. "
            + _HOW.format(marker=expected.path)
        )
    if count < expected.games:
        log.warning(
            "the database %s holds %d game(s), fewer than the %d the data folder's marker "
            "remembers (%s): was an older backup restored?", url, count, expected.games,
            expected.written_at,
        )


def explain_unusable(url: str, file: Path | None, exc: BaseException) -> str:
    """A sentence for a database that SQLAlchemy could not read at all."""
    detail = str(getattr(exc, "orig", exc)) or type(exc).__name__
    if "database is locked" in detail:  # busy, not broken: nothing to restore
        return (f"the database {file or url} stayed locked by another process for over a "
                "minute (another server starting, or a long write); try again when it is free")
    if file is not None:
        return (
            f"the SQLite database {file} cannot be read: {detail}. The file is probably "
            "truncated or damaged. Restore it from a backup (`pocketgalaxy db backup` makes "
            "them); the server will not write over it. To start fresh, move it aside first."
        )
    return f"the database {url} cannot be opened: {detail}"
