"""Text checked at the edge (web/inputs.py): surrogates, control characters, long text, deep JSON.

Every refusal must be a clear reply, change nothing in memory or in the store, and leave the game
readable for every seat and watcher. The raw-bytes cases send exactly what an attacker would
(`\\ud800` as a JSON escape), not what a well-behaved client library would produce.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from pocketgalaxy.web import inputs
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.inputs import TextLimits


def _teller_to_describe(client, create, bearer) -> tuple[str, dict[int, str], list[str]]:
    """A Perils game of two people where the Teller (seat 1) must describe at index 1."""
    made = create("perils", [{"kind": "human"}, {"kind": "human"}])
    gid = made["game_id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    state = client.get(f"/api/games/{gid}/state?seat=0", headers=bearer(tokens[0])).json()
    archetype = state["legal"][0]
    res = client.post(f"/api/games/{gid}/actions", headers=bearer(tokens[0]),
                      json={"seat": 0, "action": archetype, "index": 0})
    assert res.status_code == 200, res.text
    teller = client.get(f"/api/games/{gid}/state?seat=1", headers=bearer(tokens[1])).json()
    assert teller["legal"][0]["type"] == "DescribePathways"
    return gid, tokens, teller["legal"][0]["descriptions"]


def _readable(client, gid: str, tokens: dict[int, str], bearer) -> list[dict[str, Any]]:
    """Every seat's and a watcher's state, each a 200 whose body is valid UTF-8 JSON."""
    out = []
    for seat in (None, *sorted(tokens)):
        query = "" if seat is None else f"?seat={seat}"
        headers = {} if seat is None else bearer(tokens[seat])
        res = client.get(f"/api/games/{gid}/state{query}", headers=headers)
        assert res.status_code == 200, res.text
        out.append(json.loads(res.content.decode("utf-8")))
    return out


def _raw_act(client, gid, tokens, bearer, seat: int, action_json: str, index: int):
    body = f'{{"seat": {seat}, "index": {index}, "action": {action_json}}}'.encode()
    return client.post(f"/api/games/{gid}/actions", content=body,
                       headers={**bearer(tokens[seat]), "Content-Type": "application/json"})


def test_a_lone_surrogate_over_rest_is_refused_and_the_game_stays_readable(
        client, create, bearer, hub, caplog):
    gid, tokens, texts = _teller_to_describe(client, create, bearer)
    before = _readable(client, gid, tokens, bearer)
    bad = '{"type": "DescribePathways", "descriptions": ["a door \\ud800 here", "ok"]}'
    assert "\\ud800" in bad  # the escape itself travels, as an attacker would send it
    with caplog.at_level(logging.INFO):
        res = _raw_act(client, gid, tokens, bearer, 1, bad, 1)
    assert res.status_code == 400
    err = res.json()["error"]
    assert err["code"] == "text/invalid"
    assert "action.descriptions[1]" in err["message"] and "U+D800" in err["message"]
    assert "surrogate" in err["message"] and "allowed" in err["message"]
    assert hub.store.count_actions(gid) == 1
    assert _readable(client, gid, tokens, bearer) == before
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    # The same action with good text is then accepted: nothing was half-applied.
    good = {"type": "DescribePathways", "descriptions": ["a door\nhere", "ok"][: len(texts)]}
    res = _raw_act(client, gid, tokens, bearer, 1, json.dumps(good), 1)
    assert res.status_code == 200, res.text
    assert hub.store.count_actions(gid) == 2


def test_a_lone_surrogate_over_the_websocket_is_refused_and_the_socket_stays_open(
        client, create, bearer, hub, caplog):
    gid, tokens, texts = _teller_to_describe(client, create, bearer)
    with client.websocket_connect(f"/ws/{gid}") as ws, \
            client.websocket_connect(f"/ws/{gid}") as watcher:
        ws.send_json({"type": "hello", "seat": 1, "token": tokens[1]})
        snap = ws.receive_json()
        watcher.send_json({"type": "hello"})
        watcher.receive_json()  # a watcher's arrival sends the seats nothing (presence)
        descriptions = ", ".join(['"x \\udfff y"'] * len(texts))
        with caplog.at_level(logging.INFO):
            ws.send_text('{"type": "act", "index": 1, "action": {"type": "DescribePathways", '
                         f'"descriptions": [{descriptions}]}}}}')
            reply = ws.receive_json()
        assert reply["type"] == "error" and reply["error"]["code"] == "text/invalid"
        assert "U+DFFF" in reply["error"]["message"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        assert hub.store.count_actions(gid) == 1
        assert hub.live[gid].index == snap["index"] == 1
        # A surrogate in a hello token: a reply, not a traceback and a dead socket.
        watcher.send_text('{"type": "hello", "seat": 0, "token": "abc\\ud800"}')
        assert watcher.receive_json()["error"]["code"] == "text/invalid"
        watcher.send_json({"type": "ping"})
        assert watcher.receive_json() == {"type": "pong"}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    _readable(client, gid, tokens, bearer)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("a\x00b", "U+0000 (NUL)"),
        ("bell\x07", "U+0007"),
        ("esc\x1b[31m", "ESCAPE"),
        ("c1\x85", "U+0085"),
        ("del\x7f", "DELETE"),
        ("car\rriage", "CARRIAGE RETURN"),
    ],
)
def test_control_characters_in_free_text_are_refused(client, create, bearer, hub, text,
                                                     fragment):
    gid, tokens, texts = _teller_to_describe(client, create, bearer)
    action = {"type": "DescribePathways", "descriptions": [text] + ["ok"] * (len(texts) - 1)}
    res = client.post(f"/api/games/{gid}/actions", headers=bearer(tokens[1]),
                      json={"seat": 1, "action": action, "index": 1})
    assert res.status_code == 400
    err = res.json()["error"]
    assert err["code"] == "text/invalid" and fragment in err["message"]
    assert hub.store.count_actions(gid) == 1


def test_newline_and_tab_only_in_free_text(client, create, bearer, hub):
    made = create("adventure", [{"kind": "human"}, {"kind": "human"}])
    gid = made["game_id"]
    res = client.post("/api/games", json={
        "game": "adventure", "players": 2,
        "seats": [{"kind": "human", "name": "Ann\tTab"}, {"kind": "human"}]})
    assert res.status_code == 400
    err = res.json()["error"]
    assert err["code"] == "text/invalid" and "seats[1].name" in err["message"]
    assert "one line" in err["message"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    mover = client.get(f"/api/games/{gid}").json()["to_act"]
    res = client.post(f"/api/games/{gid}/actions", headers=bearer(tokens[mover]), json={
        "seat": mover, "index": 0,
        "action": {"type": "RequestCard", "target": 1 - mover, "card": "P1\n"}})
    assert res.status_code == 400 and res.json()["error"]["code"] == "text/invalid"
    assert "action.card" in res.json()["error"]["message"]
    assert hub.store.count_actions(gid) == 0


def test_every_string_of_a_create_body_is_checked_and_nothing_is_created(client, hub):
    bodies = [
        b'{"game": "adventure", "players": 2, "seats": [{"kind": "human", "name": "a \\ud800"},'
        b' {"kind": "human"}]}',
        b'{"game": "adventure", "players": 2, "options": {"x\\u0000": 1},'
        b' "seats": [{"kind": "human"}, {"kind": "human"}]}',
        b'{"game": "adventure", "players": 2, "seats": [{"kind": "bot", "bot": "memory\\udc00"},'
        b' {"kind": "human"}]}',
        b'{"game": "adventure\\ud83d", "players": 2, "seats": []}',
    ]
    for body in bodies:
        res = client.post("/api/games", content=body,
                          headers={"Content-Type": "application/json"})
        assert res.status_code == 400, (body, res.text)
        assert res.json()["error"]["code"] == "text/invalid", body
    assert client.get("/api/games").json() == []
    assert hub.live == {}


def test_over_long_text_is_refused_with_the_limit(client, create, bearer, hub, settings):
    gid, tokens, texts = _teller_to_describe(client, create, bearer)
    long = "x" * (settings.max_text_len + 1)
    action = {"type": "DescribePathways", "descriptions": [long] + ["ok"] * (len(texts) - 1)}
    res = client.post(f"/api/games/{gid}/actions", headers=bearer(tokens[1]),
                      json={"seat": 1, "action": action, "index": 1})
    assert res.status_code == 400
    err = res.json()["error"]
    assert err["code"] == "text/too_long"
    assert str(settings.max_text_len) in err["message"] and str(len(long)) in err["message"]
    res = client.post(f"/api/games/{gid}/seats/0/claim", json={"name": "n" * 41})
    assert res.status_code == 400 and res.json()["error"]["code"] == "text/too_long"
    assert hub.store.count_actions(gid) == 1


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("[" * 1000 + "]" * 1000, "message/too_deep"),
        ('{"type": "ping", "x": ' + "[" * 17 + "]" * 17 + "}", "message/too_deep"),
        ('{"type": "act", "index": ' + "9" * 5000 + ', "action": {}}', "message/number_too_long"),
        ('{"type": "hello", "since": ' + "1" * 21 + "}", "message/number_too_long"),
        ('{"type": "act", "index": 1.' + "5" * 60 + ', "action": {}}', "message/number_too_long"),
        ('{"type": "act", "index": NaN, "action": {}}', "message/malformed_json"),
        ('{"type": "hello", "token": "abc\\ud800"}', "text/invalid"),
        ('{"type\\u0000": "ping"}', "text/invalid"),
    ],
)
def test_malformed_websocket_messages_get_a_reply_and_the_socket_stays_open(
        client, create, hub, caplog, raw, code):
    made = create("adventure", [{"kind": "human"}, {"kind": "human"}])
    gid = made["game_id"]
    with caplog.at_level(logging.INFO), client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_text(raw)
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["error"]["code"] == code, reply
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert hub.store.count_actions(gid) == 0


def test_binary_frames_with_bad_utf8_or_deep_json_get_a_reply(client, create, caplog):
    gid = create("adventure", [{"kind": "human"}, {"kind": "human"}])["game_id"]
    with caplog.at_level(logging.INFO), client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_bytes(b'{"type": "ping", "x": "\xed\xa0\x80"}')  # a surrogate, CESU-style
        reply = ws.receive_json()
        assert reply["error"]["code"] == "action/malformed" and "UTF-8" in reply["error"]["message"]
        ws.send_bytes(b"{" * 800)
        assert ws.receive_json()["error"]["code"] == "message/too_deep"
        ws.send_bytes(b'{"type": "ping"}')
        assert ws.receive_json() == {"type": "pong"}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"[" * 1000 + b"]" * 1000, "message/too_deep"),
        (b'{"game": "adventure", "players": ' + b"1" * 5000 + b', "seats": []}',
         "message/number_too_long"),
        (b'{"game": "adventure", "players": 2, "seats": [], "x": "\xff"}', "request/malformed"),
        (b'{"game": "adventure", "players": Infinity, "seats": []}', "message/malformed_json"),
    ],
)
def test_malformed_rest_bodies_are_a_clear_400(client, hub, caplog, body, code):
    with caplog.at_level(logging.INFO):
        res = client.post("/api/games", content=body,
                          headers={"Content-Type": "application/json"})
    assert res.status_code == 400
    assert res.json()["error"]["code"] == code
    assert hub.live == {}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_stored_surrogate_is_still_sent_not_a_failure(client, create, bearer, hub):
    """The outbound safety net: if undecodable text ever got in, readers still get replies."""
    made = create("adventure", [{"kind": "human", "name": "Ann"}, {"kind": "human"}])
    gid = made["game_id"]
    hub.live[gid].seats[0].name = "Ann \ud800"  # as if an older server had let it in
    res = client.get(f"/api/games/{gid}")
    assert res.status_code == 200
    assert res.json()["seats"][0]["name"] == "Ann \ufffd"
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["seats"][0]["name"] == "Ann \ufffd"


def test_nesting_depth_ignores_brackets_inside_strings():
    assert inputs.nesting_depth('{"a": "[[[[{{{{", "b": [1, [2]]}') == 3
    assert inputs.nesting_depth('["\\"[[[["]') == 1
    assert inputs.nesting_depth("7") == 0


def test_the_checks_name_the_field_and_what_is_allowed():
    limits = TextLimits(text=10, name=4, field=12)
    with pytest.raises(WebError) as info:
        inputs.checked_json('{"action": {"plan": "a\\tb\\nc\\u0001"}}', limits)
    assert info.value.code == "text/invalid"
    assert "action.plan: character 6 is the control character U+0001" in info.value.message
    assert "newline and tab are allowed" in info.value.message
    with pytest.raises(WebError) as info:
        inputs.checked_json('{"seats": [{"name": "Alice"}]}', limits)
    assert info.value.code == "text/too_long"
    assert info.value.message == "seats[1].name: a name may be at most 4 characters, not 5"
    with pytest.raises(WebError) as info:
        inputs.checked_json('{"card": "1234567890123"}', limits)
    assert info.value.message == "card: this field may be at most 12 characters, not 13"
    with pytest.raises(WebError) as info:
        inputs.checked_json('{"a": {"x\\u0000": 1}}', limits)
    assert info.value.message.startswith("a key in a: character 2 is the control character")
    assert inputs.checked_json('{"action": {"descriptions": ["a\\tb\\n"]}}', limits) == {
        "action": {"descriptions": ["a\tb\n"]}}
    assert inputs.sendable("ok \udc80") == "ok \ufffd"
    assert inputs.sendable("fine") == "fine"


def test_a_game_whose_stored_action_holds_a_surrogate_stays_readable(
        client, create, bearer, hub):
    """An action row written before these checks existed: replayed, sent with U+FFFD."""
    gid, tokens, texts = _teller_to_describe(client, create, bearer)
    old = {"type": "DescribePathways", "descriptions": ["a door \ud800 here"] * len(texts)}
    hub.store.append_action(gid, 1, 1, old, "person", outcome=None)
    del hub.live[gid]  # as after a restart: rebuilt from the store on the next request
    for state in _readable(client, gid, tokens, bearer):
        assert state["index"] == 2
    hero = client.get(f"/api/games/{gid}/state?seat=0", headers=bearer(tokens[0])).json()
    assert "a door \ufffd here" in json.dumps(hero["view"], ensure_ascii=False)
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "seat": 0, "token": tokens[0]})
        snap = ws.receive_json()
        assert snap["type"] == "snapshot" and snap["index"] == 2


def test_a_server_bug_on_a_socket_is_answered_and_the_socket_stays_open(
        client, create, hub, monkeypatch, caplog):
    gid = create("adventure", [{"kind": "human"}, {"kind": "human"}])["game_id"]

    def broken(*_args, **_kw):
        raise RuntimeError("a bug in attach")

    monkeypatch.setattr(hub, "attach", broken)
    with caplog.at_level(logging.ERROR), client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["error"]["code"] == "server/error"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    # A bug is not bad input: it is logged with its traceback.
    assert any(r.exc_info and isinstance(r.exc_info[1], RuntimeError) for r in caplog.records)
