"""`pocketgalaxy db check` and `pocketgalaxy db backup`: reports, exit statuses, and a backup
taken while a real server process is writing holds every acknowledged action."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient
from typer.testing import CliRunner

from pocketgalaxy.cli.app import app
from pocketgalaxy.web.marker import MARKER_NAME
from pocketgalaxy.web.server import create_app
from pocketgalaxy.web.settings import Settings
from pocketgalaxy.web.store import Store

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def _url(path: Path) -> str:
    return f"sqlite:///{path.as_posix()}"


def _play(http: Any, made: dict[str, Any], n: int, rng: random.Random | None = None) -> int:
    gid = made["game_id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    index = 0
    for _ in range(n):
        seat = http.get(f"/api/games/{gid}").json()["to_act"]
        if seat is None:
            break
        head = {"Authorization": f"Bearer {tokens[seat]}"}
        state = http.get(f"/api/games/{gid}/state", params={"seat": seat}, headers=head).json()
        action = rng.choice(state["legal"]) if rng else state["legal"][0]
        res = http.post(f"/api/games/{gid}/actions", headers=head,
                        json={"seat": seat, "action": action, "index": state["index"]})
        assert res.status_code == 200, res.text
        index = res.json()["index"]
    return index


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A data folder holding three games: running, running further, and one finished by bots."""
    folder = tmp_path / "data"
    with TestClient(create_app(Settings(data_dir=folder, bot_delay_ms=0))) as client:
        for n in (1, 4):
            made = client.post("/api/games", json={"game": "adventure", "players": 2,
                                                   "seats": HUMANS}).json()
            _play(client, made, n)
        bots = client.post("/api/games", json={"game": "adventure", "players": 2,
                                               "seats": [{"kind": "bot"}] * 2}).json()
        with client.websocket_connect(f"/ws/{bots['game_id']}") as ws:
            ws.send_json({"type": "hello", "seat": None, "token": None, "since": 0})
            while ws.receive_json().get("status") != "over":
                pass
    return folder


def _check(*args: str) -> Any:
    return CliRunner().invoke(app, ["db", "check", *args])


def _db(folder: Path) -> Path:
    return folder / "pocketgalaxy.sqlite3"


def test_check_reports_every_game(data_dir: Path) -> None:
    result = _check("--data-dir", str(data_dir), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] is True and report["problems"] == []
    assert [(g["state"], g["actions"]) for g in report["games"]][:2] == [("ok", 1), ("ok", 4)]
    assert report["games"][2]["state"] == "over" and report["games"][2]["actions"] > 0
    assert report["counts"] == {"ok": 2, "over": 1} and report["marker_games"] == 3
    text = _check("--data-dir", str(data_dir))
    assert text.exit_code == 0
    assert "3 game(s): 2 ok, 1 over" in text.stdout


