"""The integrity check and a commit landing between its two reads (several workers).

A worker that loads a game reads its row (the action count), then its action rows. With several
workers, another one may commit the next action in between: the rows then outnumber the count.
That is no damage, and the game must not be marked damaged (a stored verdict stops the game on
every worker); the check reads both again. A real surplus row is still found.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from starlette.testclient import TestClient

from pocketgalaxy.registry import get_game
from pocketgalaxy.web import integrity
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.store import ActionRow, GameRow, Store, actions_table


class CommitBetweenReads:
    """A store whose first `load_actions` lets 'another worker' commit one action first."""

    def __init__(self, store: Store, commit: Any) -> None:
        self._store = store
        self._commit = commit
        self.reads = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def load_actions(self, game_id: str, since: int = 0) -> list[ActionRow]:
        self.reads += 1
        if self.reads == 1:
            self._commit()
        return self._store.load_actions(game_id, since)


def _game_with_moves(client: TestClient, moves: int) -> tuple[str, list[str]]:
    made = client.post("/api/games", json={
        "game": "adventure", "players": 2, "options": {"first_player": "seat0"},
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "takeover_after_s": None, "turn_clock_s": None,
    }).json()
    tokens = [s["token"] for s in made["seats"]]
    for _ in range(moves):
        _move(client, made["game_id"], tokens)
    return made["game_id"], tokens


def _move(client: TestClient, game_id: str, tokens: list[str]) -> None:
    summary = client.get(f"/api/games/{game_id}").json()
    seat = summary["to_act"]
    state = client.get(f"/api/games/{game_id}/state", params={"seat": seat},
                       headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
    res = client.post(f"/api/games/{game_id}/actions",
                      json={"seat": seat, "action": state["legal"][0], "index": state["index"]},
                      headers={"Authorization": f"Bearer {tokens[seat]}"})
    assert res.status_code == 200, res.text


def _counts(row: GameRow, actions: list[ActionRow], _rules: Any) -> tuple[int, list[int]]:
    return row.action_count, [a.idx for a in actions]


def test_a_commit_between_the_reads_is_not_damage(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    game_id, tokens = _game_with_moves(client, 3)
    racing = CommitBetweenReads(hub.store, lambda: _move(client, game_id, tokens))

    count, held = integrity.load(racing, game_id, get_game, _counts)  # type: ignore[arg-type]

    assert racing.reads == 2  # read again after the count moved
    assert (count, held) == (4, [0, 1, 2, 3])
    assert hub.store.load_game(game_id).damage is None
    assert client.get(f"/api/games/{game_id}").json()["index"] == 4


def test_a_surplus_row_is_still_damage(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    game_id, _ = _game_with_moves(client, 2)
    with hub.store.engine.begin() as conn:  # a row beyond the count, the count untouched
        conn.execute(sa.insert(actions_table).values(
            game_id=game_id, idx=2, seat=0, action={"type": "SkipPeek"}, by="person",
            created_at=sa.func.now()))

    try:
        integrity.load(hub.store, game_id, get_game, _counts)
    except WebError as exc:
        assert exc.code == "record/damaged"
        assert "idx 2 beyond the count" in exc.message
    else:
        raise AssertionError("a row beyond the count was not found")
