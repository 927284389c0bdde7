"""Fixtures for the cluster tests: a real Redis for the session, a fresh PostgreSQL database per
test, and workers (hubs) started on them inside one event loop.

Redis: `redis-server` on a free loopback port, no persistence, stopped at the end of the
session. A missing `redis-server` FAILS the tests (install it: `apt-get install redis-server`,
which `make test` does through scripts/redis.sh). PostgreSQL comes from `make test`
(POCKETGALAXY_TEST_POSTGRES_URL) through tests/web/conftest.py's `pg_url`, as for the store's
tests: without it these tests skip, unless POCKETGALAXY_REQUIRE_POSTGRES=1 (CI), where they fail.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from clusterkit import LEASE_TTL_S, Scenario, free_port
from loopkit import run_on_own_loop

from pocketgalaxy.web.hub import Hub
from pocketgalaxy.web.settings import Settings
from pocketgalaxy.web.store import Store


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A throwaway redis-server on 127.0.0.1 for the whole session."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is not installed: the cluster tests need a real Redis "
                    "(apt-get install redis-server; `make test` installs it)")
    port = free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--daemonize", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"redis-server did not start on 127.0.0.1:{port}")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def run_cluster(
    tmp_path: Path, pg_url: str, redis_url: str
) -> Callable[[Scenario], None]:
    """run_cluster(scenario): run `scenario(start_worker)` on its own event loop in a thread.

    `await start_worker(name, **settings)` starts a hub as one worker (Redis + PostgreSQL);
    every worker still running at the end is stopped and its store disposed."""

    def _run(scenario: Scenario) -> None:
        async def main() -> None:
            hubs: list[Hub] = []

            async def start_worker(name: str, **extra: Any) -> Hub:
                values: dict[str, Any] = {"bot_delay_ms": 0, "lease_ttl_s": LEASE_TTL_S}
                values.update(extra)
                settings = Settings(data_dir=tmp_path / name, database_url=pg_url,
                                    redis_url=redis_url, worker_id=name, **values)
                hub = Hub(Store(pg_url), settings)
                hubs.append(hub)
                await hub.start()
                return hub

            try:
                await scenario(start_worker)
            finally:
                for hub in hubs:
                    if not hub.closing:
                        await hub.stop()
                    hub.store.dispose()

        run_on_own_loop(main())

    return _run
