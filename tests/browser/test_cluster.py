"""Three workers, one table: real worker processes on one PostgreSQL and one Redis (`make test`).

- Two people in two browsers, each on a different worker, play a whole game of Adventure Cards;
  a watcher on the third worker sees every move. Midway the second person's worker is killed with
  SIGKILL: their page reconnects through its proxy to another worker and the game goes on. Every
  move the server acknowledged is in the stored log, in order, and on every page.
- A game of computer players keeps moving after the worker that runs them (the lease holder,
  from /api/health) is killed with SIGKILL, and never moves twice: the stored action log has
  contiguous indexes, one row each, and replays under the rules with each seat acting only on
  its own turn.

Each page reaches its worker through a `FailoverProxy` (browsercluster.py), as a real site's reverse
proxy would send it; the workers are browserkit's `LiveServer`s with the cluster settings.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from browsercluster import LEASE_TTL_S, Cluster, FailoverProxy, require_cluster_parts
from browserkit import (
    act_and_wait,
    choose_move,
    click_move,
    index_of,
    last_of,
    next_mover,
    open_table,
    require_browser,
)

from pocketgalaxy.core.game import visible_events
from pocketgalaxy.core.record import GameRecord, replay, start_state
from pocketgalaxy.registry import get_game

pytestmark = [pytest.mark.browser, pytest.mark.cluster]

BOT_DELAY_MS = 300  # computer players take this long, so a game of them lasts 15 s or so
FAILOVER_LIMIT_S = LEASE_TTL_S + 12.0  # "within a few seconds", with room for a shared machine
GAME_LIMIT_S = 150.0


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    require_browser()
    postgres_url, redis_url = require_cluster_parts()
    made = Cluster(tmp_path_factory.mktemp("cluster"), postgres_url, redis_url, workers=3,
                   bot_delay_ms=BOT_DELAY_MS)
    try:
        made.start()
        yield made
    finally:
        made.stop()


@pytest.fixture
def proxies() -> Iterator[list[FailoverProxy]]:
    made: list[FailoverProxy] = []
    yield made
    for proxy in made:
        proxy.stop()


def _proxy(proxies: list[FailoverProxy], *ports: int) -> FailoverProxy:
    proxy = FailoverProxy(list(ports))
    proxies.append(proxy)
    return proxy


def _expected_events(record: dict[str, Any], viewer: int | None) -> list[dict[str, Any]]:
    """Every event of the moves that `viewer` may see, as the server sends them, from the stored
    record alone (the deal's opening events are in the snapshot's view, not in `events`)."""
    rules = get_game(record["game"])
    out: list[dict[str, Any]] = []
    _, steps = replay(rules, GameRecord.from_json(record))
    for i, (_seat, _action, events) in enumerate(steps):
        out.extend({**e.to_json(), "index": i} for e in visible_events(events, viewer))
    result: list[dict[str, Any]] = json.loads(json.dumps(out))  # tuples become lists, as sent
    return result


def _assert_log_is_whole(cluster: Cluster, game_id: str, record: dict[str, Any]
                         ) -> dict[str, Any]:
    """One stored row per index, 0..n-1, matching the record; every step legal for its seat.
    Returns the outcome the log replays to, for the caller to hold against what pages showed."""
    stored = cluster.stored_actions(game_id)
    assert [idx for idx, _, _ in stored] == list(range(len(record["actions"])))
    assert [seat for _, seat, _ in stored] == [a["seat"] for a in record["actions"]]
    rules = get_game(record["game"])
    state = start_state(rules, GameRecord.from_json(record))
    for i, step in enumerate(record["actions"]):
        # Only the seat whose turn it is acts: a second move for one turn would fail here.
        assert rules.to_act(state) == step["seat"], f"step {i}: seat {step['seat']} out of turn"
        state, _ = rules.apply(state, step["seat"], rules.parse_action(step["action"]))
    outcome = rules.outcome(state)
    assert outcome is not None, "the stored log does not reach the end of the game"
    replayed: dict[str, Any] = json.loads(json.dumps(outcome.to_json()))
    return replayed


def test_two_browsers_on_two_workers_and_a_watcher_on_the_third_survive_a_kill_9(
        cluster: Cluster, new_page: Any, proxies: list[FailoverProxy]) -> None:
    cluster.ensure_up()
    w1, w2, w3 = cluster.workers
    created = w1.api("POST", "/api/games", {
        "game": "adventure", "players": 2, "options": {"first_player": "seat0"},
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Grace"}],
        "takeover_after_s": None, "turn_clock_s": None,
    })
    game_id = created["game_id"]
    links = {s["seat"]: s["link"] for s in created["seats"]}
    # Ada is on w1, Grace on w2 (then w1 once w2 is gone), the watcher only ever on w3.
    ada_proxy = _proxy(proxies, w1.port, w3.port)
    grace_proxy = _proxy(proxies, w2.port, w1.port)
    watch_proxy = _proxy(proxies, w3.port)
    ada = open_table(new_page(), ada_proxy.url + links[0])
    grace = open_table(new_page(), grace_proxy.url + links[1])
    watcher = open_table(new_page(), watch_proxy.url + created["watch_link"])
    assert set(ada_proxy.used) == {w1.port} and set(grace_proxy.used) == {w2.port}
    pages = [ada, grace]
    acked: list[dict[str, Any]] = []  # every move the server acknowledged to its page

    def play(moves: int) -> None:
        for _ in range(moves):
            mover = next_mover(pages)
            if mover is None:
                return
            assert len(acked) < 600, "the game did not finish"
            action = choose_move(mover)
            act_and_wait(mover, lambda m=mover, a=action: click_move(m, a))
            acked.append({"seat": last_of(mover)["seat"], "action": action})

    play(8)
    assert len(acked) == 8
    # The watcher on w3 follows moves made through w1 and w2 (Redis carries them).
    watcher.wait_for_function("([i]) => Number(document.body.dataset.index) === i",
                              arg=[len(acked)])

    w2.kill()
    # Grace's page lost its socket; it reconnects by itself, now through w1, at the same move.
    # Wait for the reconnection itself first: just after the kill the page may still say 'open'
    # because its socket's end has not reached it yet.
    deadline = time.monotonic() + FAILOVER_LIMIT_S
    while grace_proxy.used[w1.port] < 1:
        assert time.monotonic() < deadline, f"Grace's page did not reconnect: {grace_proxy.used}"
        time.sleep(0.05)
    grace.wait_for_function("([i]) => document.body.dataset.connection === 'open'"
                            " && Number(document.body.dataset.index) === i", arg=[len(acked)])
    assert w1.api("GET", f"/api/games/{game_id}")["index"] == len(acked)

    play(10_000)
    for page in (ada, grace, watcher):
        page.wait_for_function("document.body.dataset.status === 'over'")
    assert set(watch_proxy.used) == {w3.port}

    record = w3.api("GET", f"/api/games/{game_id}/record")
    # Nothing acknowledged lost, nothing added: the stored log is exactly the moves made.
    assert [{"seat": a["seat"], "action": a["action"]} for a in record["actions"]] == acked
    replayed = _assert_log_is_whole(cluster, game_id, record)
    assert all(by == "person" for _, _, by in cluster.stored_actions(game_id))
    # Every page shows every move: each one's events are exactly what its seat may see.
    assert watcher.evaluate("window.__pocketgalaxy.events") == _expected_events(record, None)
    assert ada.evaluate("window.__pocketgalaxy.events") == _expected_events(record, 0)
    assert grace.evaluate("window.__pocketgalaxy.events") == _expected_events(record, 1)
    for page in (ada, grace, watcher):
        assert index_of(page) == len(acked)
        assert last_of(page)["outcome"] == replayed
        assert page.locator("#outcome").is_visible()


def test_computer_players_go_on_after_their_owner_is_killed_and_never_move_twice(
        cluster: Cluster, new_page: Any, proxies: list[FailoverProxy]) -> None:
    cluster.ensure_up()
    before = cluster.leases()
    w1 = cluster.workers[0]
    created = w1.api("POST", "/api/games", {
        "game": "adventure", "players": 3,
        "seats": [{"kind": "bot", "bot": "memory"}, {"kind": "bot", "bot": "memory"},
                  {"kind": "bot", "bot": "forgetful"}],
    })
    game_id = created["game_id"]

    # The owner: the one worker whose lease count grew when the game started.
    owner_id = None
    deadline = time.monotonic() + 10
    while owner_id is None and time.monotonic() < deadline:
        grown = [w for w, n in cluster.leases().items() if n > before.get(w, 0)]
        owner_id = grown[0] if len(grown) == 1 else None
        time.sleep(0.05)
    assert owner_id is not None, f"no single worker took the game's lease: {cluster.leases()}"
    owner = cluster.worker(owner_id)
    others = [w for w in cluster.workers if w is not owner]
    watch_proxy = _proxy(proxies, others[0].port)
    watcher = open_table(new_page(), watch_proxy.url + created["watch_link"])

    def index_now() -> int:
        reply = httpx.get(f"{others[1].url}/api/games/{game_id}", timeout=5.0)
        assert reply.status_code == 200, reply.text
        return int(reply.json()["index"])

    deadline = time.monotonic() + GAME_LIMIT_S
    while index_now() < 4:
        assert time.monotonic() < deadline, "the computer players did not start"
        time.sleep(0.05)
    owner.kill()
    killed_at = time.monotonic()
    at_kill = index_now()
    summary = httpx.get(f"{others[1].url}/api/games/{game_id}", timeout=5.0).json()
    assert summary["status"] != "over", "the game ended before its owner could be killed"

    # Another worker takes the lease over within seconds and the game moves on to its end.
    while index_now() <= at_kill:
        assert time.monotonic() - killed_at < FAILOVER_LIMIT_S, (
            f"no move for {FAILOVER_LIMIT_S:g} s after the owner {owner_id} was killed")
        time.sleep(0.05)
    resumed_after = time.monotonic() - killed_at
    while httpx.get(f"{others[1].url}/api/games/{game_id}", timeout=5.0).json()["status"] != "over":
        assert time.monotonic() < deadline, "the game of computer players did not finish"
        time.sleep(0.1)

    record = others[0].api("GET", f"/api/games/{game_id}/record")
    replayed = _assert_log_is_whole(cluster, game_id, record)
    assert all(by == "bot" for _, _, by in cluster.stored_actions(game_id))
    assert len(record["actions"]) > at_kill
    watcher.wait_for_function("document.body.dataset.status === 'over'")
    assert last_of(watcher)["outcome"] == replayed
    # The watcher saw every move exactly once (a double move would show twice or not replay).
    assert watcher.evaluate("window.__pocketgalaxy.events") == _expected_events(record, None)
    assert index_of(watcher) == len(record["actions"])
    print(f"failover: the game moved again {resumed_after:.2f} s after its owner was killed")
