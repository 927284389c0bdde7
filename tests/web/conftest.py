"""Fixtures for the web tests: an app on a temp SQLite file, bots with no delay, and helpers."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pocketgalaxy.web.hub import Hub
from pocketgalaxy.web.server import create_app
from pocketgalaxy.web.settings import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # A generous burst: these tests fire messages as fast as they can (the limit has its own test).
    return Settings(data_dir=tmp_path / "data", bot_delay_ms=0, rate_burst=10_000)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        yield c


@pytest.fixture
def hub(client: TestClient) -> Hub:
    h: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return h


Creator = Callable[..., dict[str, Any]]


@pytest.fixture
def create(client: TestClient) -> Creator:
    """create(game, seats, players=None, **extra) -> the creation reply (asserts 201)."""

    def _create(game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        body = {"game": game, "players": len(seats), "seats": seats, **extra}
        res = client.post("/api/games", json=body)
        assert res.status_code == 201, res.text
        reply: dict[str, Any] = res.json()
        return reply

    return _create


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def bearer() -> Callable[[str], dict[str, str]]:
    return auth


def play_until(
    ws: Any, done: Callable[[dict[str, Any]], bool], limit: int = 20000
) -> dict[str, Any]:
    """Receive messages until `done(message)`; no sleeping, only waiting for the server."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if done(msg):
            return msg
    raise AssertionError("the server never reached the expected message")


@pytest.fixture
def receive_until() -> Callable[..., dict[str, Any]]:
    return play_until


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database for one test, dropped afterwards.

    PostgreSQL comes from `make test` (scripts/postgres.sh sets POCKETGALAXY_TEST_POSTGRES_URL).
    Without it the test skips, unless POCKETGALAXY_REQUIRE_POSTGRES=1 (CI), when it fails.
    """
    base = os.environ.get("POCKETGALAXY_TEST_POSTGRES_URL")
    if not base:
        if os.environ.get("POCKETGALAXY_REQUIRE_POSTGRES") == "1":
            pytest.fail("POCKETGALAXY_REQUIRE_POSTGRES=1 but no POCKETGALAXY_TEST_POSTGRES_URL "
                        "(run the tests with `make test`, which starts scripts/postgres.sh)")
        pytest.skip("no PostgreSQL for this run (make test starts one)")
    import sqlalchemy as sa

    name = f"pg_test_{secrets.token_hex(6)}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield sa.engine.make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The store under test: SQLite in a temp folder, and a fresh PostgreSQL database (`pg_url`)."""
    if request.param == "sqlite":
        return f"sqlite:///{(tmp_path / 'store.sqlite3').as_posix()}"
    url: str = request.getfixturevalue("pg_url")
    return url
