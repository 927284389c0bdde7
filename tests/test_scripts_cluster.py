"""scripts/redis.sh and scripts/cluster.sh: bad arguments are refused before anything starts, and
redis.sh starts a loopback Redis that answers and stops it again (on its own port and folder).

The whole cluster (`cluster.sh up`) is exercised by hand and by the load bench; the workers
themselves are tested by tests/browser/test_cluster.py.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, **env}, cwd=ROOT)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.mark.parametrize(("args", "words"), [
    (["up", "--workers", "0"], "--workers must be a whole number from 1 to 16, not '0'"),
    (["up", "--workers", "17"], "--workers must be a whole number from 1 to 16, not '17'"),
    (["up", "--workers", "three"], "--workers must be a whole number from 1 to 16, not 'three'"),
    (["up", "--workers"], "--workers needs a number (1..16)"),
    (["up", "--fast"], "unknown argument '--fast' (allowed: --workers N)"),
])
def test_cluster_up_refuses_bad_arguments_and_starts_nothing(tmp_path: Path, args: list[str],
                                                            words: str) -> None:
    run_dir = tmp_path / "run"
    done = _run([str(SCRIPTS / "cluster.sh"), *args], {"POCKETGALAXY_CLUSTER_DIR": str(run_dir)})
    assert done.returncode == 1
    assert done.stderr.strip() == f"cluster.sh: {words}"
    assert done.stdout == ""
    assert not run_dir.exists()  # nothing was started or written


def test_cluster_without_a_command_says_how_to_use_it(tmp_path: Path) -> None:
    done = _run([str(SCRIPTS / "cluster.sh"), "sideways"],
                {"POCKETGALAXY_CLUSTER_DIR": str(tmp_path / "run")})
    assert done.returncode == 2
    assert "usage: scripts/cluster.sh up [--workers N] | status | down" in done.stderr


def test_cluster_status_without_a_cluster_says_so(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    done = _run([str(SCRIPTS / "cluster.sh"), "status"], {"POCKETGALAXY_CLUSTER_DIR": str(run_dir)})
    assert done.returncode == 1
    assert done.stdout.strip() == f"cluster.sh: no cluster in {run_dir} (scripts/cluster.sh up)"


def test_cluster_up_refuses_a_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = _run([str(SCRIPTS / "cluster.sh"), "up", "--workers", "1"],
                    {"POCKETGALAXY_CLUSTER_DIR": str(tmp_path / "run"),
                     "POCKETGALAXY_CLUSTER_PORT": str(port)})
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"cluster.sh: port {port} is in use (set POCKETGALAXY_CLUSTER_PORT to another)")
    assert not (tmp_path / "run").exists()


def test_redis_script_starts_a_loopback_redis_and_stops_it(tmp_path: Path) -> None:
    if shutil.which("redis-server") is None:
        message = "no redis-server (apt-get install -y redis-server; `make test` installs it)"
        if os.environ.get("POCKETGALAXY_REQUIRE_REDIS") == "1":
            pytest.fail(f"{message}; POCKETGALAXY_REQUIRE_REDIS=1 demands Redis")
        pytest.skip(message)
    import redis

    port = _free_port()
    env = {"POCKETGALAXY_REDIS_PORT": str(port), "POCKETGALAXY_REDIS_DIR": str(tmp_path / "r")}
    started = _run([str(SCRIPTS / "redis.sh"), "start"], env)
    try:
        assert started.returncode == 0, started.stderr
        assert started.stdout.strip() == f"redis://127.0.0.1:{port}/0"
        client = redis.Redis.from_url(started.stdout.strip())
        try:
            assert client.ping() is True
            assert client.config_get("bind")["bind"] == "127.0.0.1"
            assert client.config_get("save")["save"] == ""  # nothing written to disk
        finally:
            client.close()
        again = _run([str(SCRIPTS / "redis.sh"), "start"], env)  # already up: the same URL
        assert again.stdout.strip() == started.stdout.strip()
    finally:
        stopped = _run([str(SCRIPTS / "redis.sh"), "stop"], env)
    assert stopped.returncode == 0
    assert not (tmp_path / "r" / "redis.pid").exists()
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0  # nothing listens any more
