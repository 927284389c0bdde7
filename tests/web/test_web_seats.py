"""Seats: a seat created with a name is reserved for its link; only seats created open are
offered in the lobby and can be claimed."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from pocketgalaxy.web.live import SeatInfo


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_named_seat_is_not_in_the_lobby_and_cannot_be_claimed(
    client: TestClient, create: Any
) -> None:
    made = create("adventure", [{"kind": "human", "name": "Alice"}, {"kind": "human"},
                                {"kind": "bot", "bot": "memory"}])
    gid, alice = made["game_id"], made["seats"][0]["token"]
    lobby = client.get("/api/games?open=true").json()
    assert [(g["game_id"], g["open_seats"]) for g in lobby] == [(gid, [1])]

    before = client.get(f"/api/games/{gid}").json()
    res = client.post(f"/api/games/{gid}/seats/0/claim", json={"name": "Mallory"})
    assert res.status_code == 409
    error = res.json()["error"]
    assert error["code"] == "seat/not_open"
    assert "seat 1 " in error["message"] and "created with a name" in error["message"]
    assert error["legal"] == ["1"]  # the seat that may be claimed
    assert client.get(f"/api/games/{gid}").json() == before  # nothing changed

    # Alice's link still works, over REST and the WebSocket.
    res = client.get(f"/api/games/{gid}/state?seat=0", headers=_auth(alice))
    assert res.status_code == 200 and res.json()["seat"] == 0
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "seat": 0, "token": alice})
        assert ws.receive_json()["type"] == "snapshot"
    assert client.get(f"/api/games/{gid}").json()["seats"][0]["name"] == "Alice"


def test_an_open_seat_can_be_claimed_once(client: TestClient, create: Any) -> None:
    made = create("perils", [{"kind": "human"}, {"kind": "bot", "bot": "teller"}])
    gid = made["game_id"]
    summary = client.get(f"/api/games/{gid}").json()
    assert summary["seats"][0]["open"] is True and summary["seats"][0]["name"] == "Player 1"
    res = client.post(f"/api/games/{gid}/seats/0/claim", json={"name": "Bo"})
    assert res.status_code == 200, res.text
    assert client.get("/api/games?open=true").json() == []
    res = client.post(f"/api/games/{gid}/seats/0/claim", json={"name": "Cy"})
    assert res.status_code == 409 and res.json()["error"]["code"] == "seat/not_open"


def test_seats_stored_before_reservations_keep_named_seats_reserved() -> None:
    named = SeatInfo.from_json({"seat": 0, "kind": "human", "name": "Alice"})
    default = SeatInfo.from_json({"seat": 1, "kind": "human", "name": "Player 2"})
    bot = SeatInfo.from_json({"seat": 2, "kind": "bot", "name": "Memory (computer)",
                              "bot": "memory"})
    assert named.reserved and not named.is_open
    assert not default.reserved and default.is_open
    assert not bot.reserved and not bot.is_open
    assert SeatInfo.from_json({"seat": 0, "kind": "human", "name": "Alice",
                               "reserved": False}).is_open
