"""A study on a real Ray instance, started here on loopback, gives the same bytes as local
worker processes."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

RAY = Path(sys.executable).with_name("ray")
# A throwaway cluster on loopback: no usage reports, and no token authentication (recent Ray
# turns it on and keeps a token in ~/.ray that another local instance may have replaced).
RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`ray start --head` on 127.0.0.1 with 2 CPUs; stopped (and its files removed) after."""
    port = _free_port()
    temp = tmp_path_factory.mktemp("ray")
    env = {**os.environ, **RAY_ENV}
    started = subprocess.run(
        [str(RAY), "start", "--head", "--node-ip-address", "127.0.0.1", "--port", str(port),
         "--num-cpus", "2", "--include-dashboard", "false", "--disable-usage-stats",
         "--temp-dir", str(temp)], capture_output=True, text=True, env=env, timeout=180,
        check=False)
    assert started.returncode == 0, started.stdout + started.stderr
    try:
        yield f"127.0.0.1:{port}"
    finally:
        subprocess.run([str(RAY), "stop", "--force"], capture_output=True, env=env, timeout=120,
                       check=False)
        shutil.rmtree(temp, ignore_errors=True)


def _study(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **RAY_ENV}
    return subprocess.run(
        [sys.executable, "-m", "pocketgalaxy", "balance", "adventure", "-n", "30", "--seed", "21",
         "-v", "base:", "-v", "nopeek:peek_after_failed_request=false", "--players",
         "memory,forgetful,random", "--out", str(out), "--json", *extra],
        capture_output=True, text=True, env=env, timeout=600, check=False)


def test_ray_backend_gives_the_same_bytes_as_local_workers(ray_head: str, tmp_path: Path) -> None:
    on_ray = _study(tmp_path / "ray", "--backend", "ray", "--address", ray_head)
    local = _study(tmp_path / "local", "--workers", "2")
    assert on_ray.returncode == 0, on_ray.stderr
    assert local.returncode == 0, local.stderr
    assert on_ray.stdout == local.stdout
    for name in ("games.csv", "games.jsonl", "summary.json"):
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()


def test_an_unreachable_cluster_is_one_clear_line(tmp_path: Path) -> None:
    done = _study(tmp_path / "none", "--backend", "ray", "--address",
                  f"127.0.0.1:{_free_port()}")
    assert done.returncode != 0
    assert "cannot reach the Ray cluster at 127.0.0.1:" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "none").exists()
