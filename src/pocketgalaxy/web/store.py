"""Durable storage (SQLAlchemy 2.x): a game is its record, so we keep its inputs and its action log.

Two tables. `games` holds what was chosen at creation (game, options, players, seed or pinned deal,
seats with token HASHES, creator token hash, takeover and clock settings, `rematch_absent`) plus
status, outcome, `damage` (why the integrity check refused the game, NULL while it is sound) and
`rematch_id` (the one game its rematch started, web/rematch.py). `actions` holds every
accepted action as (game_id, idx, seat, action JSON, who made it), with a UNIQUE (game_id, idx)
constraint: two writers racing for the same index cannot both win.

Every write is one short transaction; an action row is committed before anyone is told about it.
SQLite runs in WAL mode with `synchronous=NORMAL` (durable against a killed process) and a busy
timeout, so concurrent readers do not fail.

Opening a store brings its schema up to date with the Alembic revisions in `web/migrations/`, and,
given the data folder, compares the database with the folder's marker (`web/marker.py`), so a
missing or emptied database is a startup error rather than a silent empty server. Rows are read
defensively: a value that does not decode makes that one game unreadable (`GameRow.unreadable`,
`UnreadableRow`), never the whole listing or the server's start.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DatabaseError, IntegrityError, OperationalError

from pocketgalaxy.web import marker as data_marker
from pocketgalaxy.web import pgwrite
from pocketgalaxy.web.marker import StoreOpenError

__all__ = [
    "ActionRow", "GameRow", "StaleWrite", "Store", "StoreOpenError", "UnreadableRow",
    "actions_table", "games_table", "metadata", "now",
]

log = logging.getLogger("pocketgalaxy.web")

metadata = sa.MetaData()

games_table = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=True),
    sa.Column("pinned", sa.JSON, nullable=True),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("creator_token_hash", sa.String(64), nullable=False),
    sa.Column("takeover_after_s", sa.Integer, nullable=True),
    sa.Column("turn_clock_s", sa.Integer, nullable=True),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("outcome", sa.JSON, nullable=True),
    sa.Column("action_count", sa.Integer, nullable=False, default=0),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("damage", sa.Text, nullable=True),  # revision 0002
    # revision 0003: the game a rematch of this one started (at most one), and what a rematch
    # does with the seats of people who are not connected ("open" | "computer")
    sa.Column("rematch_id", sa.String(32), nullable=True),
    sa.Column("rematch_absent", sa.String(16), nullable=False, server_default="open"),
)

actions_table = sa.Table(
    "actions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
    sa.Column("idx", sa.Integer, nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.JSON, nullable=False),
    sa.Column("by", sa.String(16), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("game_id", "idx", name="uq_actions_game_idx"),
)


_INSERT_ACTION = actions_table.insert()
_COUNT_ACTION = (
    games_table.update()
    .where(games_table.c.id == sa.bindparam("gid"))
    .values(action_count=sa.bindparam("n"), updated_at=sa.bindparam("stamp"))
)




def _raw(column: sa.Column[Any]) -> Any:
    """Select a column without SQLAlchemy decoding it, so one bad value cannot raise mid-read.

    JSON comes back as its text (CAST works on SQLite and PostgreSQL alike); times as the driver
    gives them (a string on SQLite, a datetime on PostgreSQL).
    """
    if isinstance(column.type, sa.JSON):
        return sa.cast(column, sa.Text).label(column.name)
    if isinstance(column.type, sa.DateTime):
        return sa.type_coerce(column, sa.Text).label(column.name)
    return column


_RAW_GAME = [_raw(c) for c in games_table.c]
_RAW_ACTION = [_raw(c) for c in (actions_table.c.idx, actions_table.c.seat,
                                 actions_table.c.action, actions_table.c.by)]


class StaleWrite(Exception):
    """Another action already holds this index (the UNIQUE constraint said no)."""


class UnreadableRow(Exception):
    """A stored value of one game does not decode; `reason` says which and why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class GameRow:
    """One row of `games`, as plain Python.

    `damage` is the stored verdict of the integrity check. `unreadable` is set by the store when a
    value of this row does not decode now; the JSON fields are then empty placeholders.
    """

    id: str
    game: str
    options: dict[str, Any]
    players: int
    seed: int | None
    pinned: dict[str, Any] | None
    seats: list[dict[str, Any]]
    creator_token_hash: str
    takeover_after_s: int | None
    turn_clock_s: int | None
    status: str
    outcome: dict[str, Any] | None
    action_count: int
    created_at: dt.datetime
    updated_at: dt.datetime
    damage: str | None = None
    rematch_id: str | None = None
    rematch_absent: str = "open"
    unreadable: str | None = None

    @property
    def problem(self) -> str | None:
        """Why this game cannot be played (read now, or stored by the last check), or None."""
        return self.unreadable or self.damage


