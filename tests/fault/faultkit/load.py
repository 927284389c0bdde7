"""Many games played at once against a real server, which is killed with SIGKILL in between.

Each game is Adventure Cards with two human seats, both played by this driver with seeded random
legal moves: most over two WebSockets (act -> the update comes back), every third one over REST
(`POST /actions` -> the reply). One *epoch* is one server lifetime: every game plays until the
server is killed (after a seeded number of acknowledged actions), the game ends, or the time
limit. After each restart the driver double-submits every action it never saw acknowledged
(the server must refuse it as `action/stale` if it was stored) and plays on. `GameLedger` keeps
what was sent and acknowledged; `ledger.check_record` holds it against the stored records.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from faultkit.ledger import GameLedger
from faultkit.server import ServerProcess

_DROPPED = (OSError, WebSocketException, httpx.TransportError, asyncio.IncompleteReadError)


@dataclass
class LoadStats:
    """What the driver saw, for the report and the assertions."""

    actions_sent: int = 0
    resends: int = 0
    resend_codes: dict[str, int] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)  # refusals of the driver's own acts
    acked_in_epoch: int = 0
    lost_after_restart: list[str] = field(default_factory=list)

    def refusal(self, code: str) -> None:
        self.refused[code] = self.refused.get(code, 0) + 1


def create_games(server: ServerProcess, count: int) -> list[GameLedger]:
    """`count` two-seat Adventure games; every third is played over REST, the rest over sockets."""
    games = []
    with server.client() as http:
        for n in range(count):
            res = http.post("/api/games", json={
                "game": "adventure", "players": 2,
                "seats": [{"kind": "human"}, {"kind": "human"}],
            })
            assert res.status_code == 201, res.text
            made = res.json()
            games.append(GameLedger(
                game_id=made["game_id"],
                tokens={s["seat"]: s["token"] for s in made["seats"]},
                creator_token=made["creator_token"],
                transport="rest" if n % 3 == 2 else "ws",
            ))
    return games


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Epoch:
    """One server lifetime: all games play at once until `stop` is set or each is done."""

    def __init__(self, server: ServerProcess, games: list[GameLedger], rngs: list[random.Random],
                 stats: LoadStats, *, kill_after_acks: int | None, deadline: float,
                 max_actions: int) -> None:
        self.server = server
        self.games = games
        self.rngs = rngs
        self.stats = stats
        self.kill_after_acks = kill_after_acks
        self.deadline = deadline
        self.max_actions = max_actions
        self.stop = asyncio.Event()  # the games stop playing (after the kill, or at the end)
        self.kill_now = asyncio.Event()  # the seeded moment has come
        self.killing = False  # from here on a dropped connection is expected
        self.acks = 0

    def _acked(self, ledger: GameLedger, index: int) -> None:
        before = len(ledger.acked)
        ledger.saw(index)
        self.acks += len(ledger.acked) - before
        if self.kill_after_acks is not None and self.acks >= self.kill_after_acks:
            self.kill_now.set()

    async def run(self) -> None:
        players = [self._play(g, r) for g, r in zip(self.games, self.rngs, strict=True)]
        tasks = [asyncio.create_task(p) for p in players]
        if self.kill_after_acks is not None:
            # Kill while the games are in full swing (they keep sending until the process is
            # gone): the moment is the seeded ack count.
            waiter = asyncio.create_task(self.kill_now.wait())
            everyone = asyncio.gather(*tasks, return_exceptions=True)
            left = max(0.1, self.deadline - time.monotonic())
            await asyncio.wait([waiter, everyone], timeout=left,
                               return_when=asyncio.FIRST_COMPLETED)
            self.killing = True
            await asyncio.to_thread(self.server.kill)
            waiter.cancel()
            self.stop.set()
            results = await everyone
        else:
            results = await asyncio.gather(*tasks, return_exceptions=True)
        self.stats.acked_in_epoch = self.acks
        for result in results:
            if isinstance(result, BaseException):
                raise result

    async def _play(self, ledger: GameLedger, rng: random.Random) -> None:
        if ledger.over:
            return
        try:
            if ledger.transport == "ws":
                await self._play_ws(ledger, rng)
            else:
                await self._play_rest(ledger, rng)
        except _DROPPED:
            if not self.killing:
                raise  # the server dropped us while it was meant to be up

    def _done(self, ledger: GameLedger, played: int) -> bool:
        return (ledger.over or self.stop.is_set() or played >= self.max_actions
                or time.monotonic() >= self.deadline)

    async def _play_ws(self, ledger: GameLedger, rng: random.Random) -> None:
        url = f"{self.server.ws_url}/ws/{ledger.game_id}"
        conns = {}
        for seat in ledger.tokens:
            conns[seat] = await connect(url, max_size=2**22, compression=None, open_timeout=30)
        latest: dict[int, dict[str, Any]] = {}
        changed = asyncio.Event()

        async def reader(seat: int) -> None:
            async for raw in conns[seat]:
                msg = json.loads(raw)
                if msg["type"] == "error":
                    self.stats.refusal(msg["error"]["code"])
                elif msg["type"] in ("snapshot", "update"):
                    latest[seat] = msg
                    self._acked(ledger, msg["index"])
                    ledger.over = ledger.over or msg["status"] == "over"
                changed.set()

        readers = [asyncio.create_task(reader(seat)) for seat in conns]
        stopper = asyncio.create_task(self.stop.wait())
        try:
            for seat, ws in conns.items():
                await ws.send(json.dumps({"type": "hello", "seat": seat,
                                          "token": ledger.tokens[seat],
                                          "since": ledger.seen_index}))
            played = 0
            inflight: int | None = None
            while not self._done(ledger, played):
                waiter = asyncio.create_task(changed.wait())
                await asyncio.wait([waiter, stopper, *readers],
                                   timeout=max(0.01, self.deadline - time.monotonic()),
                                   return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                ended = [task for task in readers if task.done()]
                for task in ended:
                    if task.exception() is not None:
                        raise task.exception()  # type: ignore[misc]
                if ended:  # a socket closed cleanly: this life of the game is over
                    if not (ledger.over or self.killing):
                        raise AssertionError(f"the server closed a socket of {ledger.game_id}")
                    break
                changed.clear()
                if self._done(ledger, played):
                    break
                move = self._next_move(ledger, latest, inflight, rng)
                if move is not None:
                    seat, action, index = move
                    inflight = index
                    ledger.send(index, seat, action)
                    self.stats.actions_sent += 1
                    played += 1
                    await conns[seat].send(json.dumps(
                        {"type": "act", "action": action, "index": index}))
        finally:
            stopper.cancel()
            for ws in conns.values():
                await ws.close()
            for task in readers:
                task.cancel()
            await asyncio.gather(*readers, return_exceptions=True)

    @staticmethod
    def _next_move(ledger: GameLedger, latest: dict[int, dict[str, Any]], inflight: int | None,
                   rng: random.Random) -> tuple[int, dict[str, Any], int] | None:
        """The seat to act and its move at the newest index, unless that index is in flight."""
        if not latest:
            return None
        index = max(m["index"] for m in latest.values())
        if inflight is not None and inflight >= index:
            return None
        for seat, msg in sorted(latest.items()):
            if msg["index"] == index and msg["legal"]:
                again = ledger.sent.get(index)  # sent before a kill and never stored
                action = again[1] if again else rng.choice(msg["legal"])
                return seat, action, index
        return None

    async def _play_rest(self, ledger: GameLedger, rng: random.Random) -> None:
        async with httpx.AsyncClient(base_url=self.server.url, timeout=30) as http:
            played = 0
            while not self._done(ledger, played):
                summary = (await http.get(f"/api/games/{ledger.game_id}")).json()
                self._acked(ledger, summary["index"])
                if summary["status"] == "over":
                    ledger.over = True
                    break
                seat = summary["to_act"]
                index = summary["index"]
                state = (await http.get(f"/api/games/{ledger.game_id}/state",
                                        params={"seat": seat, "since": index},
                                        headers=_auth(ledger.tokens[seat]))).json()
                again = ledger.sent.get(index)
                action = again[1] if again else rng.choice(state["legal"])
                ledger.send(index, seat, action)
                self.stats.actions_sent += 1
                played += 1
                res = await http.post(f"/api/games/{ledger.game_id}/actions",
                                      json={"seat": seat, "action": action, "index": index},
                                      headers=_auth(ledger.tokens[seat]))
                if res.status_code == 200:
                    self._acked(ledger, res.json()["index"])
                else:
                    self.stats.refusal(res.json()["error"]["code"])


def resend_unacknowledged(server: ServerProcess, games: list[GameLedger],
                          stats: LoadStats) -> None:
    """After a restart: check nothing acknowledged was lost, then double-submit each pending act.

    A pending action the server stored must now be refused as `action/stale` (applied once); one
    it never stored is applied now, so either way each index holds exactly one action.
    """
    with server.client() as http:
        for ledger in games:
            summary = http.get(f"/api/games/{ledger.game_id}").json()
            if summary["index"] < ledger.seen_index:
                stats.lost_after_restart.append(
                    f"{ledger.game_id}: index {summary['index']} after restart, "
                    f"but {ledger.seen_index} were acknowledged")
            pending = ledger.pending()
            if pending is None:
                ledger.saw(summary["index"])
                ledger.over = summary["status"] == "over"
                continue
            seat, action = ledger.sent[pending]
            res = http.post(f"/api/games/{ledger.game_id}/actions",
                            json={"seat": seat, "action": action, "index": pending},
                            headers=_auth(ledger.tokens[seat]))
            stats.resends += 1
            code = "applied" if res.status_code == 200 else res.json()["error"]["code"]
            stats.resend_codes[code] = stats.resend_codes.get(code, 0) + 1
            if res.status_code == 200:
                ledger.saw(res.json()["index"])
            else:
                ledger.saw(http.get(f"/api/games/{ledger.game_id}").json()["index"])
            ledger.over = http.get(f"/api/games/{ledger.game_id}").json()["status"] == "over"


def hand_to_computers(server: ServerProcess, games: list[GameLedger]) -> None:
    """Games still running at the time limit: the creator hands every seat to a computer."""
    with server.client() as http:
        for ledger in games:
            summary = http.get(f"/api/games/{ledger.game_id}").json()
            if summary["status"] == "over":
                ledger.over = True
                continue
            ledger.saw(summary["index"])
            ledger.handed_over_at = summary["index"]
            for seat in ledger.tokens:
                res = http.post(f"/api/games/{ledger.game_id}/seats/{seat}/takeover",
                                json={"bot": "memory"}, headers=_auth(ledger.creator_token))
                assert res.status_code == 200, res.text


async def wait_all_over(server: ServerProcess, games: list[GameLedger], timeout: float) -> None:
    """Poll the summaries until every game is over (computer players finish them)."""
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        while True:
            left = [g for g in games
                    if (await http.get(f"/api/games/{g.game_id}")).json()["status"] != "over"]
            if not left:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(left)} games never finished")
            await asyncio.sleep(0.2)

