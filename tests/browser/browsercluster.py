"""What the browser cluster tests share: real workers on one PostgreSQL and one Redis, a proxy.

(Named apart from tests/web/cluster/clusterkit.py: test folders are not packages, so two modules
of one name would shadow each other when the whole suite runs.)

`Cluster` starts N workers (browserkit's `LiveServer`, i.e. `python -m pocketgalaxy.web.server`,
the process `pocketgalaxy serve` runs) on free loopback ports, against a fresh PostgreSQL
database made for this test session and the Redis of `make test`, each with its own worker id and
data folder, and waits until each answers `/api/health` as a member of a cluster. The first
worker starts alone (it brings the schema up to date); the others start after it.

`FailoverProxy` stands in for the reverse proxy of a real site (nginx, Caddy): a plain TCP
forwarder on its own loopback port that sends each new connection to the first worker of its
list that accepts one. A page opened through it keeps its address when its worker dies: its
socket is cut, it reconnects, and lands on the next worker, as behind a real proxy.

PostgreSQL and Redis come from `make test` (POCKETGALAXY_TEST_POSTGRES_URL from
scripts/postgres.sh, POCKETGALAXY_TEST_REDIS_URL from scripts/redis.sh). Without them the cluster
tests skip, unless POCKETGALAXY_REQUIRE_POSTGRES=1 or POCKETGALAXY_REQUIRE_REDIS=1 (CI), when a
missing one fails them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from browserkit import LiveServer

HEALTH_TIMEOUT_S = 60.0
LEASE_TTL_S = 3  # short, so a dead owner's games move on within seconds in the tests


def require_cluster_parts() -> tuple[str, str]:
    """(PostgreSQL URL, Redis URL) of this run, or skip/fail saying which one is missing."""
    parts = {
        "POSTGRES": os.environ.get("POCKETGALAXY_TEST_POSTGRES_URL", ""),
        "REDIS": os.environ.get("POCKETGALAXY_TEST_REDIS_URL", ""),
    }
    for name in ("POSTGRES", "REDIS"):  # a fixed order: the message names the first missing
        if parts[name]:
            continue
        script = "scripts/postgres.sh" if name == "POSTGRES" else "scripts/redis.sh"
        message = (f"no POCKETGALAXY_TEST_{name}_URL for the cluster tests "
                   f"(run them with `make test`, which starts {script})")
        if os.environ.get(f"POCKETGALAXY_REQUIRE_{name}") == "1":
            pytest.fail(f"{message}; POCKETGALAXY_REQUIRE_{name}=1 demands they run")
        pytest.skip(message)
    return parts["POSTGRES"], parts["REDIS"]


class Cluster:
    """N workers on one fresh PostgreSQL database and one Redis; `stop()` removes the database."""

    def __init__(self, tmp: Path, postgres_url: str, redis_url: str, *, workers: int = 3,
                 bot_delay_ms: int = 0) -> None:
        import sqlalchemy as sa

        self._sa = sa
        self.database = f"pg_cluster_{secrets.token_hex(6)}"
        self._admin = sa.create_engine(postgres_url, isolation_level="AUTOCOMMIT")
        with self._admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{self.database}"'))
        self.database_url = sa.engine.make_url(postgres_url).set(
            database=self.database).render_as_string(hide_password=False)
        self.redis_url = redis_url
        self.workers: list[LiveServer] = []
        for i in range(1, workers + 1):
            env = {
                "POCKETGALAXY_REDIS_URL": redis_url,
                "POCKETGALAXY_WORKER_ID": f"w{i}",
                "POCKETGALAXY_LEASE_TTL_S": str(LEASE_TTL_S),
                # The tests' pages and clients all come from 127.0.0.1: lift the per-client caps.
                "POCKETGALAXY_CLIENT_REQUESTS_PER_S": "0",
                "POCKETGALAXY_CLIENT_SOCKETS": "0",
                "POCKETGALAXY_CLIENT_MESSAGES_PER_S": "0",
            }
            self.workers.append(LiveServer(tmp / f"w{i}", database_url=self.database_url,
                                           env=env, bot_delay_ms=bot_delay_ms))

    # -- life -------------------------------------------------------------------------------------
    def start(self) -> None:
        first, *others = self.workers
        self.start_worker(first)
        for worker in others:
            worker.start()
        for worker in others:
            self.wait_healthy(worker)

    def start_worker(self, worker: LiveServer) -> None:
        worker.start()
        self.wait_healthy(worker)

    def ensure_up(self) -> None:
        """Start again any worker an earlier test killed (on its own port and data folder)."""
        for worker in self.workers:
            if worker.proc is None or worker.proc.poll() is not None:
                worker.proc = None
                self.start_worker(worker)

    def wait_healthy(self, worker: LiveServer) -> dict[str, Any]:
        deadline = time.monotonic() + HEALTH_TIMEOUT_S
        last: object = None
        while time.monotonic() < deadline:
            if worker.proc is None or worker.proc.poll() is not None:
                break
            try:
                reply = httpx.get(f"{worker.url}/api/health", timeout=2.0)
                last = f"{reply.status_code} {reply.text[:200]}"
                if reply.status_code == 200 and reply.json().get("cluster") is True:
                    health: dict[str, Any] = reply.json()
                    return health
                if reply.status_code in (200, 404):  # up, but no cluster: waiting cannot help
                    break
            except httpx.HTTPError as exc:
                last = exc
            time.sleep(0.1)
        raise RuntimeError(f"worker {worker.url} did not answer /api/health as a cluster member "
                           f"(last: {last}):\n" + "".join(worker.output[-40:]))

    def stop(self) -> None:
        for worker in self.workers:
            with contextlib.suppress(Exception):
                worker.stop()
        with self._admin.connect() as conn:
            conn.execute(self._sa.text(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)'))
        self._admin.dispose()

    # -- looking at it ----------------------------------------------------------------------------
    def alive(self) -> list[LiveServer]:
        return [w for w in self.workers if w.proc is not None and w.proc.poll() is None]

    def health(self, worker: LiveServer) -> dict[str, Any]:
        reply = httpx.get(f"{worker.url}/api/health", timeout=5.0)
        assert reply.status_code == 200, reply.text
        result: dict[str, Any] = reply.json()
        return result

    def leases(self) -> dict[str, int]:
        """Leases held by each living worker, by worker id (from /api/health)."""
        out: dict[str, int] = {}
        for worker in self.alive():
            health = self.health(worker)
            out[str(health["worker"])] = int(health["leases"])
        return out

    def worker(self, worker_id: str) -> LiveServer:
        return self.workers[int(worker_id.removeprefix("w")) - 1]

    def stored_actions(self, game_id: str) -> list[tuple[int, int, str]]:
        """The action log as PostgreSQL holds it: (idx, seat, by), by index."""
        sa = self._sa
        engine = sa.create_engine(self.database_url)
        try:
            with engine.connect() as conn:
                rows = conn.execute(sa.text(
                    "SELECT idx, seat, by FROM actions WHERE game_id = :g ORDER BY idx, id"),
                    {"g": game_id}).all()
        finally:
            engine.dispose()
        return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]


class FailoverProxy:
    """A loopback TCP forwarder: each new connection goes to the first backend that accepts it."""

    def __init__(self, backends: list[int]) -> None:
        self.backends = list(backends)
        self.used: Counter[int] = Counter()  # connections forwarded, by backend port
        self._open: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.base_events.Server | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the proxy did not start")
        self.url = f"http://127.0.0.1:{self.port}"

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port: int = sock.getsockname()[1]
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._handle, sock=sock))
        self._ready.set()
        self._loop.run_forever()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        for port in self.backends:
            try:
                upstream = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", port), timeout=2.0)
            except (OSError, TimeoutError):
                continue
            self.used[port] += 1
            break
        if upstream is None:
            writer.close()
            return
        up_reader, up_writer = upstream
        self._open.update((writer, up_writer))
        try:
            await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))
        finally:
            self._open.difference_update((writer, up_writer))

    @staticmethod
    async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()
        except (OSError, ConnectionError):
            pass
        finally:
            # One side ended (a killed worker resets its sockets): end the other side too.
            with contextlib.suppress(Exception):
                sink.close()

    def stop(self) -> None:
        def _close() -> None:
            if self._server is not None:
                self._server.close()
            for writer in list(self._open):
                writer.close()
            self._loop.call_later(0.2, self._loop.stop)  # let the pipes see their ends

        self._loop.call_soon_threadsafe(_close)
        self._thread.join(timeout=10)
        self._loop.close()
