"""Every store call of a request or timer runs in a thread (web/commit.py `held`), not on the
event loop: while one game's write is held at a gate, another game keeps playing; a write that
fails changes nothing in memory and says so (503 `store/failed`); a caller cancelled during the
write still leaves memory and store agreeing. SQLite and PostgreSQL (`database_url`).

The gate wraps a method of the REAL store: the first call waits on a `threading.Event` (in its
worker thread, so a call made on the loop would freeze the whole test: the gate's wait is bounded
and the test then fails), then fails or goes on to the real write.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from loopkit import run_on_own_loop

from pocketgalaxy.web import payloads, rematch
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.hub import Hub
from pocketgalaxy.web.settings import Settings
from pocketgalaxy.web.store import Store

WAIT_S = 10.0  # the longest a gate or a test waits for anything


class Gate:
    """Holds the first call of `store.<name>` until `open()`, then runs it (or fails it)."""

    def __init__(self, store: Store, name: str, *, fail: bool = False) -> None:
        self.entered = threading.Event()
        self._release = threading.Event()
        self.threads: list[int] = []
        real = getattr(store, name)

        def gated(*args: Any, **kwargs: Any) -> Any:
            if not self.threads:
                self.threads.append(threading.get_ident())
                self.entered.set()
                assert self._release.wait(WAIT_S), "the gate was never opened"
                if fail:
                    raise RuntimeError("the database went away")
            return real(*args, **kwargs)

        setattr(store, name, gated)

    def open(self) -> None:
        self._release.set()

    async def reached(self) -> None:
        assert await asyncio.to_thread(self.entered.wait, WAIT_S), "the store call never came"


Scenario = Callable[[Hub, str], Awaitable[None]]


def _run(tmp_path: Path, database_url: str, scenario: Scenario, **settings: Any) -> None:
    async def main() -> None:
        store = Store(database_url)
        hub = Hub(store, Settings(data_dir=tmp_path / "data", bot_delay_ms=0, **settings))
        await hub.start()
        try:
            other = (await _people(hub))["game_id"]  # plays while the gated call waits
            await scenario(hub, other)
        finally:
            await hub.stop()
            store.dispose()

    run_on_own_loop(main())


async def _people(hub: Hub, **extra: Any) -> dict[str, Any]:
    return await hub.create("adventure", 2, {}, [{"kind": "human"}, {"kind": "human"}],
                            seed=77, **extra)


def _token(made: dict[str, Any], seat: int) -> str:
    return str(made["seats"][seat]["token"])


async def _move(hub: Hub, gid: str) -> dict[str, Any]:
    """The first legal action of whoever is to act (one more stored action)."""
    live = hub.live[gid]
    seat = live.session.to_act
    assert seat is not None
    return await hub.act(gid, seat, payloads.legal_json(live, seat)[0], live.index)


async def _meanwhile(hub: Hub, other: str, gate: Gate, op: Awaitable[Any]) -> Any:
    """Run `op` up to its gated store call; prove the loop still serves the `other` game (three
    actions stored and answered); then open the gate and return what `op` returned."""
    stored = hub.store.count_actions(other)
    task = asyncio.ensure_future(op)
    await gate.reached()
    for _ in range(3):
        await _move(hub, other)
    assert hub.store.count_actions(other) == stored + 3
    assert not task.done()  # still held at the gate while the other game played
    assert gate.threads[0] != threading.get_ident()  # the call ran in a worker thread
    gate.open()
    return await asyncio.wait_for(task, WAIT_S)


async def _refused(gate: Gate, op: Awaitable[Any]) -> WebError:
    gate.open()
    with pytest.raises(WebError) as refused:
        await asyncio.wait_for(op, WAIT_S)
    assert refused.value.code == "store/failed"
    assert "could not be saved, so nothing changed" in refused.value.message
    return refused.value


# -- a new game ------------------------------------------------------------------------------
def test_creating_a_game_writes_in_a_thread(tmp_path: Path, database_url: str) -> None:
    async def scenario(hub: Hub, other: str) -> None:
        gate = Gate(hub.store, "insert_game")
        before = set(hub.live)
        made = await _meanwhile(hub, other, gate, _people(hub))
        assert hub.store.load_game(made["game_id"]) is not None
        assert made["game_id"] in hub.live and made["game_id"] not in before

    _run(tmp_path, database_url, scenario)


def test_a_game_whose_row_cannot_be_stored_is_not_created(
    tmp_path: Path, database_url: str
) -> None:
    async def scenario(hub: Hub, other: str) -> None:
        gate = Gate(hub.store, "insert_game", fail=True)
        before = set(hub.live)
        error = await _refused(gate, _people(hub))
        assert "the new game" in error.message
        assert set(hub.live) == before and hub.store.count_games() == 1  # the other game only

    _run(tmp_path, database_url, scenario)


def test_the_lobby_reads_in_a_thread(tmp_path: Path, database_url: str) -> None:
    async def scenario(hub: Hub, other: str) -> None:
        listed = (await _people(hub))["game_id"]
        gate = Gate(hub.store, "list_games")
        entries = await _meanwhile(hub, other, gate, hub.lobby(open_only=True))
        assert listed in [e["game_id"] for e in entries]

    _run(tmp_path, database_url, scenario)


# -- seats ------------------------------------------------------------------------------------
def test_a_tokens_first_use_is_stored_in_a_thread(tmp_path: Path, database_url: str) -> None:
    async def scenario(hub: Hub, other: str) -> None:
        made = await _people(hub)
        live = hub.live[made["game_id"]]
        gate = Gate(hub.store, "update_seats")
        assert await _meanwhile(hub, other, gate, hub.authenticate(live, 1, _token(made, 1))) == 1
        row = hub.store.load_game(live.id)
        assert row is not None and row.seats[1]["used"] is True and live.seats[1].used

    _run(tmp_path, database_url, scenario)


def test_a_tokens_first_use_that_cannot_be_stored_is_refused_and_not_kept(
    tmp_path: Path, database_url: str
) -> None:
    async def scenario(hub: Hub, other: str) -> None:
        made = await _people(hub)
        live = hub.live[made["game_id"]]
        gate = Gate(hub.store, "update_seats", fail=True)
        await _refused(gate, hub.authenticate(live, 1, _token(made, 1)))
        row = hub.store.load_game(live.id)
        assert row is not None and row.seats[1]["used"] is False and not live.seats[1].used
        assert live.seats[1].is_open  # still listed in the lobby
        assert await hub.authenticate(live, 1, _token(made, 1)) == 1  # the next try works
        assert live.seats[1].used

    _run(tmp_path, database_url, scenario)


def test_claiming_a_seat_writes_in_a_thread_and_a_failed_claim_keeps_the_seat_open(
    tmp_path: Path, database_url: str
) -> None:
    async def scenario(hub: Hub, other: str) -> None:
        gid = (await _people(hub))["game_id"]
        live = hub.live[gid]
        failing = Gate(hub.store, "update_seats", fail=True)
        await _refused(failing, hub.claim(gid, 0, "Ada"))
        assert live.seats[0].is_open and live.seats[0].name == "Player 1"
        assert not live.seats[0].claimed
        gate = Gate(hub.store, "update_seats")
        claimed = await _meanwhile(hub, other, gate, hub.claim(gid, 0, "Ada"))
        assert live.seats[0].claimed and live.seats[0].name == "Ada"
        row = hub.store.load_game(gid)
        assert row is not None and row.seats[0]["name"] == "Ada" and row.seats[0]["claimed"]
        assert await hub.authenticate(live, 0, claimed["token"]) == 0

    _run(tmp_path, database_url, scenario)


def test_a_takeover_and_its_return_write_in_a_thread_and_a_failed_one_changes_nothing(
    tmp_path: Path, database_url: str
) -> None:
    async def scenario(hub: Hub, other: str) -> None:
        made = await _people(hub)
        gid, creator = made["game_id"], made["creator_token"]
        live = hub.live[gid]
        hub.bots.stop()  # keep the computer player from moving: the seats are what we check
        failing = Gate(hub.store, "update_seats", fail=True)
        await _refused(failing, hub.take_over(gid, 1, creator, "random"))
        assert live.seats[1].takeover is None and live.seats[1].is_person
        assert 1 not in live.session.agents
        gate = Gate(hub.store, "update_seats")
        await _meanwhile(hub, other, gate, hub.take_over(gid, 1, creator, "random"))
        assert live.seats[1].takeover == "random" and 1 in live.session.agents
        row = hub.store.load_game(gid)
        assert row is not None and row.seats[1]["takeover"] == "random"
        failing = Gate(hub.store, "update_seats", fail=True)
        await _refused(failing, hub.give_back(gid, 1, _token(made, 1)))
        assert live.seats[1].takeover == "random" and 1 in live.session.agents
        gate = Gate(hub.store, "update_seats")
        await _meanwhile(hub, other, gate, hub.give_back(gid, 1, _token(made, 1)))
        assert live.seats[1].takeover is None and 1 not in live.session.agents
        row = hub.store.load_game(gid)
        assert row is not None and row.seats[1]["takeover"] is None

    _run(tmp_path, database_url, scenario)


def test_the_away_timers_takeover_writes_in_a_thread_and_starts_again_when_it_fails(
    tmp_path: Path, database_url: str
) -> None:
    async def scenario(hub: Hub, other: str) -> None:
        failing = Gate(hub.store, "update_seats", fail=True)
        failing.open()
        gid = (await _people(hub, takeover_after_s=1))["game_id"]
        live = hub.live[gid]
        seat = live.session.to_act
        assert seat is not None

        async def taken_over() -> None:
            while live.seats[seat].takeover is None:
                await asyncio.sleep(0.02)

        await failing.reached()  # the first takeover failed to store ...
        assert live.seats[seat].takeover is None and seat not in live.session.agents
        gate = Gate(hub.store, "update_seats")  # ... and its timer came round again
        await _meanwhile(hub, other, gate, taken_over())
        assert live.seats[seat].takeover_reason == "away" and seat in live.session.agents
        row = hub.store.load_game(gid)
        assert row is not None and row.seats[seat]["takeover_reason"] == "away"

    _run(tmp_path, database_url, scenario)


def test_a_claim_cancelled_during_its_write_still_leaves_memory_as_stored(
    tmp_path: Path, database_url: str
) -> None:
    async def scenario(hub: Hub, other: str) -> None:
        gid = (await _people(hub))["game_id"]
        live = hub.live[gid]
        gate = Gate(hub.store, "update_seats")
        task = asyncio.ensure_future(hub.claim(gid, 0, "Ada"))
        await gate.reached()
        task.cancel()  # the client went away mid-write
        await asyncio.sleep(0.05)
        assert not task.done()  # held: the write is still running
        gate.open()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, WAIT_S)
        row = hub.store.load_game(gid)
        assert row is not None and row.seats[0]["claimed"] is True
        assert live.seats[0].claimed and live.seats[0].name == "Ada"
        assert live.seats_json() == row.seats

    _run(tmp_path, database_url, scenario)


# -- abandoned games and the in-use stamp (the sweep) -----------------------------------------
def test_abandoning_writes_in_a_thread_and_a_failed_write_keeps_the_game_running(
    tmp_path: Path, database_url: str
) -> None:
    async def scenario(hub: Hub, other: str) -> None:
        gid = (await _people(hub))["game_id"]
        live = hub.live[gid]
        failing = Gate(hub.store, "set_status", fail=True)
        await _refused(failing, hub.abandon(live))
        assert not live.abandoned
        row = hub.store.load_game(gid)
        assert row is not None and row.status == "running"
        gate = Gate(hub.store, "set_status")
        await _meanwhile(hub, other, gate, hub.abandon(live))
        assert live.abandoned
        row = hub.store.load_game(gid)
        assert row is not None and row.status == "abandoned"

    _run(tmp_path, database_url, scenario, abandon_after_s=3600)


def test_the_in_use_stamp_is_written_in_a_thread_and_retried_when_it_fails(
    tmp_path: Path, database_url: str
) -> None:
    async def scenario(hub: Hub, other: str) -> None:
        gid = (await _people(hub))["game_id"]
        live = hub.live[gid]
        at = live.touched_at + 3600.0
        failing = Gate(hub.store, "touch", fail=True)
        failing.open()
        await hub.touch(live, at)  # logged, not raised: the sweep goes on
        assert live.touched_at < at  # not noted, so the next sweep tries again
        gate = Gate(hub.store, "touch")
        await _meanwhile(hub, other, gate, hub.touch(live, at))
        assert live.touched_at == at

    _run(tmp_path, database_url, scenario, abandon_after_s=3600)


# -- a failed action write: the reload from the store -----------------------------------------
def test_the_reload_after_a_failed_action_write_reads_in_a_thread(
    tmp_path: Path, database_url: str
) -> None:
    async def scenario(hub: Hub, other: str) -> None:
        gid = (await _people(hub))["game_id"]
        failing = Gate(hub.store, "append_action", fail=True)
        failing.open()
        gate = Gate(hub.store, "load_game")
        with pytest.raises(WebError) as refused:
            await _meanwhile(hub, other, gate, _move(hub, gid))
        assert refused.value.code == "store/failed"
        assert hub.live[gid].index == 0 == hub.store.count_actions(gid)

    _run(tmp_path, database_url, scenario)


# -- rematches --------------------------------------------------------------------------------
async def _finished(hub: Hub) -> dict[str, Any]:
    """Both people's seats played to the end by computer players (still the people's seats)."""
    made = await _people(hub)
    gid = made["game_id"]
    for seat in (0, 1):
        await hub.take_over(gid, seat, made["creator_token"], "memory")
    for _ in range(int(WAIT_S / 0.01)):
        live = hub.live.get(gid)  # a finished game nobody watches leaves memory
        if live is None or live.session.is_over:
            return made
        await asyncio.sleep(0.01)
    raise AssertionError("the game did not end")


def test_a_rematch_is_stored_in_threads_and_a_failed_one_leaves_no_trace(
    tmp_path: Path, database_url: str
) -> None:
    async def scenario(hub: Hub, other: str) -> None:
        made = await _finished(hub)
        old_id = made["game_id"]
        games = hub.store.count_games()
        failing = Gate(hub.store, "insert_rematch", fail=True)
        await _refused(failing, rematch.request(hub, old_id, 0, _token(made, 0)))
        assert (await hub.fetch(old_id)).rematch_id is None
        row = hub.store.load_game(old_id)
        assert row is not None and row.rematch_id is None and hub.store.count_games() == games
        gate = Gate(hub.store, "insert_rematch")
        reply = await _meanwhile(hub, other, gate,
                                 rematch.request(hub, old_id, 0, _token(made, 0)))
        assert (await hub.fetch(old_id)).rematch_id == reply["game_id"]
        assert reply["game_id"] in hub.live and hub.store.count_games() == games + 1
        row = hub.store.load_game(old_id)
        assert row is not None and row.rematch_id == reply["game_id"]

    _run(tmp_path, database_url, scenario)


def test_a_rematch_seat_or_creator_token_that_cannot_be_stored_is_not_handed_out(
    tmp_path: Path, database_url: str
) -> None:
    async def scenario(hub: Hub, other: str) -> None:
        made = await _finished(hub)
        old_id = made["game_id"]
        await hub.authenticate(await hub.fetch(old_id), 1, _token(made, 1))  # its first use
        ask = rematch.request(hub, old_id, 1, _token(made, 1),
                              creator_token=made["creator_token"])
        failing = Gate(hub.store, "update_seats", fail=True)
        await _refused(failing, ask)
        new = await hub.fetch(str((await hub.fetch(old_id)).rematch_id))  # seat not handed over
        assert new.seats[1].token_hash is None
        assert new.creator_token_hash == rematch.PENDING
        failing = Gate(hub.store, "set_creator", fail=True)
        await _refused(failing, rematch.request(hub, old_id, 1, _token(made, 1),
                                                creator_token=made["creator_token"]))
        assert new.seats[1].token_hash is not None  # this time the seat was stored
        assert new.creator_token_hash == rematch.PENDING
        row = hub.store.load_game(new.id)
        assert row is not None and row.creator_token_hash == rematch.PENDING
        gate = Gate(hub.store, "set_creator")
        reply = await _meanwhile(hub, other, gate, rematch.request(
            hub, old_id, 1, _token(made, 1), creator_token=made["creator_token"]))
        assert reply["creator_token"] == rematch.derive_token(made["creator_token"], new.id)
        row = hub.store.load_game(new.id)
        assert row is not None and row.creator_token_hash == new.creator_token_hash

    _run(tmp_path, database_url, scenario)
