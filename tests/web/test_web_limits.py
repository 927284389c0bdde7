"""Per-client and server-wide limits (web/limits.py): 429 + Retry-After, socket caps, shared rates.

The apps here run on a fake clock set before the first request, so no test sleeps and every
count is exact.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pocketgalaxy.web.limits import LimitError, Limits, TokenBucket, client_address
from pocketgalaxy.web.server import create_app
from pocketgalaxy.web.settings import Settings

TWO_PEOPLE = {"game": "adventure", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def limited(tmp_path: Path, clock: FakeClock):
    """limited(**settings) -> a started TestClient whose limits run on `clock`."""
    opened: list[TestClient] = []

    def _make(**overrides: Any) -> TestClient:
        settings = Settings(data_dir=tmp_path / f"d{len(opened)}", bot_delay_ms=0,
                            rate_burst=10_000, **overrides)
        client = TestClient(create_app(settings))
        client.app.state.limits.clock = clock  # type: ignore[attr-defined]
        client.__enter__()
        opened.append(client)
        return client

    yield _make
    for client in opened:
        client.__exit__(None, None, None)


def _refused(res: Any, status: int, code: str) -> dict[str, Any]:
    assert res.status_code == status, res.text
    assert res.json()["error"]["code"] == code
    assert int(res.headers["Retry-After"]) >= 1
    message: dict[str, Any] = res.json()["error"]
    return message


def test_rest_requests_per_second_per_client(limited, clock):
    client = limited(client_requests_per_s=2.0, client_requests_burst=3)
    for _ in range(3):
        assert client.get("/api/themes").status_code == 200
    err = _refused(client.get("/api/themes"), 429, "request/rate_limited")
    assert "2 requests per second" in err["message"]
    assert client.get("/").status_code == 200  # pages and static files are not counted
    clock.now += 0.5  # one token back at 2 per second
    assert client.get("/api/games").status_code == 200
    assert client.get("/api/games").status_code == 429


def test_games_created_per_hour_per_client(limited, clock):
    client = limited(client_games_per_hour=2)
    assert client.post("/api/games", json={**TWO_PEOPLE, "players": 9}).status_code == 400
    for _ in range(2):  # the refused attempt above cost nothing
        assert client.post("/api/games", json=TWO_PEOPLE).status_code == 201
    res = client.post("/api/games", json=TWO_PEOPLE)
    err = _refused(res, 429, "limit/games_per_hour")
    assert "2 games per hour" in err["message"]
    assert int(res.headers["Retry-After"]) == 1800  # half an hour to earn one back
    assert len(client.get("/api/games").json()) == 2
    clock.now += 1800
    assert client.post("/api/games", json=TWO_PEOPLE).status_code == 201


def test_live_games_server_wide(limited):
    client = limited(max_live_games=1)
    assert client.post("/api/games", json=TWO_PEOPLE).status_code == 201
    err = _refused(client.post("/api/games", json=TWO_PEOPLE), 503, "limit/live_games")
    assert "maximum of 1 games" in err["message"]
    assert len(client.get("/api/games").json()) == 1  # the refusal created nothing


def _refused_socket(client: TestClient, gid: str, fragment: str) -> None:
    with client.websocket_connect(f"/ws/{gid}") as ws:
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["error"]["code"] == "limit/connections"
        assert fragment in reply["error"]["message"]
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == 1013


def test_open_sockets_per_client_across_games(limited):
    client = limited(client_sockets=2)
    first = client.post("/api/games", json=TWO_PEOPLE).json()["game_id"]
    second = client.post("/api/games", json=TWO_PEOPLE).json()["game_id"]
    with client.websocket_connect(f"/ws/{first}") as a, \
            client.websocket_connect(f"/ws/{second}") as b:
        for ws in (a, b):
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
        _refused_socket(client, first, "at most 2 connections")
        a.send_json({"type": "ping"})  # the refusal touched nobody else
        assert a.receive_json() == {"type": "pong"}
    # Both closed: the count is given back.
    with client.websocket_connect(f"/ws/{first}") as c:
        c.send_json({"type": "ping"})
        assert c.receive_json() == {"type": "pong"}
    assert client.app.state.limits.sockets == 0  # type: ignore[attr-defined]


def test_open_connections_server_wide(limited):
    client = limited(client_sockets=0, max_connections=1)
    gid = client.post("/api/games", json=TWO_PEOPLE).json()["game_id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        _refused_socket(client, gid, "maximum of 1 connections")


def test_messages_per_second_are_shared_by_all_sockets_of_a_client(limited, clock):
    client = limited(client_messages_per_s=1.0, client_messages_burst=4)
    gid = client.post("/api/games", json=TWO_PEOPLE).json()["game_id"]
    with client.websocket_connect(f"/ws/{gid}") as a, client.websocket_connect(f"/ws/{gid}") as b:
        replies = []
        for _ in range(3):
            for ws in (a, b):
                ws.send_json({"type": "ping"})
                replies.append(ws.receive_json())
        kinds = [r["type"] for r in replies]
        assert kinds == ["pong"] * 4 + ["error"] * 2  # 4 in all, not 4 per socket
        assert {r["error"]["code"] for r in replies[4:]} == {"message/rate_limited"}
        assert "across all its connections" in replies[4]["error"]["message"]
        clock.now += 1.0  # the sockets stayed open; one message a second again
        b.send_json({"type": "ping"})
        assert b.receive_json() == {"type": "pong"}


def test_token_bucket_waits_and_refills():
    bucket = TokenBucket(rate=2.0, burst=2, now=0.0)
    assert bucket.take(0.0) == 0.0 and bucket.take(0.0) == 0.0
    assert bucket.take(0.0) == pytest.approx(0.5)
    assert bucket.take(0.25) == pytest.approx(0.25)
    assert bucket.take(0.5) == 0.0
    assert not bucket.is_full(0.5) and bucket.is_full(1.5)
    off = TokenBucket(rate=0, burst=1, now=0.0)
    assert all(off.take(0.0) == 0.0 for _ in range(100))


def test_clients_are_counted_apart_and_idle_ones_forgotten(clock):
    settings = replace(Settings(), client_requests_per_s=1.0, client_requests_burst=1,
                       client_sockets=1, client_table_size=3)
    limits = Limits(settings, clock=clock)
    limits.take_request("10.0.0.1")
    with pytest.raises(LimitError) as info:
        limits.take_request("10.0.0.1")
    assert info.value.code == "request/rate_limited" and info.value.retry_after == 1
    limits.take_request("10.0.0.2")  # another address has its own bucket
    limits.open_socket("10.0.0.3")
    with pytest.raises(LimitError):
        limits.open_socket("10.0.0.3")
    limits.open_socket("10.0.0.4")
    # Over the table size: the least recent client without a socket goes first.
    assert list(limits.clients) == ["10.0.0.2", "10.0.0.3", "10.0.0.4"]
    clock.now += 3600  # every bucket full again: clients at rest are dropped as others arrive
    limits.take_request("10.0.0.5")
    assert set(limits.clients) == {"10.0.0.3", "10.0.0.4", "10.0.0.5"}  # sockets kept
    limits.close_socket("10.0.0.3")
    limits.close_socket("10.0.0.4")
    assert limits.sockets == 0
    for i in range(100):
        limits.take_request(f"10.1.0.{i}")
    assert len(limits.clients) <= 3


@pytest.fixture
def env_settings() -> Iterator[Settings]:
    yield Settings.from_env({"POCKETGALAXY_CLIENT_GAMES_PER_HOUR": "5",
                             "POCKETGALAXY_CLIENT_REQUESTS_PER_S": "0.5",
                             "POCKETGALAXY_MAX_CONNECTIONS": "0"})


def test_limits_come_from_the_environment(env_settings):
    assert env_settings.client_games_per_hour == 5
    assert env_settings.client_requests_per_s == 0.5
    assert env_settings.max_connections == 0


def test_a_negative_limit_is_refused():
    from pocketgalaxy.core.errors import OptionsError

    with pytest.raises(OptionsError, match="client_sockets=-1 must be >= 0"):
        Settings.from_env({"POCKETGALAXY_CLIENT_SOCKETS": "-1"})


@pytest.mark.parametrize(
    ("client", "counted_as"),
    [
        (("203.0.113.7", 5000), "203.0.113.7"),
        (("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 5000), "2001:db8:1:2::/64"),
        (("2001:db8:1:2::1", 5000), "2001:db8:1:2::/64"),
        (("::ffff:198.51.100.9", 5000), "198.51.100.9"),
        (("testclient", 50000), "testclient"),
        (None, "unknown"),
    ],
)
def test_the_client_an_address_counts_as(client, counted_as):
    assert client_address({"type": "http", "client": client}) == counted_as
