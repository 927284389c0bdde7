"""Schema migrations: the revisions build exactly what store.py declares, the first one is the
schema the store made before migrations, and a database of that time is upgraded keeping every
game (on SQLite and PostgreSQL)."""

from __future__ import annotations

import fnmatch
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from starlette.testclient import TestClient

from pocketgalaxy.web import migrations
from pocketgalaxy.web.server import create_app
from pocketgalaxy.web.settings import Settings
from pocketgalaxy.web.store import Store, StoreOpenError, games_table, metadata

ROOT = Path(__file__).resolve().parents[2]


def old_metadata() -> sa.MetaData:
    """The tables exactly as store.py declared them before migrations (metadata.create_all)."""
    old = sa.MetaData()
    sa.Table(
        "games", old,
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
    sa.Table(
        "actions", old,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("idx", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("by", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "idx", name="uq_actions_game_idx"),
    )
    return old


@pytest.fixture
def engine(database_url: str) -> Iterator[sa.Engine]:
    eng = sa.create_engine(database_url)
    yield eng
    eng.dispose()


def shape(eng: sa.Engine) -> dict[str, Any]:
    """Everything about the two tables a schema comparison should see."""
    inspector = sa.inspect(eng)
    out: dict[str, Any] = {}
    for table in ("games", "actions"):
        out[table] = {
            "columns": [(c["name"], type(c["type"]).__name__, c["nullable"])
                        for c in inspector.get_columns(table)],
            "pk": inspector.get_pk_constraint(table)["constrained_columns"],
            "indexes": sorted((i["name"], tuple(i["column_names"]), bool(i["unique"]))
                              for i in inspector.get_indexes(table)),
            "unique": sorted((u["name"], tuple(u["column_names"]))
                             for u in inspector.get_unique_constraints(table)),
            "fks": sorted((tuple(f["constrained_columns"]), f["referred_table"],
                           tuple(f["referred_columns"]))
                          for f in inspector.get_foreign_keys(table)),
        }
    return out


def revision(eng: sa.Engine) -> str | None:
    with eng.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def test_the_first_revision_is_the_schema_from_before_migrations(engine: sa.Engine) -> None:
    old = old_metadata()
    old.create_all(engine)
    before = shape(engine)
    old.drop_all(engine)
    migrations.upgrade(engine, migrations.LEGACY_REVISION)
    assert revision(engine) == migrations.LEGACY_REVISION
    assert shape(engine) == before


def test_the_revisions_build_what_the_store_declares(engine: sa.Engine) -> None:
    migrations.upgrade(engine)
    assert revision(engine) == migrations.head() == migrations.revisions()[-1]
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []
    assert "damage" in {c["name"] for c in sa.inspect(engine).get_columns("games")}


def test_downgrade_and_upgrade_again(engine: sa.Engine) -> None:
    migrations.upgrade(engine)
    with engine.begin() as conn:
        command.downgrade(migrations.config(conn), migrations.LEGACY_REVISION)
    assert "damage" not in {c["name"] for c in sa.inspect(engine).get_columns("games")}
    migrations.upgrade(engine)
    assert revision(engine) == migrations.head()


def test_revision_0003_gives_old_games_the_rematch_columns(engine: sa.Engine) -> None:
    """Games stored at 0002 get `rematch_absent = 'open'` (the documented default) and no
    rematch; downgrading to 0002 takes both columns away again."""
    migrations.upgrade(engine, "0002_games_damage")
    stamp = "2026-01-01 00:00:00"
    with engine.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO games (id, game, options, players, seats, creator_token_hash, status, "
            "action_count, created_at, updated_at) VALUES ('g1', 'adventure', '{}', 2, '[]', "
            "'x', 'over', 0, :t, :t)"), {"t": stamp})
    migrations.upgrade(engine)
    with engine.connect() as conn:
        row = conn.execute(sa.text(
            "SELECT rematch_id, rematch_absent FROM games WHERE id = 'g1'")).one()
    assert tuple(row) == (None, "open")
    with engine.begin() as conn:
        command.downgrade(migrations.config(conn), "0002_games_damage")
    columns = {c["name"] for c in sa.inspect(engine).get_columns("games")}
    assert "damage" in columns and not columns & {"rematch_id", "rematch_absent"}


def _play_some(client: TestClient) -> dict[str, list[Any]]:
    """Three games at different points; returns each game's stored action rows."""
    games: dict[str, list[Any]] = {}
    for n in (0, 3, 7):
        res = client.post("/api/games", json={
            "game": "adventure", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
        made = res.json()
        tokens = {s["seat"]: s["token"] for s in made["seats"]}
        gid = made["game_id"]
        for _ in range(n):
            seat = client.get(f"/api/games/{gid}").json()["to_act"]
            head = {"Authorization": f"Bearer {tokens[seat]}"}
            state = client.get(f"/api/games/{gid}/state?seat={seat}", headers=head).json()
            assert client.post(f"/api/games/{gid}/actions", headers=head, json={
                "seat": seat, "action": state["legal"][-1], "index": state["index"]},
            ).status_code == 200
        games[gid] = [tokens, n]
    return games


def test_a_database_from_before_migrations_keeps_every_game(
    tmp_path: Path, database_url: str, engine: sa.Engine
) -> None:
    # Games played by today's server, then copied into tables made the old way.
    scratch = Settings(data_dir=tmp_path / "scratch", bot_delay_ms=0)
    with TestClient(create_app(scratch)) as client:
        games = _play_some(client)
    source = sa.create_engine(scratch.resolved_database_url)
    old = old_metadata()
    old.create_all(engine)
    with source.connect() as src, engine.begin() as dst:
        for name in ("games", "actions"):
            table = old.tables[name]
            # Row ids are left to the database, as its own inserts did (PostgreSQL's sequence).
            columns = [c for c in table.c if not (name == "actions" and c.name == "id")]
            rows = [dict(r) for r in src.execute(sa.select(*columns)).mappings()]
            dst.execute(table.insert(), rows)
        before = {
            name: [dict(r) for r in dst.execute(sa.select(*old.tables[name].c)).mappings()]
            for name in ("games", "actions")
        }
    source.dispose()
    assert revision(engine) is None

    settings = Settings(data_dir=tmp_path / "data", database_url=database_url, bot_delay_ms=0)
    with TestClient(create_app(settings)) as client:
        assert revision(engine) == migrations.head()
        for gid, (tokens, n) in games.items():
            summary = client.get(f"/api/games/{gid}").json()
            assert summary["index"] == n and summary["status"] == "running"
            seat = summary["to_act"]
            head = {"Authorization": f"Bearer {tokens[seat]}"}
            state = client.get(f"/api/games/{gid}/state?seat={seat}", headers=head).json()
            res = client.post(f"/api/games/{gid}/actions", headers=head, json={
                "seat": seat, "action": state["legal"][0], "index": n})
            assert res.status_code == 200, res.text
            assert res.json()["index"] == n + 1
    # Every old row is still there; of a game, what was chosen at creation is unchanged (its
    # count, times and seats' `used` flags moved with the action just played).
    fixed = ("id", "game", "options", "players", "seed", "pinned", "creator_token_hash",
             "takeover_after_s", "turn_clock_s", "created_at")
    with engine.connect() as conn:
        for name in ("games", "actions"):
            table = old.tables[name]
            after = {r["id"]: dict(r) for r in conn.execute(sa.select(*table.c)).mappings()}
            for row in before[name]:
                if name == "actions":
                    assert after[row["id"]] == row
                else:
                    assert {k: after[row["id"]][k] for k in fixed} == {k: row[k] for k in fixed}
        assert conn.execute(sa.select(sa.func.count()).select_from(games_table)
                            .where(games_table.c.damage.is_not(None))).scalar_one() == 0


def test_servers_starting_at_once_upgrade_once(engine: sa.Engine, database_url: str) -> None:
    barrier = threading.Barrier(4)
    failures: list[BaseException] = []

    def open_store() -> None:
        try:
            barrier.wait(timeout=30)
            Store(database_url).dispose()
        except BaseException as exc:  # reported below
            failures.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).all() == [
            (migrations.head(),)]


def test_tables_not_made_by_pocket_galaxy_are_refused(engine: sa.Engine,
                                                      database_url: str) -> None:
    strange = sa.MetaData()
    sa.Table("games", strange, sa.Column("id", sa.Integer, primary_key=True),
             sa.Column("title", sa.Text))
    strange.create_all(engine)
    with pytest.raises(StoreOpenError, match="no 'actions' table .* not made by Pocket Galaxy"):
        Store(database_url)
    sa.Table("actions", strange, sa.Column("id", sa.Integer, primary_key=True))
    strange.create_all(engine)
    with pytest.raises(StoreOpenError, match=r"'actions' table lacks the column\(s\) \['action'"):
        Store(database_url)
    assert revision(engine) is None  # nothing stamped


def test_a_database_from_a_newer_version_is_refused(engine: sa.Engine,
                                                    database_url: str) -> None:
    migrations.upgrade(engine)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '9999_future'"))
    with pytest.raises(StoreOpenError, match="9999_future.*newer version"):
        Store(database_url)
    assert revision(engine) == "9999_future"


def test_the_scripts_ship_in_the_package() -> None:
    """Every migration file is matched by [tool.setuptools.package-data] (a wheel has them)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["pocketgalaxy"]
    package = ROOT / "src" / "pocketgalaxy"
    files = [p for p in migrations.SCRIPTS.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts]
    assert {p.name for p in files} >= {"env.py", "script.py.mako", "r0001_initial_schema.py",
                                       "r0002_games_damage.py", "r0003_games_rematch.py"}
    for path in files:
        rel = path.relative_to(package).as_posix()
        assert any(fnmatch.fnmatch(rel, pat) for pat in patterns), rel


def test_a_locked_database_is_waited_for_not_taken_for_damage(monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    from sqlalchemy.exc import OperationalError

    from pocketgalaxy.web import store as store_module
    from pocketgalaxy.web.marker import explain_unusable

    monkeypatch.setattr(store_module.time, "sleep", lambda _s: None)
    calls: list[int] = []

    def busy_twice(_engine: sa.Engine) -> None:
        calls.append(1)
        if len(calls) <= 2:
            raise OperationalError("PRAGMA journal_mode=WAL", {}, Exception("database is locked"))

    store_module._upgrade_patiently(busy_twice, sa.create_engine("sqlite://"))
    assert len(calls) == 3  # waited through two refusals, then upgraded

    def broken(_engine: sa.Engine) -> None:
        raise OperationalError("SELECT 1", {}, Exception("file is not a database"))

    with pytest.raises(OperationalError):  # damage is not waited for
        store_module._upgrade_patiently(broken, sa.create_engine("sqlite://"))
    locked = OperationalError("x", {}, Exception("database is locked"))
    message = explain_unusable("sqlite:///x.sqlite3", Path("x.sqlite3"), locked)
    assert "locked by another process" in message and "damaged" not in message