def test_check_finds_a_damaged_game_and_changes_nothing(data_dir: Path) -> None:
    url = _url(_db(data_dir))
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        gid = conn.execute(sa.text("SELECT id FROM games WHERE action_count = 4")).scalar_one()
        conn.execute(sa.text("DELETE FROM actions WHERE game_id = :g AND idx = 3"), {"g": gid})
    result = _check("--database-url", url, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    damaged = [g for g in report["games"] if g["state"] == "damaged"]
    assert [g["game_id"] for g in damaged] == [gid]
    assert "idx 3 missing" in damaged[0]["damage"]
    assert report["counts"] == {"damaged": 1, "ok": 1, "over": 1}
    with engine.connect() as conn:  # the check only reads: no verdict stored, nothing repaired
        assert conn.execute(sa.text("SELECT damage FROM games WHERE id = :g"),
                            {"g": gid}).scalar_one() is None
    engine.dispose()
    text = _check("--database-url", url)
    assert text.exit_code == 1
    assert "damaged" in text.stdout and "idx 3 missing" in text.stderr


def test_check_of_a_missing_or_truncated_database(data_dir: Path, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.sqlite3"
    result = _check("--database-url", _url(missing))
    assert result.exit_code == 2 and "there is no database file" in result.stderr
    assert not missing.exists()  # not created by looking
    db = _db(data_dir)
    for side in data_dir.glob(db.name + "-*"):
        side.unlink()
    with db.open("r+b") as fh:
        fh.truncate(40)
    result = _check("--data-dir", str(data_dir))
    assert result.exit_code == 2 and "cannot be read" in result.stderr
    assert "Traceback" not in result.output


def test_check_compares_with_the_marker(data_dir: Path) -> None:
    marker = data_dir / MARKER_NAME
    data = json.loads(marker.read_text())
    marker.write_text(json.dumps({**data, "games": 5}))
    result = _check("--data-dir", str(data_dir), "--json")
    assert result.exit_code == 1
    assert "remembers 5" in json.loads(result.stdout)["problems"][0]


def test_backup_copies_and_refuses_to_overwrite(data_dir: Path, tmp_path: Path) -> None:
    dest = tmp_path / "copies" / "one.sqlite3"
    result = CliRunner().invoke(app, ["db", "backup", str(dest), "--data-dir", str(data_dir)])
    assert result.exit_code == 0, result.output
    assert "Backed up 3 game(s)" in result.stdout and "every game checks out" in result.stdout
    assert _check("--database-url", _url(dest)).exit_code == 0
    again = CliRunner().invoke(app, ["db", "backup", str(dest), "--data-dir", str(data_dir)])
    assert again.exit_code == 2 and "already exists" in again.stderr
    forced = CliRunner().invoke(
        app, ["db", "backup", str(dest), "--data-dir", str(data_dir), "--force"])
    assert forced.exit_code == 0, forced.output
    assert not Path(str(dest) + ".partial").exists()


def test_backup_of_postgresql_points_to_pg_dump(tmp_path: Path) -> None:
    url = "postgresql+psycopg://someone:secret@127.0.0.1:5432/games"
    result = CliRunner().invoke(app, ["db", "backup", str(tmp_path / "x.dump"),
                                      "--database-url", url])
    assert result.exit_code == 2
    assert "pg_dump --format=custom" in result.stderr and "pg_restore" in result.stderr
    assert "secret" not in result.output
    assert not (tmp_path / "x.dump").exists()


# -- a backup while a server process writes ------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    folder = tmp_path / "live"
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pocketgalaxy.web.server", "--host", "127.0.0.1", "--port",
         str(port), "--data-dir", str(folder), "--bot-delay-ms", "0", "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        # One address plays as fast as it can: lift the per-client request rate for this server.
        env={**os.environ, "PYTHONUNBUFFERED": "1", "POCKETGALAXY_CLIENT_REQUESTS_PER_S": "0"},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/api/themes", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "server did not start"
            time.sleep(0.1)
        yield base, folder
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        if proc.stdout is not None:
            proc.stdout.close()


def test_a_backup_while_the_server_writes_holds_every_acknowledged_action(
    server: tuple[str, Path], tmp_path: Path
) -> None:
    base, folder = server
    acked: dict[str, int] = {}
    lock = threading.Lock()
    stop = threading.Event()
    failures: list[BaseException] = []

    def writer() -> None:
        rng = random.Random(8)
        try:
            with httpx.Client(base_url=base, timeout=20) as http:
                games = [http.post("/api/games", json={"game": "adventure", "players": 2,
                                                       "seats": HUMANS}).json()
                         for _ in range(4)]
                deadline = time.monotonic() + 60
                while not stop.is_set() and time.monotonic() < deadline:
                    made = rng.choice(games)
                    index = _play(http, made, 1, rng)
                    with lock:  # acknowledged: the server replied 200 for this index
                        acked[made["game_id"]] = max(acked.get(made["game_id"], 0), index)
        except BaseException as exc:  # reported by the test thread
            failures.append(exc)

    thread = threading.Thread(target=writer)
    thread.start()
    copies: list[tuple[Path, dict[str, int]]] = []
    try:
        for i in range(3):
            deadline = time.monotonic() + 30
            while sum(acked.values()) < 15 * (i + 1) and time.monotonic() < deadline:
                time.sleep(0.05)
            with lock:
                before = dict(acked)
            dest = tmp_path / f"copy{i}.sqlite3"
            result = CliRunner().invoke(app, ["db", "backup", str(dest), "--data-dir",
                                              str(folder)])
            assert result.exit_code == 0, result.output
            copies.append((dest, before))
    finally:
        stop.set()
        thread.join(timeout=60)
    assert not failures, failures
    assert all(before for _, before in copies) and sum(copies[-1][1].values()) >= 45
    live = Store(_url(folder / "pocketgalaxy.sqlite3"))
    try:
        for dest, before in copies:
            assert _check("--database-url", _url(dest)).exit_code == 0
            copy = Store(_url(dest))
            try:
                for gid, index in before.items():
                    held = [(a.idx, a.seat, a.action) for a in copy.load_actions(gid)]
                    assert len(held) >= index  # every action acknowledged before the copy
                    server_rows = [(a.idx, a.seat, a.action) for a in live.load_actions(gid)]
                    assert held == server_rows[: len(held)]
            finally:
                copy.dispose()
    finally:
        live.dispose()
