"""The REST API through the test client: create, lobby, claim, state, actions, records, refusals."""

from __future__ import annotations

import time
from typing import Any

import pytest

from pocketgalaxy.core.game import Outcome
from pocketgalaxy.core.record import GameRecord, replay
from pocketgalaxy.registry import get_game


def _error(res: Any, status: int, code: str) -> dict[str, Any]:
    assert res.status_code == status, res.text
    body = res.json()
    assert set(body) == {"error"}
    assert {"code", "message", "legal", "explanation"} <= set(body["error"])
    assert set(body["error"]) <= {"code", "message", "legal", "explanation", "rule"}
    assert body["error"]["code"] == code, body
    assert body["error"]["message"] and body["error"]["explanation"]
    return dict(body["error"])


def test_create_lobby_claim(client, create, bearer):
    made = create("adventure", [
        {"kind": "human", "name": "Ada"}, {"kind": "human"}, {"kind": "bot", "bot": "memory"},
    ])
    gid = made["game_id"]
    assert made["watch_link"] == f"/play/{gid}"
    human = [s for s in made["seats"] if s["kind"] == "human"]
    assert [s["seat"] for s in human] == [0, 1]
    for s in human:
        assert s["link"] == f"/play/{gid}?seat={s['seat']}#token={s['token']}"
    assert "token" not in made["seats"][2]
    assert made["seats"][1]["name"] == "Player 2"

    # Ada's seat was created with her name: reserved for her link, never offered in the lobby.
    lobby = client.get("/api/games?open=true").json()
    assert [(g["game_id"], g["open_seats"], g["game"]) for g in lobby] == [
        (gid, [1], "adventure")]
    assert lobby[0]["title"] == "Adventure Cards" and lobby[0]["status"] == "running"

    res = client.get(f"/api/games/{gid}/state?seat=0", headers=bearer(human[0]["token"]))
    assert res.status_code == 200
    assert client.get("/api/games?open=true").json()[0]["open_seats"] == [1]

    claimed = client.post(f"/api/games/{gid}/seats/1/claim", json={"name": "  Bo  "})
    assert claimed.status_code == 200, claimed.text
    token = claimed.json()["token"]
    assert claimed.json()["link"] == f"/play/{gid}?seat=1#token={token}"
    assert client.get("/api/games?open=true").json() == []
    summary = client.get(f"/api/games/{gid}").json()
    assert [s["name"] for s in summary["seats"]] == ["Ada", "Bo", "Memory (computer)"]

    _error(client.post(f"/api/games/{gid}/seats/1/claim", json={"name": "Cy"}), 409,
           "seat/not_open")
    _error(client.post(f"/api/games/{gid}/seats/2/claim", json={"name": "Cy"}), 409,
           "seat/not_open")
    # The creation token of a claimed seat stops working; the claimed one works.
    _error(client.get(f"/api/games/{gid}/state?seat=1", headers=bearer(human[1]["token"])), 401,
           "auth/bad_token")
    assert client.get(f"/api/games/{gid}/state?seat=1", headers=bearer(token)).status_code == 200


def test_tokens_are_stored_only_as_hashes(client, create, hub):
    made = create("adventure", [{"kind": "human"}, {"kind": "human"}])
    raw = hub.store.engine.url.database
    with open(raw, "rb") as fh:
        data = fh.read()
    for extra in ("-wal",):
        try:
            with open(raw + extra, "rb") as fh:
                data += fh.read()
        except FileNotFoundError:
            pass
    for token in [made["creator_token"], *(s["token"] for s in made["seats"])]:
        assert token.encode() not in data


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess", "players": 2, "seats": [{"kind": "bot"}] * 2}, "request/malformed"),
        ({"game": "perils", "players": 3, "seats": [{"kind": "bot"}] * 3}, "request/malformed"),
        ({"game": "adventure", "players": 3, "seats": [{"kind": "bot"}] * 2}, "request/malformed"),
        ({"game": "adventure", "players": 2, "seats": [{"kind": "alien"}] * 2},
         "request/malformed"),
        ({"game": "adventure", "players": 2, "seats": [{"kind": "bot", "bot": "genius"}] * 2},
         "agent/unknown"),
        ({"game": "adventure", "players": 2, "options": {"no_such": 1},
          "seats": [{"kind": "bot"}] * 2}, "options/invalid"),
        ({"game": "adventure", "players": 2, "options": {"auto_claim": "yes"},
          "seats": [{"kind": "bot"}] * 2}, "options/invalid"),
        ({"game": "perils", "players": 2, "options": {"theme": "/etc/passwd.toml"},
          "seats": [{"kind": "bot"}] * 2}, "options/invalid"),
        ({"game": "adventure", "players": 2, "seats": [{"kind": "human", "name": "x" * 41}] * 2},
         "text/too_long"),
        ({"game": "adventure", "players": 2, "turn_clock_s": 0, "seats": [{"kind": "bot"}] * 2},
         "request/malformed"),
        ({"game": "adventure", "players": "two", "seats": [{"kind": "bot"}] * 2},
         "request/malformed"),
        ({"game": "adventure", "players": 2, "seed": 7, "seats": [{"kind": "bot"}] * 2},
         "request/malformed"),
    ],
)
def test_create_refuses_bad_input_and_creates_nothing(client, hub, body, code):
    err = _error(client.post("/api/games", json=body), 404 if code == "game/unknown" else 400,
                 code)
    assert isinstance(err["legal"], list)
    assert hub.store.list_games() == []


