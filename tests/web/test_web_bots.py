"""Computer players on the web: they think off the event loop, on a copy that the game adopts
only with the move, within a budget; their settings are bounded; stopping drops their thoughts."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.registry import make_agent as real_make_agent
from pocketgalaxy.core.game import Action
from pocketgalaxy.web.server import create_app
from pocketgalaxy.web.settings import Settings

# A module-level gate (an Event cannot be copied, and the player thinks on a copy).
GATE = threading.Event()
STARTED = threading.Event()


class GatedAgent(Agent):
    """Waits at the gate before choosing the first legal action (a thread worker runs it)."""

    name = "gated"

    def act(self, view: Any, legal: list[Action]) -> Action:
        STARTED.set()
        assert GATE.wait(20), "the test never opened the gate"
        return legal[0]


class CountingAgent(Agent):
    """Remembers how often it has decided; picks by that count, so a lost copy shows."""

    name = "counting"

    def __init__(self, seed: int = 0, **settings: Any) -> None:
        super().__init__(seed, **settings)
        self.decided = 0

    def act(self, view: Any, legal: list[Action]) -> Action:
        self.decided += 1
        return legal[(self.decided - 1) % len(legal)]


class SleepyAgent(Agent):
    """Thinks far longer than any budget (as a searching player, so in a worker process)."""

    name = "sleepy"

    def act(self, view: Any, legal: list[Action]) -> Action:
        time.sleep(60)
        return legal[0]


class BrokenAgent(Agent):
    """A searcher that fails at every decision."""

    name = "broken"

    def act(self, view: Any, legal: list[Action]) -> Action:
        raise RuntimeError("this player is broken on purpose")


_FAKES: dict[str, type[Agent]] = {"gated": GatedAgent, "counting": CountingAgent}


def fake_make_agent(game: str, spec: str, seat: int, players: int, seed: int) -> Agent:
    name = spec.partition(":")[0]
    if name in _FAKES:
        return _FAKES[name](seed)
    if name == "ismcts" and "sleepy" in spec:
        return SleepyAgent(seed)
    if name == "ismcts" and "broken" in spec:
        return BrokenAgent(seed)
    if name == "ismcts" and "counting" in spec:
        return CountingAgent(seed)  # a searcher's name: thinks in a worker process
    return real_make_agent(game, spec, seat, players, seed)


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(data_dir=tmp_path / "data", bot_delay_ms=0, rate_burst=10_000,
                        bot_move_budget_s=10.0, bot_processes=1)
    GATE.clear()
    STARTED.clear()
    with TestClient(create_app(settings, make_agent=fake_make_agent)) as c:
        yield c
    GATE.set()


def _create(client: TestClient, game: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    res = client.post("/api/games", json={"game": game, "players": len(seats), "seats": seats})
    assert res.status_code == 201, res.text
    body: dict[str, Any] = res.json()
    return body


def _wait(check: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)  # 10 polls a second: under the per-client request rate (20/s)
    raise AssertionError("the server never got there")


def test_requests_are_served_while_a_computer_player_thinks(app_client: TestClient) -> None:
    made = _create(app_client, "adventure", [{"kind": "bot", "bot": "gated"},
                                            {"kind": "bot", "bot": "gated"}])
    gid = made["game_id"]
    assert STARTED.wait(10)
    # The player is stuck thinking; the server still answers this game and others at once.
    started = time.perf_counter()
    assert app_client.get("/api/themes").status_code == 200
    assert app_client.get(f"/api/games/{gid}").json()["index"] == 0
    other = _create(app_client, "adventure", [{"kind": "human"}, {"kind": "human"}])
    assert app_client.get(f"/api/games/{other['game_id']}").status_code == 200
    assert time.perf_counter() - started < 5.0
    GATE.set()
    _wait(lambda: app_client.get(f"/api/games/{gid}").json()["index"] >= 1)


def test_a_thought_is_dropped_when_the_seat_changed_hands(app_client: TestClient) -> None:
    made = _create(app_client, "adventure", [{"kind": "human", "name": "Ada"},
                                            {"kind": "human"}])
    gid, creator = made["game_id"], made["creator_token"]
    seat = app_client.get(f"/api/games/{gid}").json()["to_act"]
    token = made["seats"][seat]["token"]
    auth = {"Authorization": f"Bearer {creator}"}
    res = app_client.post(f"/api/games/{gid}/seats/{seat}/takeover", json={"bot": "gated"},
                          headers=auth)
    assert res.status_code == 200, res.text
    assert STARTED.wait(10)
    mine = {"Authorization": f"Bearer {token}"}
    res = app_client.post(f"/api/games/{gid}/seats/{seat}/return", headers=mine)
    assert res.status_code == 200, res.text
    state = app_client.get(f"/api/games/{gid}/state?seat={seat}", headers=mine).json()
    move = state["legal"][-1]
    assert move != state["legal"][0]  # not the gated player's choice
    res = app_client.post(f"/api/games/{gid}/actions",
                          json={"seat": seat, "action": move, "index": 0}, headers=mine)
    assert res.status_code == 200, res.text
    GATE.set()
    time.sleep(0.3)  # the stale thought comes back now, and must be dropped
    hub = app_client.app.state.hub  # type: ignore[attr-defined]
    actions = hub.store.load_actions(gid)
    assert [(a.idx, a.by, a.action) for a in actions] == [(0, "person", move)]


@pytest.mark.parametrize("spec", ["counting", "ismcts:fake=counting"],
                         ids=["thread-worker", "process-worker"])
def test_the_game_adopts_the_copy_that_thought(app_client: TestClient, spec: str) -> None:
    made = _create(app_client, "adventure", [{"kind": "bot", "bot": spec},
                                            {"kind": "bot", "bot": "memory"}])
    gid = made["game_id"]
    hub = app_client.app.state.hub  # type: ignore[attr-defined]
    _wait(lambda: app_client.get(f"/api/games/{gid}").json()["status"] == "over", 60)
    actions = hub.store.load_actions(gid)
    mine = [a for a in actions if a.seat == 0]
    assert len(mine) > 3
    # Replayed with one local CountingAgent, its choices match the web game's move for move.
    from pocketgalaxy.registry import get_game
    from pocketgalaxy.session import Session

    rules = get_game("adventure")
    row = hub.store.load_game(gid)
    local = CountingAgent(0)
    session = Session(rules, row.options, seed=row.seed, players=2)
    local.reset(0, 2, session.options)
    for a in actions:
        if a.seat == 0:
            legal = session.legal_actions(0)
            assert local.act(session.view(0), legal).to_json() == a.action
        session.act(a.seat, a.action)
    assert local.decided == len(mine)


def test_a_searcher_over_its_budget_is_stopped_and_a_quick_player_moves(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="pocketgalaxy.web")
    settings = Settings(data_dir=tmp_path / "data", bot_delay_ms=0, bot_move_budget_s=1.0,
                        bot_processes=1)
    with TestClient(create_app(settings, make_agent=fake_make_agent)) as client:
        made = _create(client, "adventure", [{"kind": "bot", "bot": "ismcts:fake=sleepy"},
                                            {"kind": "bot", "bot": "ismcts:fake=sleepy"}])
        gid = made["game_id"]
        started = time.monotonic()
        _wait(lambda: client.get(f"/api/games/{gid}").json()["index"] >= 1, 30)
        # The budget (1 s, plus a worker's start), not the 60 s the player wanted.
        assert time.monotonic() - started < 15
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.store.load_actions(gid)[0].by == "bot"
    assert any("ran out of its 1 s budget" in r.getMessage() for r in caplog.records)


def test_a_failing_player_does_not_stall_its_game(
    app_client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    made = _create(app_client, "adventure", [{"kind": "bot", "bot": "ismcts:fake=broken"},
                                            {"kind": "bot", "bot": "memory"}])
    gid = made["game_id"]
    _wait(lambda: app_client.get(f"/api/games/{gid}").json()["status"] == "over", 60)
    failures = [r for r in caplog.records if "failed; a quick player moves" in r.getMessage()]
    assert failures and all(r.exc_info for r in failures)


def test_real_searchers_play_a_game_to_the_end_in_worker_processes(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", bot_delay_ms=0, bot_processes=2)
    with TestClient(create_app(settings)) as client:
        made = _create(client, "adventure", [{"kind": "bot", "bot": "ismcts:iterations=20"},
                                            {"kind": "bot", "bot": "ismcts:iterations=20"}])
        peril = _create(client, "perils", [{"kind": "bot", "bot": "planner:samples=8"},
                                           {"kind": "bot", "bot": "teller"}])
        for gid in (made["game_id"], peril["game_id"]):
            _wait(lambda g=gid: client.get(f"/api/games/{g}").json()["status"] == "over", 120)
            assert client.get(f"/api/games/{gid}/record").status_code == 200


def test_stopping_the_server_drops_a_thought_without_a_failure(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="pocketgalaxy.web")
    GATE.clear()
    STARTED.clear()
    settings = Settings(data_dir=tmp_path / "data", bot_delay_ms=0)
    app = create_app(settings, make_agent=fake_make_agent)
    with TestClient(app) as client:
        gid = _create(client, "adventure", [{"kind": "bot", "bot": "gated"},
                                            {"kind": "bot", "bot": "gated"}])["game_id"]
        assert STARTED.wait(10)
        hub = app.state.hub
    GATE.set()  # the server has stopped; the thought finishes now
    time.sleep(0.3)
    assert hub.store.count_actions(gid) == 0
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize(
    ("bot", "fragment"),
    [("ismcts:iterations=100000000", "iterations must be a whole number from 1 to 10000"),
     ("ismcts:seconds=2000", "seconds must be a number from 0.001 to 5")],
)
def test_bot_settings_beyond_their_maximum_are_refused(
    client: TestClient, bot: str, fragment: str
) -> None:
    before = client.get("/api/games").json()
    res = client.post("/api/games", json={
        "game": "adventure", "players": 2, "seats": [{"kind": "bot", "bot": bot},
                                                    {"kind": "human"}]})
    assert res.status_code == 400
    error = res.json()["error"]
    assert error["code"] == "agent/bad_spec" and fragment in error["message"]
    assert error["legal"] and ".." in error["legal"][0]
    assert client.get("/api/games").json() == before


def test_planner_beyond_its_maximum_is_refused_for_a_takeover_too(client: TestClient) -> None:
    res = client.post("/api/games", json={"game": "perils", "players": 2, "seats": [
        {"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "teller"}]})
    made = res.json()
    gid = made["game_id"]
    auth = {"Authorization": f"Bearer {made['creator_token']}"}
    res = client.post(f"/api/games/{gid}/seats/0/takeover",
                      json={"bot": "planner:samples=10000000"}, headers=auth)
    assert res.status_code == 400 and res.json()["error"]["code"] == "agent/bad_spec"
    assert "samples must be a whole number from 1 to 1000" in res.json()["error"]["message"]
    seat = client.get(f"/api/games/{gid}").json()["seats"][0]
    assert seat["taken_over"] is False


def test_the_turn_clock_move_is_thought_off_the_loop_by_the_seat_default(
    tmp_path: Path,
) -> None:
    # The Perils Hero's default computer player is the planner: a searcher, so a worker process.
    settings = Settings(data_dir=tmp_path / "data", bot_delay_ms=0, bot_processes=1)
    with TestClient(create_app(settings)) as client:
        res = client.post("/api/games", json={
            "game": "perils", "players": 2, "turn_clock_s": 1,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "teller"}]})
        gid = res.json()["game_id"]
        _wait(lambda: client.get(f"/api/games/{gid}").json()["index"] >= 1, 60)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        first = hub.store.load_actions(gid)[0]
        assert (first.seat, first.by) == (0, "clock")
        assert hub.bots.light_bot("perils", 0, 2) == "rulebased"
        assert hub.default_bot("perils", 0, 2) == "planner"
