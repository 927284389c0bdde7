"""The WebSocket protocol: hello, snapshots, acting, updates, refusals that keep the socket open."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from pocketgalaxy.session import Session
from pocketgalaxy.web.server import create_app
from pocketgalaxy.web.settings import Settings


def _hello(ws: Any, seat: int | None = None, token: str | None = None, since: int = 0) -> None:
    ws.send_json({"type": "hello", "seat": seat, "token": token, "since": since})


def _expect_error(ws: Any, code: str) -> dict[str, Any]:
    msg = ws.receive_json()
    assert msg["type"] == "error", msg
    assert msg["error"]["code"] == code, msg
    assert msg["error"]["message"] and isinstance(msg["error"]["legal"], list)
    return dict(msg["error"])


def _still_open(ws: Any) -> None:
    ws.send_json({"type": "ping"})
    assert ws.receive_json() == {"type": "pong"}


def test_a_person_plays_several_turns_over_the_socket(client, create, hub):
    made = create("adventure", [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "memory"}])
    gid, token = made["game_id"], made["seats"][0]["token"]
    rng = random.Random(5)
    with client.websocket_connect(f"/ws/{gid}") as ws:
        _hello(ws, 0, token)
        msg = ws.receive_json()
        assert msg["type"] == "snapshot" and msg["seat"] == 0 and msg["game"] == "adventure"
        assert msg["seats"][0] == {"seat": 0, "name": "Ada", "kind": "human", "connected": True,
                                   "bot": None, "taken_over": False, "takeover_reason": None,
                                   "open": False}
        mine = 0
        while mine < 6 and msg["status"] == "running":
            if msg["legal"]:
                assert msg["to_act"] == 0
                assert msg["legal"] == [
                    a.to_json() for a in hub.live[gid].session.legal_actions(0)]
                at = msg["index"]
                ws.send_json({"type": "act", "action": rng.choice(msg["legal"]), "index": at})
                mine += 1
                msg = ws.receive_json()
                assert msg["type"] == "update", msg
                assert msg["index"] == at + 1
                assert msg["events"] and {e["index"] for e in msg["events"]} == {at}
            else:
                msg = ws.receive_json()
                assert msg["type"] == "update"
        assert mine == 6 or msg["status"] == "over"
        # The computer seat may already have moved on, so compare with the game as it stood at
        # the update's index, rebuilt from its record.
        live = hub.live[gid]
        at = msg["index"]
        record = copy.deepcopy(live.session.record)
        del record.actions[at:]
        then = Session.from_record(live.session.rules, record)
        assert msg["view"] == then.view(0).to_json()
        assert hub.store.count_actions(gid) >= at and live.index >= at
        assert live.by[:at].count("person") == mine


def test_every_bad_message_is_refused_and_the_socket_stays_open(client, create, hub):
    made = create("adventure", [{"kind": "human"}, {"kind": "human"}])
    gid = made["game_id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    with client.websocket_connect("/ws/no-such-game") as ws:
        _hello(ws)
        _expect_error(ws, "game/unknown")
        _still_open(ws)
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "act", "action": {"type": "Peek", "slot": 0}, "index": 0})
        _expect_error(ws, "protocol/hello_first")
        _hello(ws, 0, "not-the-token")
        _expect_error(ws, "auth/bad_token")
        _hello(ws, 0, tokens[1])
        _expect_error(ws, "auth/bad_token")
        _hello(ws, 0, None)
        _expect_error(ws, "auth/bad_token")
        _hello(ws, 9, tokens[0])
        _expect_error(ws, "seat/unknown")
        _still_open(ws)
        state = client.get(f"/api/games/{gid}").json()
        mover = state["to_act"]
        _hello(ws, mover, tokens[mover])
        snap = ws.receive_json()
        assert snap["type"] == "snapshot" and snap["legal"]
        legal = snap["legal"]
        bad: list[tuple[Any, str]] = [
            ("{oops", "action/malformed"),
            ("[1, 2]", "action/malformed"),
            ({"type": "dance"}, "action/malformed"),
            ({"type": "act", "action": legal[0]}, "action/malformed"),
            ({"type": "act", "action": {"type": "Nope"}, "index": 0}, "action/malformed"),
            ({"type": "act", "action": legal[0], "index": "0"}, "action/malformed"),
            ({"type": "act", "action": legal[0], "index": 5}, "action/stale"),
            ({"type": "act", "action": {"type": "DeclareCard", "slot": 42, "card": "S1"},
              "index": 0}, "action/"),
            ({"type": "act", "action": {"type": "RequestCard", "target": 1 - mover,
                                        "card": "S1" * 9000}, "index": 0}, "message/too_large"),
            ({"type": "act", "action": {"type": "RequestCard", "target": 1 - mover,
                                        "card": "S1" * 1500}, "index": 0}, "text/too_long"),
            ({"type": "hello", "seat": mover, "token": tokens[mover], "extra": 1},
             "action/malformed"),
        ]
        for message, code in bad:
            if isinstance(message, str):
                ws.send_text(message)
            else:
                ws.send_json(message)
            reply = ws.receive_json()
            assert reply["type"] == "error", (message, reply)
            assert reply["error"]["code"].startswith(code), (message, reply)
            _still_open(ws)
            assert hub.store.count_actions(gid) == 0
        # Binary frames are read as UTF-8 JSON too.
        ws.send_bytes(b"\xff\xfe")
        _expect_error(ws, "action/malformed")
        ws.send_json({"type": "act", "action": legal[0], "index": 0})
        assert ws.receive_json()["index"] == 1
        assert hub.store.count_actions(gid) == 1


def test_the_other_seat_and_watchers_cannot_act(client, create, hub):
    made = create("adventure", [{"kind": "human"}, {"kind": "human"}])
    gid = made["game_id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    mover = client.get(f"/api/games/{gid}").json()["to_act"]
    with client.websocket_connect(f"/ws/{gid}") as watcher, \
            client.websocket_connect(f"/ws/{gid}") as other:
        _hello(watcher)
        snap = watcher.receive_json()
        assert snap["seat"] is None and snap["legal"] == []
        assert snap["view"] == hub.live[gid].session.view(None).to_json()
        _hello(other, 1 - mover, tokens[1 - mover])
        osnap = other.receive_json()
        assert osnap["legal"] == [] and osnap["view"]["hand"]
        assert watcher.receive_json()["seats"][1 - mover]["connected"] is True  # presence update
        legal = hub.live[gid].session.legal_actions(mover)
        watcher.send_json({"type": "act", "action": legal[0].to_json(), "index": 0})
        _expect_error(watcher, "auth/bad_token")
        other.send_json({"type": "act", "action": legal[0].to_json(), "index": 0})
        _expect_error(other, "action/not_your_turn")
        assert hub.store.count_actions(gid) == 0
        # The mover acts over REST: both sockets get an update built for their own seat.
        res = client.post(f"/api/games/{gid}/actions",
                          json={"seat": mover, "action": legal[0].to_json(), "index": 0},
                          headers={"Authorization": f"Bearer {tokens[mover]}"})
        assert res.status_code == 200
        wu, ou = watcher.receive_json(), other.receive_json()
        live = hub.live[gid]
        assert wu["type"] == ou["type"] == "update" and wu["index"] == ou["index"] == 1
        assert wu["view"] == live.session.view(None).to_json()
        assert ou["view"] == live.session.view(1 - mover).to_json()


def test_rate_limit_refuses_floods_and_keeps_the_socket(tmp_path, create):
    settings = Settings(data_dir=tmp_path / "rl", bot_delay_ms=0, rate_per_s=0.5, rate_burst=5)
    with TestClient(create_app(settings)) as client:
        res = client.post("/api/games", json={"game": "adventure", "players": 2,
                                              "seats": [{"kind": "human"}, {"kind": "human"}]})
        gid = res.json()["game_id"]
        with client.websocket_connect(f"/ws/{gid}") as ws:
            for _ in range(30):
                ws.send_json({"type": "ping"})
            replies = [ws.receive_json() for _ in range(30)]
        kinds = [r["type"] for r in replies]
        assert kinds.count("pong") <= 6 and kinds.count("error") >= 24
        assert {r["error"]["code"] for r in replies if r["type"] == "error"} == {
            "message/rate_limited"}


@pytest.fixture
def slow_bots(tmp_path):
    """An app whose computer players wait a minute before moving (they never move in a test)."""
    settings = Settings(data_dir=tmp_path / "slow", bot_delay_ms=60_000)
    with TestClient(create_app(settings)) as client:
        yield client


def test_takeover_by_creator_and_return(slow_bots):
    client = slow_bots
    made = client.post("/api/games", json={
        "game": "adventure", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}],
    }).json()
    gid, creator = made["game_id"], made["creator_token"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    mover = client.get(f"/api/games/{gid}").json()["to_act"]
    url = f"/api/games/{gid}/seats/{mover}"
    res = client.post(f"{url}/takeover", json={"bot": "random"},
                      headers={"Authorization": f"Bearer {tokens[mover]}"})
    assert res.status_code == 401 and res.json()["error"]["code"] == "auth/bad_token"
    res = client.post(f"{url}/takeover", json={"bot": "genius"},
                      headers={"Authorization": f"Bearer {creator}"})
    assert res.json()["error"]["code"] == "agent/unknown"
    res = client.post(f"{url}/takeover", json={"bot": "random"},
                      headers={"Authorization": f"Bearer {creator}"})
    assert res.status_code == 200, res.text
    seat = res.json()["seats"][mover]
    assert seat["taken_over"] and seat["bot"] == "random" and seat["takeover_reason"] == "creator"
    state = client.get(f"/api/games/{gid}/state?seat={mover}",
                       headers={"Authorization": f"Bearer {tokens[mover]}"}).json()
    assert state["legal"] == []
    legal = client.app.state.hub.live[gid].session.legal_actions(mover)  # type: ignore[attr-defined]
    res = client.post(f"/api/games/{gid}/actions",
                      json={"seat": mover, "action": legal[0].to_json(), "index": 0},
                      headers={"Authorization": f"Bearer {tokens[mover]}"})
    assert res.json()["error"]["code"] == "seat/taken_over"
    res = client.post(f"{url}/return", headers={"Authorization": f"Bearer {creator}"})
    assert res.json()["error"]["code"] == "auth/bad_token"
    res = client.post(f"{url}/return", headers={"Authorization": f"Bearer {tokens[mover]}"})
    assert res.status_code == 200 and not res.json()["seats"][mover]["taken_over"]
    res = client.post(f"{url}/return", headers={"Authorization": f"Bearer {tokens[mover]}"})
    assert res.json()["error"]["code"] == "seat/not_taken_over"
    res = client.post(f"/api/games/{gid}/actions",
                      json={"seat": mover, "action": legal[0].to_json(), "index": 0},
                      headers={"Authorization": f"Bearer {tokens[mover]}"})
    assert res.status_code == 200, res.text


def test_creator_takeover_lets_a_bot_finish_the_game(client, create, receive_until):
    made = create("adventure", [{"kind": "human"}, {"kind": "bot", "bot": "memory"}])
    gid = made["game_id"]
    res = client.post(f"/api/games/{gid}/seats/0/takeover", json={"bot": "memory"},
                      headers={"Authorization": f"Bearer {made['creator_token']}"})
    assert res.status_code == 200
    with client.websocket_connect(f"/ws/{gid}") as ws:
        _hello(ws)
        last = receive_until(ws, lambda m: m.get("status") == "over")
    record = client.get(f"/api/games/{gid}/record").json()
    assert len(record["actions"]) == last["index"]
    assert set(record["meta"]["by"]) == {"bot"}


def test_turn_clock_moves_for_a_silent_person(client, create, receive_until):
    made = create("adventure", [{"kind": "human"}, {"kind": "human"}], turn_clock_s=1)
    gid = made["game_id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        _hello(ws)
        snap = ws.receive_json()
        assert snap["clock"]["seat"] == snap["to_act"] and 0 < snap["clock"]["deadline_s"] <= 1
        msg = receive_until(ws, lambda m: m.get("index", 0) >= 1)
        notice = msg["events"][0]
        assert notice["type"] == "TurnTimedOut" and notice["seat"] == snap["to_act"]
        assert notice["index"] == 0
    assert client.get(f"/api/games/{gid}/record").status_code == 409


def test_absent_person_is_taken_over_after_the_grace_time(client, create, receive_until):
    made = create("adventure", [{"kind": "human"}, {"kind": "bot", "bot": "memory"}],
                  takeover_after_s=1)
    gid = made["game_id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        _hello(ws)
        last = receive_until(ws, lambda m: m.get("status") == "over")
    seat = last["seats"][0]
    assert seat["taken_over"] and seat["takeover_reason"] == "away"
