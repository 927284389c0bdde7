"""A study on a real Ray instance, started here on loopback, gives the same bytes as local
worker processes."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
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
    """`ray start --head --block` on 127.0.0.1 with 2 CPUs, in its own process group, stopped
    after by signalling that group only: `ray stop` would stop every Ray instance on the
    machine, another program's too."""
    port = _free_port()
    temp = tmp_path_factory.mktemp("ray")
    env = {**os.environ, **RAY_ENV}
    log = (temp / "ray-start.log").open("wb")
    proc = subprocess.Popen(
        [str(RAY), "start", "--head", "--block", "--node-ip-address", "127.0.0.1", "--port",
         str(port), "--num-cpus", "2", "--include-dashboard", "false", "--disable-usage-stats",
         "--temp-dir", str(temp)], stdout=log, stderr=subprocess.STDOUT, env=env,
        start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            assert proc.poll() is None, (temp / "ray-start.log").read_text(errors="replace")
            if "--block" in (temp / "ray-start.log").read_text(errors="replace"):
                break  # ray start has started every process and now waits
            assert time.monotonic() < deadline, "ray start did not come up within 180 s"
            time.sleep(0.5)
        yield f"127.0.0.1:{port}"
    finally:
        for sig, wait in ((signal.SIGTERM, 30), (signal.SIGKILL, 10)):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                proc.wait(timeout=wait)
                time.sleep(1)  # let the group's other processes go too
            except subprocess.TimeoutExpired:
                continue
        log.close()
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


def test_batches_keep_every_cpu_busy_to_the_end() -> None:
    from pocketgalaxy.sim.ray_runner import DEFAULT_BATCH, TASKS_PER_CPU, batch_size

    assert batch_size(40_000, 2) == DEFAULT_BATCH  # a designer's study: full batches
    assert batch_size(3000, 2) == 3000 // (2 * TASKS_PER_CPU)  # smaller, for a short tail
    assert batch_size(10, 2) == 1
    assert batch_size(0, 0) == 1


def test_prestart_gives_each_cpu_its_own_warm_worker(ray_head: str) -> None:
    env = {**os.environ, **RAY_ENV}
    code = ("import ray; from pocketgalaxy.sim.ray_runner import prestart_workers; "
            f"ray.init(address='{ray_head}', log_to_driver=False); "
            "print(prestart_workers(('perils',))); ray.shutdown()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "2"  # the head has 2 CPUs


def test_a_private_instance_runs_its_workers_at_the_niceness_of_local_workers() -> None:
    code = "\n".join([
        "import os, ray",
        "from pocketgalaxy.sim.ray_runner import ray_session",
        "def nice() -> int:",
        "    return os.nice(0)",
        "with ray_session(None):",
        "    print(ray.get(ray.remote(nice).remote()), os.nice(0))",
    ])
    env = {**os.environ, **RAY_ENV}
    env.pop("RAY_worker_niceness", None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    worker, driver = done.stdout.strip().splitlines()[-1].split()
    assert worker == driver  # Ray's own default would be 15 above the driver
