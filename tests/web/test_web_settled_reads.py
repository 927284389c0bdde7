"""A read never shows an action that is not stored yet.

A commit applies the action in memory, then writes it in a thread under the game's lock
(web/commit.py). The REST reads of a game (its summary, a seat's state, the record) wait for
that lock (`Hub.settle`), so while a write is held at a gate they wait, and once it is stored
they show it; a write that fails is never shown at all.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from pocketgalaxy.web.server import create_app
from pocketgalaxy.web.settings import Settings

WAIT_S = 10.0
HELD_S = 0.5  # how long a read is watched while the write is held


class Gate:
    """Holds the first `append_action` of the real store until `open()`; it may then fail."""

    def __init__(self, store: Any, *, fail: bool = False) -> None:
        self.entered = threading.Event()
        self._release = threading.Event()
        real = store.append_action
        calls: list[int] = []

        def gated(*args: Any, **kwargs: Any) -> Any:
            if not calls:
                calls.append(1)
                self.entered.set()
                assert self._release.wait(WAIT_S), "the gate was never opened"
                if fail:
                    raise RuntimeError("the database went away")
            return real(*args, **kwargs)

        store.append_action = gated

    def open(self) -> None:
        self._release.set()


def _game(client: TestClient) -> tuple[str, int, str, dict[str, Any]]:
    """A two-person Adventure game: its id, the seat to act, its token and first legal move."""
    res = client.post("/api/games", json={"game": "adventure", "players": 2,
                                          "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert res.status_code == 201, res.text
    made = res.json()
    gid = made["game_id"]
    seat = client.get(f"/api/games/{gid}").json()["to_act"]
    token = made["seats"][seat]["token"]
    state = client.get(f"/api/games/{gid}/state?seat={seat}",
                       headers={"Authorization": f"Bearer {token}"}).json()
    return gid, seat, token, state["legal"][0]


def _held_move(client: TestClient, pool: ThreadPoolExecutor, gid: str, seat: int, token: str,
               move: dict[str, Any]) -> Future[httpx.Response]:
    return pool.submit(client.post, f"/api/games/{gid}/actions",
                       headers={"Authorization": f"Bearer {token}"},
                       json={"seat": seat, "action": move, "index": 0})


def test_reads_wait_for_a_write_under_way_then_show_it(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", bot_delay_ms=0)
    with TestClient(create_app(settings)) as client, ThreadPoolExecutor(4) as pool:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        gid, seat, token, move = _game(client)
        gate = Gate(hub.store)
        acting = _held_move(client, pool, gid, seat, token, move)
        assert gate.entered.wait(WAIT_S), "the action's write never came"
        summary = pool.submit(client.get, f"/api/games/{gid}")
        state = pool.submit(client.get, f"/api/games/{gid}/state?seat={seat}",
                            headers={"Authorization": f"Bearer {token}"})
        threading.Event().wait(HELD_S)
        assert not summary.done() and not state.done()  # waiting: index 1 is not stored yet
        assert hub.store.count_actions(gid) == 0
        gate.open()
        assert acting.result(WAIT_S).status_code == 200
        assert summary.result(WAIT_S).json()["index"] == 1
        assert state.result(WAIT_S).json()["index"] == 1
        assert hub.store.count_actions(gid) == 1


def test_a_write_that_fails_is_never_shown(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", bot_delay_ms=0)
    with TestClient(create_app(settings)) as client, ThreadPoolExecutor(4) as pool:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        gid, seat, token, move = _game(client)
        gate = Gate(hub.store, fail=True)
        acting = _held_move(client, pool, gid, seat, token, move)
        assert gate.entered.wait(WAIT_S), "the action's write never came"
        summary = pool.submit(client.get, f"/api/games/{gid}")
        threading.Event().wait(HELD_S)
        gate.open()
        refused = acting.result(WAIT_S)
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "store/failed"
        assert summary.result(WAIT_S).json()["index"] == 0  # the move never appeared
        assert hub.store.count_actions(gid) == 0
