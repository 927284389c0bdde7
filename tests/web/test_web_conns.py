"""Fan-out of one move (web/conns.py): each seat's update is built and encoded once, shared by
every socket of that seat (and one for all the watchers), its public parts built once."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient

from pocketgalaxy.web import conns, payloads
from pocketgalaxy.web.hub import Conn, Hub
from pocketgalaxy.web.live import encode


def _drain(conn: Conn) -> list[Any]:
    out = []
    while not conn.queue.empty():
        out.append(conn.queue.get_nowait())
    return out


def test_two_sockets_of_a_seat_get_the_same_encoded_update_once_each(
    client: TestClient, create: Any, hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = create("adventure", [{"kind": "human"}, {"kind": "human"}])
    gid = made["game_id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    built: list[int | None] = []
    public_calls: list[int] = []
    real_seat_payload, real_public = payloads.seat_payload, payloads.public_parts

    def counting_seat_payload(live: Any, seat: int | None, kind: str, **kw: Any) -> Any:
        built.append(seat)
        return real_seat_payload(live, seat, kind, **kw)

    def counting_public(live: Any, clock: Any) -> Any:
        public_calls.append(live.index)
        return real_public(live, clock)

    async def attach_all() -> tuple[dict[str, list[Conn]], int]:
        live = hub.get(gid)
        socks: dict[str, list[Conn]] = {"seat0": [], "seat1": [], "watch": []}
        for name, seat in (("seat0", 0), ("seat0", 0), ("seat1", 1), ("watch", None),
                           ("watch", None)):
            conn = Conn(1000)
            who = None if seat is None else await hub.authenticate(live, seat, tokens[seat])
            hub.attach(live, conn, who, 0)
            socks[name].append(conn)
        for group in socks.values():
            for conn in group:
                _drain(conn)  # snapshots and presence notes: not what this test counts
        return socks, live.session.to_act

    socks, to_act = client.portal.call(attach_all)  # type: ignore[union-attr]
    monkeypatch.setattr(payloads, "seat_payload", counting_seat_payload)
    monkeypatch.setattr(payloads, "public_parts", counting_public)

    async def move() -> int:
        live = hub.get(gid)
        legal = payloads.legal_json(live, to_act)
        await hub.act(gid, to_act, legal[0], live.index)
        return live.index

    index = client.portal.call(move)  # type: ignore[union-attr]
    assert sorted(built, key=lambda s: -1 if s is None else s) == [None, 0, 1]
    assert public_calls == [index]  # once for the three seats' payloads

    got = {name: [_drain(c) for c in group] for name, group in socks.items()}
    for name, per_conn in got.items():
        assert [len(m) for m in per_conn] == [1] * len(per_conn), name  # once each
        first = per_conn[0][0]
        assert isinstance(first, str)  # queued encoded, not as a dict to encode per socket
        assert all(m[0] is first for m in per_conn), name  # the very same text, encoded once
        update = json.loads(first)
        assert update["type"] == "update" and update["index"] == index
    assert got["seat0"][0][0] != got["seat1"][0][0]  # each seat its own view

    # Sharing the public parts changes nothing in what a seat is sent.
    monkeypatch.setattr(payloads, "seat_payload", real_seat_payload)
    live = hub.get(gid)
    for name, seat in (("seat0", 0), ("seat1", 1), ("watch", None)):
        alone = encode(payloads.seat_payload(live, seat, "update", since=index - 1,
                                             clock=hub.clock_json(live)))
        assert got[name][0][0] == alone


def test_a_broadcast_with_no_socket_builds_nothing(
    client: TestClient, create: Any, hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = create("adventure", [{"kind": "human"}, {"kind": "human"}])
    calls: list[int] = []
    monkeypatch.setattr(payloads, "public_parts", lambda live, clock: calls.append(1))
    conns.broadcast(hub.get(made["game_id"]), None)
    assert calls == []