_STORED_FIELDS = tuple(c.name for c in games_table.c)


@dataclass
class ActionRow:
    """One row of `actions`."""

    idx: int
    seat: int
    action: dict[str, Any]
    by: str


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


_LOCKED_WAIT_S = 60.0


def is_locked(exc: BaseException) -> bool:
    """SQLite's "database is locked": another connection holds the file for now (a server
    starting beside this one, a long write). It passes; it says nothing of damage."""
    return "database is locked" in str(getattr(exc, "orig", exc))


def _upgrade_patiently(upgrade: Callable[[Engine], None], engine: Engine) -> None:
    """Run the migrations, waiting (up to a minute) while another opener holds SQLite's lock:
    servers started at once on one file must not take each other's lock for damage."""
    deadline = time.monotonic() + _LOCKED_WAIT_S
    while True:
        try:
            upgrade(engine)
            return
        except OperationalError as exc:
            if not is_locked(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=5000")  # first: switching to WAL may have to wait
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL, or None (another database, or in memory)."""
    sa_url = sa.engine.make_url(url)
    if sa_url.get_backend_name() != "sqlite" or not sa_url.database:
        return None
    if sa_url.database == ":memory:" or sa_url.database.startswith("file:"):
        return None
    return Path(sa_url.database)


def safe_url(url: str) -> str:
    """The URL with any password hidden, for messages and the marker."""
    return sa.engine.make_url(url).render_as_string(hide_password=True)


class Store:
    """The games and their action logs, behind any SQLAlchemy URL.

    `data_dir`: the server's data folder, where the marker lives (see `web/marker.py`); without
    one (tools, tests) no marker is read or written. `allow_empty`: start even though the marker
    says games existed and the database has none (and write a fresh marker).
    """

    def __init__(
        self, url: str, *, data_dir: Path | None = None, allow_empty: bool = False
    ) -> None:
        from pocketgalaxy.web import migrations

        self.url = url
        sa_url = sa.engine.make_url(url)
        self.is_sqlite = sa_url.get_backend_name() == "sqlite"
        self.marker_path = data_marker.marker_path(data_dir) if data_dir is not None else None
        expected = data_marker.read(self.marker_path) if self.marker_path else None
        file = sqlite_path(url)
        if file is not None:
            if expected and not allow_empty:
                data_marker.check_file(file, expected, safe_url(url))
            file.parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = sa.create_engine(url)
        if self.is_sqlite:
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        # The hot path on a database server: reads and the one-statement action write in
        # autocommit (one round trip each; no BEGIN before nor ROLLBACK/COMMIT after). Same pool.
        # SQLite keeps its transactions exactly as before.
        self.quick: Engine = (self.engine if self.is_sqlite else
                              self.engine.execution_options(isolation_level="AUTOCOMMIT"))
        try:
            _upgrade_patiently(migrations.upgrade, self.engine)
            count = self.count_games()
        except DatabaseError as exc:
            self.engine.dispose()
            raise StoreOpenError(data_marker.explain_unusable(safe_url(url), file, exc)) from exc
        except migrations.SchemaError as exc:
            self.engine.dispose()
            raise StoreOpenError(str(exc)) from exc
        if expected and not allow_empty:
            try:
                data_marker.check_count(expected, count, safe_url(url))
            except StoreOpenError:
                self.engine.dispose()
                raise
        # Counted once; then +1 per game stored here (no COUNT(*) per game). Fewer than there
        # are (another process's games) only makes the marker's check less strict.
        self._games = count
        self._marker_lock = threading.Lock()  # games are stored from worker threads
        self._write_marker(count)

    def dispose(self) -> None:
        self.engine.dispose()

    def _game_stored(self) -> None:
        """One more game: the marker says so (under a lock: two threads share its temp file)."""
        with self._marker_lock:
            self._games += 1
            self._write_marker(self._games)

    def _write_marker(self, count: int) -> None:
        if self.marker_path is None:
            return
        try:
            data_marker.write(self.marker_path, safe_url(self.url), count)
        except OSError as exc:  # the database matters; a marker we cannot write is a warning
            log.warning("could not write the data folder marker %s: %s", self.marker_path, exc)

    # -- games ------------------------------------------------------------------------
    def insert_game(self, row: GameRow) -> None:
        values = {f: getattr(row, f) for f in _STORED_FIELDS}
        with self.engine.begin() as conn:
            conn.execute(games_table.insert().values(**values))
        self._game_stored()

    def count_games(self) -> int:
        with self.engine.connect() as conn:
            value = conn.execute(sa.select(sa.func.count()).select_from(games_table)).scalar_one()
        return int(value)

    def load_game(self, game_id: str) -> GameRow | None:
        with self.quick.connect() as conn:
            found = conn.execute(
                sa.select(*_RAW_GAME).where(games_table.c.id == game_id)
            ).mappings().first()
        return _game_row(found) if found else None

    def list_games(self, *, status: str | None = None, limit: int = 100) -> list[GameRow]:
        """The latest games; a game with a problem comes with its seats left out (listing only)."""
        query = sa.select(*_RAW_GAME).order_by(games_table.c.created_at.desc()).limit(limit)
        if status is not None:
            query = query.where(games_table.c.status == status)
        with self.engine.connect() as conn:
            rows = [_game_row(m) for m in conn.execute(query).mappings()]
        for row in rows:
            if row.problem:
                row.seats = []
        return rows

    def unfinished_ids(self) -> list[str]:
        with self.quick.connect() as conn:
            rows = conn.execute(
                sa.select(games_table.c.id).where(games_table.c.status == "running")
            )
            return [r[0] for r in rows]

    def damaged_ids(self) -> list[str]:
        """Games whose last check found damage (checked again at every start)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(games_table.c.id).where(games_table.c.damage.is_not(None))
                .order_by(games_table.c.id)
            )
            return [r[0] for r in rows]

    def all_ids(self) -> list[str]:
        """Every game id, oldest first (for `db check`)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(games_table.c.id).order_by(games_table.c.created_at, games_table.c.id)
            )
            return [r[0] for r in rows]

    def set_damage(self, game_id: str, reason: str | None) -> None:
        """Store the integrity verdict: the reason a game is damaged, or None when it is sound."""
        with self.engine.begin() as conn:
            conn.execute(
                games_table.update().where(games_table.c.id == game_id).values(damage=reason)
            )

    def insert_rematch(self, row: GameRow, old_id: str) -> str:
        """Insert `row` as the rematch of `old_id` and link the two, in one transaction.

        Returns the id of the old game's rematch: `row.id`, or, when another request linked one
        first (the conditional update finds `rematch_id` already set), that game's id, and then
        `row` is not inserted. So one finished game never gets two rematches, even across
        processes sharing the database.
        """
        values = {f: getattr(row, f) for f in _STORED_FIELDS}
        with self.engine.begin() as conn:
            linked = conn.execute(
                games_table.update()
                .where((games_table.c.id == old_id) & games_table.c.rematch_id.is_(None))
                .values(rematch_id=row.id)
            ).rowcount
            if linked != 1:
                found = conn.execute(sa.select(games_table.c.rematch_id)
                                     .where(games_table.c.id == old_id)).scalar_one()
                return str(found)
            conn.execute(games_table.insert().values(**values))
        self._game_stored()
        return row.id

    def set_creator(self, game_id: str, creator_token_hash: str) -> None:
        """Store the creator's token hash (a rematch's creator collects it after creation)."""
        with self.engine.begin() as conn:
            conn.execute(games_table.update().where(games_table.c.id == game_id)
                         .values(creator_token_hash=creator_token_hash))

    def update_seats(self, game_id: str, seats: list[dict[str, Any]]) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                games_table.update()
                .where(games_table.c.id == game_id)
                .values(seats=seats, updated_at=now())
            )

    # -- actions ----------------------------------------------------------------------
    def append_action(
        self,
        game_id: str,
        idx: int,
        seat: int,
        action: dict[str, Any],
        by: str,
        *,
        outcome: dict[str, Any] | None = None,
    ) -> None:
        """Commit action `idx` (and, if it ended the game, the outcome) in one transaction.

        Raises StaleWrite if `idx` is taken.
        """
        stamp = now()
        if not self.is_sqlite:  # one statement through the driver (web/pgwrite.py)
            try:
                pgwrite.append(self.engine, game_id, idx, seat, action, by, stamp, outcome)
            except pgwrite.Refused as exc:
                raise StaleWrite(f"action {idx} of game {game_id} is already stored") from exc
            return
        try:
            with self.engine.begin() as conn:
                # Statements built once with bound parameters: the hot path skips SQL building.
                conn.execute(_INSERT_ACTION, {
                    "game_id": game_id, "idx": idx, "seat": seat, "action": action, "by": by,
                    "created_at": stamp,
                })
                if outcome is None:
                    conn.execute(_COUNT_ACTION, {"gid": game_id, "n": idx + 1, "stamp": stamp})
                else:
                    conn.execute(
                        games_table.update().where(games_table.c.id == game_id).values(
                            action_count=idx + 1, updated_at=stamp, status="over",
                            outcome=outcome,
                        )
                    )
        except IntegrityError as exc:
            raise StaleWrite(f"action {idx} of game {game_id} is already stored") from exc

    def load_actions(self, game_id: str, since: int = 0) -> list[ActionRow]:
        """The game's action rows by index, from index `since` on (another worker's new rows).
        Raises UnreadableRow if a value does not decode."""
        wanted = actions_table.c.game_id == game_id
        if since:
            wanted = wanted & (actions_table.c.idx >= since)
        with self.quick.connect() as conn:
            rows = conn.execute(
                sa.select(*_RAW_ACTION).where(wanted).order_by(actions_table.c.idx)
            ).all()
        out = []
        for idx, seat, action, by in rows:
            where = f"action row {idx!r} of game {game_id}"
            out.append(ActionRow(
                idx=_int(idx, f"{where}: idx"), seat=_int(seat, f"{where}: seat"),
                action=_json_object(action, f"{where}: action"), by=str(by),
            ))
        return out

    # -- abandoned games (web/bots.py) ---------------------------------------------------
    def abandon_idle(self, before: dt.datetime) -> list[str]:
        """Mark `abandoned` every running game untouched since `before`; returns their ids."""
        stale = (games_table.c.status == "running") & (games_table.c.updated_at < before)
        with self.engine.begin() as conn:
            ids = [r[0] for r in conn.execute(sa.select(games_table.c.id).where(stale))]
            if ids:
                conn.execute(games_table.update().where(games_table.c.id.in_(ids))
                             .values(status="abandoned"))
        return sorted(ids)

    def set_status(self, game_id: str, status: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(games_table.update().where(games_table.c.id == game_id)
                         .values(status=status, updated_at=now()))

    def touch(self, game_id: str) -> None:
        """Note that the game was in use now (people connected)."""
        with self.engine.begin() as conn:
            conn.execute(games_table.update().where(games_table.c.id == game_id)
                         .values(updated_at=now()))

    def progress(self, game_ids: list[str]) -> dict[str, tuple[int, str, str]]:
        """(action count, status, seats as stored JSON text) of each game found, at most 500
        ids per query: what a worker compares with memory to find changes it was not told of."""
        out: dict[str, tuple[int, str, str]] = {}
        with self.quick.connect() as conn:
            for start in range(0, len(game_ids), 500):
                chunk = game_ids[start:start + 500]
                rows = conn.execute(
                    sa.select(games_table.c.id, games_table.c.action_count,
                              games_table.c.status, _raw(games_table.c.seats))
                    .where(games_table.c.id.in_(chunk))
                )
                for gid, count, status, seats in rows:
                    out[str(gid)] = (int(count), str(status), str(seats))
        return out

    def count_actions(self, game_id: str) -> int:
        with self.engine.connect() as conn:
            value = conn.execute(
                sa.select(sa.func.count()).select_from(actions_table)
                .where(actions_table.c.game_id == game_id)
            ).scalar_one()
        return int(value)


# -- decoding, one value at a time ---------------------------------------------------------
def _json(value: Any, where: str) -> Any:
    if value is None:
        return None
    try:
        return json.loads(value) if isinstance(value, str | bytes) else value
    except ValueError as exc:
        raise UnreadableRow(f"{where} is not valid JSON ({exc})") from exc


def _json_object(value: Any, where: str, *, optional: bool = False) -> Any:
    decoded = _json(value, where)
    if decoded is None and optional:
        return None
    if not isinstance(decoded, dict):
        raise UnreadableRow(f"{where} should be a JSON object, not {_kind(decoded)}")
    return decoded


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def _int(value: Any, where: str, *, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise UnreadableRow(f"{where} should be a whole number, not {value!r}")
    return value


def _time(value: Any, where: str) -> dt.datetime:
    try:
        stamp = value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(str(value))
    except ValueError as exc:
        raise UnreadableRow(f"{where} is not a time ({value!r})") from exc
    # SQLite drops the zone; everything we write is UTC.
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=dt.UTC)


def _game_row(m: Any) -> GameRow:
    """A GameRow from a raw mapping; a value that does not decode sets `unreadable` instead."""
    gid = str(m["id"])
    row = GameRow(
        id=gid, game=str(m["game"]), options={}, players=0, seed=None, pinned=None, seats=[],
        creator_token_hash=str(m["creator_token_hash"]), takeover_after_s=None,
        turn_clock_s=None, status=str(m["status"]), outcome=None, action_count=0,
        created_at=dt.datetime.fromtimestamp(0, dt.UTC),
        updated_at=dt.datetime.fromtimestamp(0, dt.UTC), damage=m["damage"],
        rematch_id=None if m["rematch_id"] is None else str(m["rematch_id"]),
        rematch_absent=str(m["rematch_absent"]),
    )
    where = f"game {gid}:"
    # Times first: the listing shows them even for a game whose other values are broken.
    for name in ("created_at", "updated_at"):
        try:
            setattr(row, name, _time(m[name], f"{where} {name}"))
        except UnreadableRow as exc:
            row.unreadable = exc.reason
            return row
    try:
        decoded = {
            "options": _json_object(m["options"], f"{where} options"),
            "players": _int(m["players"], f"{where} players"),
            "seed": _int(m["seed"], f"{where} seed", optional=True),
            "pinned": _json_object(m["pinned"], f"{where} pinned", optional=True),
            "seats": _seat_list(_json(m["seats"], f"{where} seats"), f"{where} seats"),
            "takeover_after_s": _int(m["takeover_after_s"], f"{where} takeover_after_s",
                                     optional=True),
            "turn_clock_s": _int(m["turn_clock_s"], f"{where} turn_clock_s", optional=True),
            "outcome": _json_object(m["outcome"], f"{where} outcome", optional=True),
            "action_count": _int(m["action_count"], f"{where} action_count"),
        }
    except UnreadableRow as exc:
        row.unreadable = exc.reason
        return row
    for name, value in decoded.items():
        setattr(row, name, value)
    return row


def _seat_list(value: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(s, dict) for s in value):
        raise UnreadableRow(f"{where} should be a list of JSON objects, not {_kind(value)}")
    return value
