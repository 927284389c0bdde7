"""A stored game row for tests of the store's writes (web/store.py): a running two-person
Adventure game with no actions yet. On the path through pyproject's pytest `pythonpath`."""

from __future__ import annotations

from pocketgalaxy.web.store import GameRow, now


def running_row(game_id: str) -> GameRow:
    stamp = now()
    return GameRow(
        id=game_id, game="adventure", options={}, players=2, seed=5, pinned=None,
        seats=[{"seat": 0, "kind": "human", "name": "A"}, {"seat": 1, "kind": "human",
                                                         "name": "B"}],
        creator_token_hash="0" * 64, takeover_after_s=None, turn_clock_s=None,
        status="running", outcome=None, action_count=0, created_at=stamp, updated_at=stamp,
    )
