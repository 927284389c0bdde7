"""The real server as a subprocess on loopback: start, SIGKILL, restart on the same database.

`python -m pocketgalaxy.web.server` with uvicorn, a temp SQLite file and no bot delay. A reader
thread drains its output into `output` (so the pipe never fills and the log can be searched
afterwards for tracebacks). `SERVER_ENV` is the ONE place that lifts the server's per-client
limits for the suite's own server: the load driver and the fuzzer send far faster than a person.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx

STARTUP_TIMEOUT_S = 60.0

# Limits that guard against abuse, lifted for the suite's own server (loopback, one client
# address, deliberately fast). New limit settings belong here, e.g. games per hour, REST
# requests per second, sockets per address, server-wide live games and connections.
SERVER_ENV: dict[str, str] = {
    "PYTHONUNBUFFERED": "1",
    "POCKETGALAXY_RATE_PER_S": "100000",
    "POCKETGALAXY_RATE_BURST": "100000",
    # Per-client limits (web/limits.py): 0 turns each off. The suite is one address playing
    # and fuzzing far faster than any person; the limits have their own tests in tests/web.
    "POCKETGALAXY_CLIENT_REQUESTS_PER_S": "0",
    "POCKETGALAXY_CLIENT_MESSAGES_PER_S": "0",
    "POCKETGALAXY_CLIENT_SOCKETS": "0",
    "POCKETGALAXY_CLIENT_GAMES_PER_HOUR": "0",
}

# A line of the server's log that means something went wrong inside it.
_PROBLEM = re.compile(
    r"Traceback \(most recent call last\)|^ERROR\b|Exception in ASGI application"
    r"|cannot be rebuilt|could not store",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _inherited() -> dict[str, str]:
    """This process's environment without server settings that would point elsewhere."""
    return {k: v for k, v in os.environ.items()
            if k not in ("POCKETGALAXY_DATABASE_URL", "POCKETGALAXY_DATA_DIR")}


class ServerDidNotStart(RuntimeError):
    """The process ended (or never said it listens) before serving; `output` is what it said."""

    def __init__(self, output: str, returncode: int | None) -> None:
        super().__init__(f"the server did not start (exit {returncode}):\n{output}")
        self.output = output
        self.returncode = returncode


class ServerProcess:
    """One server, restartable on the same port, database and data folder."""

    def __init__(self, data_dir: Path, *, env: dict[str, str] | None = None) -> None:
        self.data_dir = data_dir
        # The server's default database: SQLite inside the data folder (no --database-url), so
        # the folder and its database belong together as in a real installation.
        self.database = data_dir / "pocketgalaxy.sqlite3"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.env = {**SERVER_ENV, **(env or {})}
        self.output: list[str] = []
        self.starts = 0
        self.kills = 0
        self.proc: subprocess.Popen[str] | None = None
        self._drain: threading.Thread | None = None

    # -- life cycle -----------------------------------------------------------------------------
    def start(self) -> None:
        """Start and wait until uvicorn listens; ServerDidNotStart if it exits first."""
        assert self.proc is None, "already running"
        cmd = [
            sys.executable, "-m", "pocketgalaxy.web.server",
            "--host", "127.0.0.1", "--port", str(self.port),
            "--data-dir", str(self.data_dir),
            "--bot-delay-ms", "0",
            "--log-level", "info",
        ]
        first_line = len(self.output)
        self.output.append(f"--- start {self.starts + 1} ---\n")
        proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**_inherited(), **self.env}, errors="backslashreplace",
        )
        self.proc = proc
        ready = threading.Event()
        listening = threading.Event()

        def drain() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                self.output.append(line)
                if "Uvicorn running on" in line:
                    listening.set()
                    ready.set()
            ready.set()  # the process ended: stop waiting; the check below reports it

        self._drain = threading.Thread(target=drain, daemon=True)
        self._drain.start()
        ready.wait(STARTUP_TIMEOUT_S)
        if not listening.is_set() or proc.poll() is not None:
            self._reap(kill=True)
            raise ServerDidNotStart("".join(self.output[first_line:]), proc.returncode)
        self.starts += 1

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks; whatever was committed must survive."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.kills += 1
        self._reap(kill=True)

    def stop(self) -> None:
        """SIGTERM (uvicorn's clean shutdown), SIGKILL if it hangs."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
        self._reap(kill=False)

    def restart_after_kill(self) -> None:
        self.kill()
        self.start()

    def _reap(self, *, kill: bool) -> None:
        proc = self.proc
        if proc is None:
            return
        try:
            proc.wait(timeout=10 if kill else 20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        if self._drain is not None:
            self._drain.join(timeout=5)
        if proc.stdout is not None:
            proc.stdout.close()
        self.proc = None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    # -- the log ----------------------------------------------------------------------------------
    def mark(self) -> int:
        """A position in the log, for `problems(since=...)`."""
        return len(self.output)

    def problems(self, since: int = 0) -> list[str]:
        """Log lines since `since` that show an error inside the server (tracebacks, ERROR)."""
        return [line.rstrip() for line in self.output[since:] if _PROBLEM.search(line)]

    def log(self, since: int = 0) -> str:
        return "".join(self.output[since:])

    # -- REST, for setting up and checking --------------------------------------------------------
    def client(self, timeout: float = 30.0) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=timeout)

    def api(self, method: str, path: str, body: Any = None, token: str | None = None,
            expect: int | None = None) -> Any:
        """One request; asserts the status (`expect`, or any 2xx) and returns the JSON."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        with self.client() as http:
            res = http.request(method, path, json=body, headers=headers)
        if expect is None:
            assert res.status_code < 300, f"{method} {path}: {res.status_code} {res.text}"
        else:
            assert res.status_code == expect, f"{method} {path}: {res.status_code} {res.text}"
        return res.json()