def test_options_and_themes(client):
    adv = client.get("/api/options/adventure").json()
    assert adv["min_players"] == 2 and adv["max_players"] == 5
    names = {o["name"]: o for o in adv["options"]}
    assert names["auto_claim"]["default"] is True and names["auto_claim"]["doc"]
    assert "memory" in adv["bots"]["0"] and adv["default_bots"]["0"] == "memory"
    cards = {c["id"]: c for c in adv["cards"]}
    assert len(cards) == 24 and cards["P4"]["pack"] == "P" and cards["P4"]["name"]
    per = client.get("/api/options/perils").json()
    assert set(per["bots"]) == {"0", "1"} and per["bots"]["1"]
    assert per["default_bots"]["0"] != "random"
    assert per["cards"] == []
    _error(client.get("/api/options/chess"), 404, "game/unknown")
    themes = client.get("/api/themes").json()["themes"]
    assert {t["id"] for t in themes} >= {"cosmic"}
    assert all(t["archetypes"] and t["title"] for t in themes)
    assert client.get("/docs").status_code == 200
    assert client.get("/openapi.json").json()["paths"]["/api/games"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/games/nope"),
        ("GET", "/api/games/nope/state"),
        ("GET", "/api/games/nope/record"),
        ("GET", "/api/games/nope/replay"),
        ("POST", "/api/games/nope/seats/0/claim"),
        ("POST", "/api/games/nope/seats/0/return"),
    ],
)
def test_unknown_game_is_404(client, method, path):
    _error(client.request(method, path, json={}), 404, "game/unknown")


def test_record_and_replay_wait_for_the_end(client, create):
    gid = create("adventure", [{"kind": "human"}, {"kind": "human"}])["game_id"]
    _error(client.get(f"/api/games/{gid}/record"), 409, "record/not_finished")
    _error(client.get(f"/api/games/{gid}/replay"), 409, "record/not_finished")
    # Nothing public names the seed while the game runs.
    for path in (f"/api/games/{gid}", f"/api/games/{gid}/state", "/api/games?open=true"):
        assert "seed" not in client.get(path).text


def test_seat_view_needs_its_token_and_watchers_get_the_watcher_view(client, create, bearer, hub):
    made = create("adventure", [{"kind": "human"}, {"kind": "human"}])
    gid, t0, t1 = made["game_id"], made["seats"][0]["token"], made["seats"][1]["token"]
    for headers in ({}, bearer("wrong"), bearer(t1), {"Authorization": t0}):
        _error(client.get(f"/api/games/{gid}/state?seat=0", headers=headers), 401,
               "auth/bad_token")
    _error(client.get(f"/api/games/{gid}/state?seat=7", headers=bearer(t0)), 404, "seat/unknown")
    live = hub.live[gid]
    watcher = client.get(f"/api/games/{gid}/state").json()
    assert watcher["seat"] is None and watcher["legal"] == []
    assert watcher["view"] == live.session.view(None).to_json()
    mine = client.get(f"/api/games/{gid}/state?seat=0", headers=bearer(t0)).json()
    assert mine["view"] == live.session.view(0).to_json()
    assert mine["view"]["hand"] and watcher["view"]["hand"] == []
    assert mine["type"] == "snapshot" and mine["status"] == "running" and mine["index"] == 0
    assert {s["seat"] for s in mine["seats"]} == {0, 1}


def _two_humans(create: Any) -> tuple[str, dict[int, str]]:
    made = create("adventure", [{"kind": "human"}, {"kind": "human"}])
    return made["game_id"], {s["seat"]: s["token"] for s in made["seats"]}


