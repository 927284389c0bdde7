"""Two actions at once for the same turn: exactly one is applied, the other is refused clearly."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from loopkit import run_on_own_loop

from pocketgalaxy.web import payloads
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.hub import Hub
from pocketgalaxy.web.settings import Settings
from pocketgalaxy.web.store import StaleWrite, Store


@pytest.fixture
def make_hub(tmp_path: Path, database_url: str) -> Iterator[Callable[[], Hub]]:
    """Hubs on one database, as separate server processes would be; their stores are disposed
    at the end (as the server's lifespan does), so no pooled connection outlives the test."""
    stores: list[Store] = []

    def _make() -> Hub:
        settings = Settings(data_dir=tmp_path, database_url=database_url, bot_delay_ms=0)
        stores.append(Store(settings.resolved_database_url))
        return Hub(stores[-1], settings)

    yield _make
    for store in stores:
        store.dispose()


async def _new_game(hub: Hub) -> tuple[str, int, list[dict[str, Any]]]:
    made = await hub.create("adventure", 2, {}, [{"kind": "human"}, {"kind": "human"}])
    live = hub.get(made["game_id"])
    seat = live.session.to_act
    assert seat is not None
    return live.id, seat, payloads.legal_json(live, seat)


def test_two_actions_at_once_exactly_one_applies(make_hub: Callable[[], Hub]) -> None:
    async def scenario() -> None:
        hub = make_hub()
        gid, seat, legal = await _new_game(hub)
        results = await asyncio.gather(
            hub.act(gid, seat, legal[0], 0), hub.act(gid, seat, legal[-1], 0),
            return_exceptions=True,
        )
        ok = [r for r in results if isinstance(r, dict)]
        refused = [r for r in results if isinstance(r, WebError)]
        assert len(ok) == 1 and len(refused) == 1, results
        assert refused[0].code == "action/stale"
        assert hub.store.count_actions(gid) == 1 == hub.get(gid).index
        await hub.stop()

    run_on_own_loop(scenario())


def test_two_servers_on_one_database_cannot_both_write_an_index(
    make_hub: Callable[[], Hub],
) -> None:
    """The UNIQUE (game_id, idx) constraint is the last line: a second process loses cleanly."""

    async def scenario() -> None:
        first = make_hub()
        gid, seat, legal = await _new_game(first)
        second = make_hub()
        second.get(gid)  # both processes hold the game at index 0
        await first.act(gid, seat, legal[0], 0)
        with pytest.raises(WebError) as refused:
            await second.act(gid, seat, legal[-1], 0)
        assert refused.value.code == "action/stale"
        # The loser rebuilt itself from the store and now agrees with the winner.
        assert second.get(gid).index == 1
        assert second.get(gid).session.view(None).to_json() == \
            first.get(gid).session.view(None).to_json()
        assert first.store.count_actions(gid) == 1
        await first.stop()
        await second.stop()

    run_on_own_loop(scenario())


def test_store_refuses_a_second_row_for_an_index(make_hub: Callable[[], Hub]) -> None:
    hub = make_hub()
    gid, seat, legal = run_on_own_loop(_new_game(hub))
    hub.store.append_action(gid, 0, seat, legal[0], "person")
    with pytest.raises(StaleWrite):
        hub.store.append_action(gid, 0, seat, legal[-1], "person")
    assert [a.action for a in hub.store.load_actions(gid)] == [legal[0]]
