"""Durable storage (SQLAlchemy 2.x): a game is its record, so we keep its inputs and its action log.

Two tables. `games` holds what was chosen at creation (game, options, players, seed or pinned deal,
seats with token HASHES, creator token hash, takeover and clock settings) plus status and outcome.
`actions` holds every accepted action as (game_id, idx, seat, action JSON, who made it), with a
UNIQUE (game_id, idx) constraint: two writers racing for the same index cannot both win.

Every write is one short transaction; an action row is committed before anyone is told about it.
SQLite runs in WAL mode with `synchronous=NORMAL` (durable against a killed process) and a busy
timeout, so concurrent readers do not fail.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

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


class StaleWrite(Exception):
    """Another action already holds this index (the UNIQUE constraint said no)."""


@dataclass
class GameRow:
    """One row of `games`, as plain Python."""

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


@dataclass
class ActionRow:
    """One row of `actions`."""

    idx: int
    seat: int
    action: dict[str, Any]
    by: str


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Store:
    """The games and their action logs, behind any SQLAlchemy URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        sa_url = sa.engine.make_url(url)
        self.is_sqlite = sa_url.get_backend_name() == "sqlite"
        if self.is_sqlite and sa_url.database and sa_url.database != ":memory:":
            Path(sa_url.database).parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = sa.create_engine(url)
        if self.is_sqlite:
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    def dispose(self) -> None:
        self.engine.dispose()

    # -- games ------------------------------------------------------------------------
    def insert_game(self, row: GameRow) -> None:
        values = {f: getattr(row, f) for f in row.__dataclass_fields__}
        with self.engine.begin() as conn:
            conn.execute(games_table.insert().values(**values))

    def load_game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            found = conn.execute(
                sa.select(games_table).where(games_table.c.id == game_id)
            ).mappings().first()
        return _game_row(found) if found else None

    def list_games(self, *, status: str | None = None, limit: int = 100) -> list[GameRow]:
        query = sa.select(games_table).order_by(games_table.c.created_at.desc()).limit(limit)
        if status is not None:
            query = query.where(games_table.c.status == status)
        with self.engine.connect() as conn:
            return [_game_row(m) for m in conn.execute(query).mappings()]

    def unfinished_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(games_table.c.id).where(games_table.c.status == "running")
            )
            return [r[0] for r in rows]

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

    def load_actions(self, game_id: str) -> list[ActionRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(actions_table.c.idx, actions_table.c.seat, actions_table.c.action,
                          actions_table.c.by)
                .where(actions_table.c.game_id == game_id)
                .order_by(actions_table.c.idx)
            ).all()
        return [ActionRow(idx=r[0], seat=r[1], action=dict(r[2]), by=r[3]) for r in rows]

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

    def count_actions(self, game_id: str) -> int:
        with self.engine.connect() as conn:
            value = conn.execute(
                sa.select(sa.func.count()).select_from(actions_table)
                .where(actions_table.c.game_id == game_id)
            ).scalar_one()
        return int(value)


def _game_row(m: Any) -> GameRow:
    def aware(value: dt.datetime) -> dt.datetime:
        # SQLite drops the zone; everything we write is UTC.
        return value if value.tzinfo else value.replace(tzinfo=dt.UTC)

    return GameRow(
        id=m["id"],
        game=m["game"],
        options=dict(m["options"] or {}),
        players=int(m["players"]),
        seed=m["seed"],
        pinned=m["pinned"],
        seats=list(m["seats"]),
        creator_token_hash=m["creator_token_hash"],
        takeover_after_s=m["takeover_after_s"],
        turn_clock_s=m["turn_clock_s"],
        status=m["status"],
        outcome=m["outcome"],
        action_count=int(m["action_count"] or 0),
        created_at=aware(m["created_at"]),
        updated_at=aware(m["updated_at"]),
    )
