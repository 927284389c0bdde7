"""A game other workers keep moving while it is checked (web/integrity.py `_checked_settled`):
its row and its action rows are two reads, so an action committed between them looks like a
broken log until the row is read again. A game that moved on every re-read must still pass, as
long as it settles within SETTLE_READS reads; a log that stays wrong is still refused."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from starlette.testclient import TestClient

from pocketgalaxy.web import integrity
from pocketgalaxy.web.hub import Hub


def _play(client: TestClient, made: dict[str, Any], moves: int) -> None:
    gid = made["game_id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    for index in range(moves):
        state = client.get(f"/api/games/{gid}/state").json()
        seat = state["to_act"]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        legal = client.get(f"/api/games/{gid}/state?seat={seat}", headers=auth).json()["legal"]
        res = client.post(f"/api/games/{gid}/actions", headers=auth,
                          json={"seat": seat, "action": legal[0], "index": index})
        assert res.status_code == 200, res.text


class _Racing:
    """The real store, except that its game row lags `behind` actions at first and catches up
    by one on each read: what a checker sees while other workers commit between its reads."""

    def __init__(self, store: Any, behind: int) -> None:
        self._store, self.behind, self.reads = store, behind, 0

    def load_game(self, game_id: str) -> Any:
        row = self._store.load_game(game_id)
        lag = max(0, self.behind - self.reads)
        self.reads += 1
        return dataclasses.replace(row, action_count=row.action_count - lag)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def _check(hub: Hub, store: Any, game_id: str) -> Any:
    return integrity.load(store, game_id, hub.rules_for, hub._build, record=False)


@pytest.mark.parametrize("behind", [1, 4, 7])
def test_a_game_that_moves_on_during_its_check_still_passes(
    client: TestClient, create: Any, hub: Hub, behind: int
) -> None:
    made = create("adventure", [{"kind": "human"}, {"kind": "human"}])
    _play(client, made, 8)
    racing = _Racing(hub.store, behind)
    live = _check(hub, racing, made["game_id"])
    assert live.index == 8
    assert racing.reads == behind + 1  # read again once per action it saw land


def test_a_log_that_stays_wrong_is_still_refused(
    client: TestClient, create: Any, hub: Hub
) -> None:
    made = create("adventure", [{"kind": "human"}, {"kind": "human"}])
    _play(client, made, 4)
    # Lagging for longer than the re-reads allow: the checker gives up and calls it damaged.
    racing = _Racing(hub.store, integrity.SETTLE_READS + 2)
    with pytest.raises(integrity.DamagedGame) as caught:
        _check(hub, racing, made["game_id"])
    assert caught.value.code == "record/damaged"
    assert racing.reads == integrity.SETTLE_READS  # the first read and each re-read