def test_rest_actions_and_refusals_change_nothing(client, create, bearer, hub):
    gid, tokens = _two_humans(create)
    state = client.get(f"/api/games/{gid}/state").json()
    mover = state["to_act"]
    other = 1 - mover
    me = client.get(f"/api/games/{gid}/state?seat={mover}", headers=bearer(tokens[mover])).json()
    legal = me["legal"]
    assert legal

    def count() -> int:
        return hub.store.count_actions(gid)

    url = f"/api/games/{gid}/actions"
    refusals = [
        # (body or raw text, headers, status, code)
        ({"seat": mover, "action": legal[0], "index": 0}, {}, 401, "auth/bad_token"),
        ({"seat": mover, "action": legal[0], "index": 0}, bearer(tokens[other]), 401,
         "auth/bad_token"),
        ({"seat": mover, "action": legal[0], "index": 3}, bearer(tokens[mover]), 409,
         "action/stale"),
        ({"seat": mover, "action": {"type": "Fly"}, "index": 0}, bearer(tokens[mover]), 400,
         "action/malformed"),
        ({"seat": mover, "action": {"type": "RequestCard", "target": "x", "card": "S1"},
          "index": 0}, bearer(tokens[mover]), 400, "action/malformed"),
        ({"seat": mover, "action": legal[0]}, bearer(tokens[mover]), 400, "action/malformed"),
        ("{not json", bearer(tokens[mover]), 400, "action/malformed"),
        ({"seat": other, "action": legal[0], "index": 0}, bearer(tokens[other]), 409,
         "action/not_your_turn"),
        ({"seat": mover, "action": {"type": "DeclareCard", "slot": 99, "card": "S1"},
          "index": 0}, bearer(tokens[mover]), 409, None),
        ({"seat": mover, "action": {"type": "RequestCard", "target": other,
                                    "card": "x" * 30000}, "index": 0},
         bearer(tokens[mover]), 413, "message/too_large"),
    ]
    for body, headers, status, code in refusals:
        if isinstance(body, str):
            res = client.post(url, content=body,
                              headers={**headers, "Content-Type": "application/json"})
        else:
            res = client.post(url, json=body, headers=headers)
        assert res.status_code == status, (body, res.text)
        err = res.json()["error"]
        if code is not None:
            assert err["code"] == code, err
        else:
            assert err["code"].startswith("action/"), err
        assert count() == 0
    # An illegal action lists the seat's own legal actions; a seat not to act gets none.
    res = client.post(url, json={"seat": mover, "action": {"type": "DeclareCard", "slot": 99,
                                                           "card": "S1"}, "index": 0},
                      headers=bearer(tokens[mover]))
    assert res.json()["error"]["legal"] == legal
    res = client.post(url, json={"seat": other, "action": legal[0], "index": 0},
                      headers=bearer(tokens[other]))
    assert res.json()["error"]["legal"] == []

    ok = client.post(url, json={"seat": mover, "action": legal[0], "index": 0},
                     headers=bearer(tokens[mover]))
    assert ok.status_code == 200, ok.text
    assert ok.json()["index"] == 1 and ok.json()["events"]
    assert all(e["index"] == 0 for e in ok.json()["events"])
    assert count() == 1
    # The same action again with the old index: stale, nothing changes.
    again = client.post(url, json={"seat": mover, "action": legal[0], "index": 0},
                        headers=bearer(tokens[mover]))
    assert again.json()["error"]["code"] == "action/stale" and count() == 1


def _finish(client: Any, gid: str, receive_until: Any) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "seat": None, "token": None, "since": 0})
        return dict(receive_until(ws, lambda m: m.get("status") == "over"))


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("perils", [{"kind": "bot"}, {"kind": "bot"}], {"teller_policy": "approve_all"}),
        ("adventure", [{"kind": "bot", "bot": "memory"}] * 3, {}),
    ],
)
def test_whole_bot_game_through_the_api(client, create, receive_until, hub, game, seats,
                                        options):
    made = create(game, seats, options=options)
    gid = made["game_id"]
    last = _finish(client, gid, receive_until)
    # Finished, and the watcher has gone: the game leaves memory (the store keeps it) ...
    deadline = time.monotonic() + 10
    while gid in hub.live and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gid not in hub.live
    # ... and everything below is rebuilt from the store on demand.
    assert last["outcome"] is not None and last["legal"] == []
    summary = client.get(f"/api/games/{gid}").json()
    assert summary["status"] == "over" and summary["outcome"] == last["outcome"]
    assert summary["index"] == last["index"] > 0

    record = GameRecord.from_json(client.get(f"/api/games/{gid}/record").json())
    assert len(record.actions) == last["index"] and record.seed is not None
    rules = get_game(game)
    final, _steps = replay(rules, record)
    outcome = rules.outcome(final)
    assert isinstance(outcome, Outcome) and outcome.to_json() == last["outcome"]

    steps = client.get(f"/api/games/{gid}/replay").json()["steps"]
    assert [s["index"] for s in steps] == list(range(len(record.actions) + 1))
    assert steps[0]["action"] is None and set(steps[0]["views"]) == {
        *(str(i) for i in range(len(seats))), "watch"}
    assert steps[-1]["views"]["watch"] == last["view"]
    assert [s["action"] for s in steps[1:]] == [a for _seat, a in record.actions]
    assert gid not in hub.live  # each request rebuilt it and let it go again


def test_pages_are_served(client):
    for path in ("/", "/play/abc", "/replay/abc"):
        res = client.get(path)
        assert res.status_code == 200 and res.headers["content-type"].startswith("text/html")
    assert client.get("/static/js/net.js").status_code == 200
    _error(client.get("/static/nothing-here.js"), 404, "request/not_found")
