"""The fault suite's own harness, checked: a checker that cannot fail, a fuzzer that repeats
itself differently per run or a fence that misses a silent server would make the suite lie.

The ledger checker must catch a lost, a doubled and a foreign action and a record that does not
replay; the generators must be reproducible and stay within the frame cap; the exchange fence
must tell a reply, no reply and a socket closed without a word apart (against a tiny loopback
WebSocket server that misbehaves on purpose); the log scan must find a traceback.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from faultkit import damage
from faultkit.ledger import GameLedger, check_record
from faultkit.restfuzz import Context as RestContext
from faultkit.restfuzz import build, operations
from faultkit.scale import ENV, fault_scale
from faultkit.server import ServerProcess
from faultkit.wsfuzz import KINDS, Context, Frame, exchange, frame
from websockets.sync.client import connect
from websockets.sync.server import ServerConnection, serve

from pocketgalaxy.registry import get_game
from pocketgalaxy.session import Session


def _finished_game(seed: int) -> tuple[GameLedger, dict[str, Any]]:
    """A whole Adventure game played in process with seeded random moves, and its ledger."""
    session = Session(get_game("adventure"), seed=seed, players=2)
    rng = random.Random(seed)
    ledger = GameLedger("g", {0: "t0", 1: "t1"}, "c", "ws")
    while not session.is_over:
        seat = session.to_act
        assert seat is not None
        action = rng.choice(session.legal_actions(seat)).to_json()
        ledger.send(len(session.record.actions), seat, action)
        session.act(seat, action)
    ledger.saw(len(session.record.actions))
    return ledger, session.record.to_json()


def test_a_faithful_record_passes_the_check() -> None:
    ledger, record = _finished_game(5)
    result = check_record(ledger, record)
    assert result.ok, result
    assert result.acked_checked == len(record["actions"]) > 10


def test_the_check_catches_a_lost_action() -> None:
    ledger, record = _finished_game(6)
    record["actions"] = record["actions"][:-1]  # the last acknowledged action is not stored
    result = check_record(ledger, record)
    assert result.lost == [len(record["actions"])]
    assert result.replay_error is not None  # and the shortened game is not over


def test_the_check_catches_an_action_applied_twice_or_never_sent() -> None:
    ledger, record = _finished_game(7)
    doubled = {**record, "actions": [record["actions"][0], *record["actions"]]}
    assert check_record(ledger, doubled).foreign
    ledger.send(len(record["actions"]) + 5, 0, {"type": "Peek", "slot": 0})  # sent, unacked
    extra = {**record, "actions": [*record["actions"], {"seat": 1, "action": {"type": "Zap"}}]}
    result = check_record(ledger, extra)
    assert result.foreign == [len(record["actions"])]
    assert result.replay_error is not None


def test_the_ledger_acknowledges_only_what_the_server_reported() -> None:
    ledger = GameLedger("g", {0: "a", 1: "b"}, "c", "rest")
    ledger.send(0, 0, {"type": "X"})
    ledger.send(1, 1, {"type": "Y"})
    assert ledger.pending() == 1 and ledger.acked == set()
    ledger.saw(1)
    assert ledger.acked == {0} and ledger.pending() == 1
    ledger.send(1, 1, {"type": "Y"})  # the same action again: a double submit, allowed
    with pytest.raises(AssertionError, match="driver bug"):
        ledger.send(1, 0, {"type": "Z"})


def _ctx() -> Context:
    legal = [{"type": "MakePlan", "channel": None, "items": ["JS"], "plan": ""},
             {"type": "Roll"}]
    return Context("perils", 4, 0, legal, {0: "tok0", 1: "tok1"}, 0, True)


def test_websocket_frames_repeat_with_the_seed_and_cover_every_kind() -> None:
    first = [frame(random.Random(3), _ctx()) for _ in range(1)]
    rng_a, rng_b = random.Random(11), random.Random(11)
    a = [frame(rng_a, _ctx()) for _ in range(3000)]
    b = [frame(rng_b, _ctx()) for _ in range(3000)]
    assert a == b and first == [frame(random.Random(3), _ctx())]
    kinds = {f.kind for f in a}
    assert {k for k, _, _ in KINDS} - {"valid_move"} <= kinds | {"act_not_your_turn"}
    for f in a:
        data = f.data if isinstance(f.data, bytes) else f.data.encode("utf-8")  # no raw surrogate
        assert len(data) < 64 * 1024, f.kind
    assert any("\\ud800" in f.data for f in a if isinstance(f.data, str))


def test_rest_requests_cover_the_schema_and_repeat_with_the_seed() -> None:
    schema = {"paths": {
        "/api/a/{game_id}": {"get": {"parameters": [
            {"name": "game_id", "in": "path", "schema": {"type": "string"}}]}},
        "/api/b": {"post": {"requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/B"}}}}}},
    }}
    components = {"B": {"type": "object", "required": ["name"],
                        "properties": {"name": {"type": "string"}}}}
    ops = operations(schema)
    assert [(o.method, o.path) for o in ops] == [("GET", "/api/a/{game_id}"), ("POST", "/api/b")]
    ctx = RestContext(components, ["g1"], {"g1": {0: "t"}}, {"g1": "c"}, {}, {"g1": "perils"})
    one = [build(random.Random(2), op, ctx).describe() for op in ops]
    assert one == [build(random.Random(2), op, ctx).describe() for op in ops]
    rng = random.Random(4)
    made = [build(rng, ops[1], ctx) for _ in range(300)]
    assert any(r.hostile for r in made) and any(not r.hostile for r in made)
    assert all(r.content is not None for r in made)  # the body is required
    assert "{game_id}" not in build(rng, ops[0], ctx).url


class _Misbehaving:
    """A loopback WebSocket server: answers pings, stays silent on "mute", hangs up on "bye"."""

    def __init__(self) -> None:
        self.server = serve(self._handle, "127.0.0.1", 0)
        self.port = self.server.socket.getsockname()[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @staticmethod
    def _handle(ws: ServerConnection) -> None:
        for raw in ws:
            msg = json.loads(raw)
            if msg.get("type") == "ping":
                ws.send(json.dumps({"type": "pong"}))
            elif msg.get("type") == "bye":
                ws.close()
                return
            elif msg.get("type") == "bad":
                ws.send(json.dumps({"type": "error", "error": {"code": "x/y"}}))

    def close(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=5)


@pytest.fixture
def misbehaving() -> Iterator[_Misbehaving]:
    server = _Misbehaving()
    yield server
    server.close()


def test_the_fence_tells_reply_silence_and_hang_up_apart(misbehaving: _Misbehaving) -> None:
    with connect(f"ws://127.0.0.1:{misbehaving.port}") as ws:
        assert exchange(ws, Frame("ping", '{"type": "ping"}', False)).kind == "pong"
        refused = exchange(ws, Frame("bad", '{"type": "bad"}', True))
        assert (refused.kind, refused.code) == ("error", "x/y")
        assert exchange(ws, Frame("mute", '{"type": "mute"}', True), timeout=2).kind == "none"
        closed = exchange(ws, Frame("bye", '{"type": "bye"}', True), timeout=5)
        assert closed.kind == "closed" and not closed.error_before_close


def test_the_log_scan_finds_tracebacks_and_errors(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path)
    server.output = ["INFO:     127.0.0.1 - \"GET / HTTP/1.1\" 200 OK\n",
                     "ERROR:    Exception in ASGI application\n",
                     "Traceback (most recent call last):\n",
                     "INFO:     shutting down\n"]
    assert server.problems() == ["ERROR:    Exception in ASGI application",
                                 "Traceback (most recent call last):"]
    assert server.problems(since=3) == []


def test_the_scale_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "10")
    assert fault_scale() == 10
    for bad in ("0", "ten", "1000"):
        monkeypatch.setenv(ENV, bad)
        with pytest.raises(ValueError, match=ENV):
            fault_scale()


def test_damage_deletes_exactly_the_row_it_names(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE actions (game_id TEXT, idx INTEGER)")
        conn.execute("CREATE TABLE games (id TEXT, options TEXT)")
        conn.executemany("INSERT INTO actions VALUES ('g', ?)", [(i,) for i in range(5)])
        conn.execute("INSERT INTO games VALUES ('g', '{}')")
    assert damage.delete_action(db, "g", "middle") == 2
    assert damage.delete_action(db, "g", "last") == 4
    assert damage.action_indexes(db, "g") == [0, 1, 3]
    damage.bad_json(db, "g")
    with sqlite3.connect(db) as conn:
        (text,) = conn.execute("SELECT options FROM games").fetchone()
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    damage.truncate(db)
    assert db.stat().st_size == 0
