"""The edge on a real uvicorn server: the issue's bad messages get replies and log no traceback.

One server subprocess on a free loopback port and a temp SQLite file; it is stopped at the end
(bounded: a handful of requests and messages, every wait with a timeout).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect as ws_connect


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, list[str]]]:
    """(base URL, the server's output lines so far); the limits are the defaults."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pocketgalaxy.web.server", "--host", "127.0.0.1", "--port",
         str(port), "--data-dir", str(tmp_path), "--bot-delay-ms", "0", "--log-level", "info"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "POCKETGALAXY_CLIENT_SOCKETS": "2"},
    )
    assert proc.stdout is not None
    lines: list[str] = []
    for line in proc.stdout:
        lines.append(line)
        if "Uvicorn running on" in line:
            break
    else:
        raise AssertionError("server did not start:\n" + "".join(lines))
    stdout = proc.stdout
    reader = threading.Thread(target=lambda: lines.extend(stdout), daemon=True)
    reader.start()
    try:
        yield f"127.0.0.1:{port}", lines
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        reader.join(timeout=5)
        stdout.close()


def test_bad_messages_on_a_real_server_get_replies_and_no_traceback(live):
    address, lines = live
    http = httpx.Client(base_url=f"http://{address}", timeout=20)
    made = http.post("/api/games", json={"game": "adventure", "players": 2,
                                         "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert made.status_code == 201
    assert made.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in made.headers["content-security-policy"]
    gid = made.json()["game_id"]
    bad = http.post("/api/games", content=b"[" * 1000 + b"]" * 1000,
                    headers={"Content-Type": "application/json"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "message/too_deep"
    messages = [
        ("[" * 1000 + "]" * 1000, "message/too_deep"),
        ('{"type": "act", "index": ' + "7" * 4400 + ', "action": {}}', "message/number_too_long"),
        ('{"type": "hello", "seat": 0, "token": "abc\\ud800"}', "text/invalid"),
    ]
    with ws_connect(f"ws://{address}/ws/{gid}", open_timeout=20) as ws:
        for raw, code in messages:
            ws.send(raw)
            reply = json.loads(ws.recv(timeout=20))
            assert reply["type"] == "error" and reply["error"]["code"] == code, reply
        ws.send(b'{"type": "ping", "x": "\xed\xa0\x80"}')  # binary, not UTF-8
        assert json.loads(ws.recv(timeout=20))["error"]["code"] == "action/malformed"
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=20)) == {"type": "pong"}
        # The per-address socket cap (2 here): the third is told why and closed with 1013.
        with ws_connect(f"ws://{address}/ws/{gid}", open_timeout=20) as second:
            second.send(json.dumps({"type": "ping"}))
            assert json.loads(second.recv(timeout=20)) == {"type": "pong"}
            with ws_connect(f"ws://{address}/ws/{gid}", open_timeout=20) as third:
                refusal = json.loads(third.recv(timeout=20))
                assert refusal["error"]["code"] == "limit/connections"
                with pytest.raises(Exception) as info:
                    third.recv(timeout=20)
                assert getattr(getattr(info.value, "rcvd", None), "code", None) == 1013
    http.close()
    output = "".join(lines)
    assert "Traceback" not in output and "ERROR" not in output, output
