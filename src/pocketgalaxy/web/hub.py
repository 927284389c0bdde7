"""Live games: one `Session` per game, its lock, its connections; creating, finding and acting.

The hub is the server's single authority. Every change to a game goes through `_commit`
(web/commit.py), which runs under the game's asyncio lock and follows one order: apply in memory
(the rules refuse an illegal action before anything changes), COMMIT the action row to the store
at the expected index (in a thread: the event loop serves the other games meanwhile), and only
then tell anyone. If the commit fails, the game is rebuilt from the store, so memory never runs
ahead of the database. On startup every unfinished game is rebuilt by replaying its
action log (games left alone longer than `abandon_after_s` are marked abandoned instead).

Connections do not receive messages directly: each has an outbound queue filled under the game's
lock (so every connection sees updates in order) and drained by its own writer, so one slow
client never holds up a game. Joining or leaving sends no update: only when a seat's connected
state flips does every connection get a small `presence` message.

The data kept per game is in web/live.py; computer players, clocks, away timers and the
abandonment sweep in web/bots.py (thinking itself in web/thinking.py); the checks of a new game's
seats and clocks in web/seat_requests.py; rematches in web/rematch.py; seat changes (a token's
first use, claim, takeover, give back) in web/seats.py. No store call runs on the event loop:
each goes to a thread (`commit.held`), and memory changes only after the store did.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.core.errors import IllegalActionError, MalformedActionError, PocketGalaxyError
from pocketgalaxy.core.game import Action, GameRules
from pocketgalaxy.core.options import options_from_json, options_to_json
from pocketgalaxy.core.rng import new_seed
from pocketgalaxy.session import Session
from pocketgalaxy.web import commit, conns, integrity, payloads, rematch, seats
from pocketgalaxy.web.bots import Bots
from pocketgalaxy.web.errors import WebError, refused_move
from pocketgalaxy.web.live import Clock, Conn, LiveGame, SeatInfo, encode, play_link
from pocketgalaxy.web.seat_requests import SeatRequests
from pocketgalaxy.web.settings import Settings
from pocketgalaxy.web.store import ActionRow, GameRow, Store, now
from pocketgalaxy.web.themes import guard_options
from pocketgalaxy.web.tokens import hash_token, new_token, token_matches

if TYPE_CHECKING:
    from pocketgalaxy.web.cluster import Cluster

__all__ = ["Clock", "Conn", "Hub", "LiveGame", "SeatInfo", "encode", "play_link"]

log = logging.getLogger("pocketgalaxy.web")

GamesLookup = Callable[[str], GameRules[Any, Any]]
AgentMaker = Callable[..., Agent]
AgentNames = Callable[[str, int, int], list[str]]



def _default_games(name: str) -> GameRules[Any, Any]:
    from pocketgalaxy.registry import get_game

    return get_game(name)


def _default_make_agent(game: str, spec: str, seat: int, players: int, seed: int) -> Agent:
    from pocketgalaxy.agents.registry import make_agent

    return make_agent(game, spec, seat, players, seed)


def _default_agent_names(game: str, seat: int, players: int) -> list[str]:
    from pocketgalaxy.agents.registry import agent_names

    return agent_names(game, seat, players)


class Hub(SeatRequests):
    """Every live game of this server process."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        *,
        games: GamesLookup | None = None,
        make_agent: AgentMaker | None = None,
        agent_names: AgentNames | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.games_lookup = games or _default_games
        self.make_agent = make_agent or _default_make_agent
        self.agent_names = agent_names or _default_agent_names
        self.live: dict[str, LiveGame] = {}
        self.closing = False
        self.bots = Bots(self)
        # Several workers (web/cluster/): imported only when a Redis URL is set.
        self.cluster: Cluster | None = None
        if settings.redis_url:
            from pocketgalaxy.web.cluster import Cluster

            self.cluster = Cluster(self)

    # -- lifecycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Check and rebuild every unfinished game from its action log and set its bots and
        clocks going. Games idle too long become abandoned first (and are not rebuilt); games
        marked damaged are checked again (see web/integrity.py)."""
        before = now() - dt.timedelta(seconds=self.settings.abandon_after_s)
        # Before serving, but in threads all the same (the rule: no store call on the loop).
        for game_id in await asyncio.to_thread(self.store.abandon_idle, before):  # nobody came
            log.info("game %s abandoned: untouched since before %s", game_id, before.isoformat())
        if self.cluster is not None:  # each worker loads the games it owns or is asked for
            await self.cluster.start()
            self.bots.start()
            return
        running = await asyncio.to_thread(self.store.unfinished_ids)
        is_running = set(running)  # membership only; the order comes from the list
        damaged = await asyncio.to_thread(self.store.damaged_ids)
        for game_id in running + [g for g in damaged if g not in is_running]:
            try:
                live = await asyncio.to_thread(self._load, game_id, recheck=True)
            except PocketGalaxyError as exc:
                log.error("game %s cannot be rebuilt: %s", game_id, exc.message)
                continue
            if game_id in is_running:
                self.live[game_id] = live
                self._after_change(live)
        self.bots.start()

    async def stop(self) -> None:
        self.closing = True
        self.bots.stop()
        # A commit cancelled above still finishes its write (web/commit.py), under the game's
        # lock: wait for it (a few seconds at most), so the store is not closed under a thread.
        for live in list(self.live.values()):
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(5.0), live.lock:
                    pass
        if self.cluster is not None:
            await self.cluster.stop()  # after the timers stop: then the leases are handed back
        for live in self.live.values():
            for conn in list(live.conns):
                conn.close()

    # -- creating and finding games ---------------------------------------------------------
    def rules_for(self, name: Any) -> GameRules[Any, Any]:
        if not isinstance(name, str):
            raise WebError("request/malformed", "'game' must be the name of a game")
        try:
            return self.games_lookup(name)
        except PocketGalaxyError as exc:
            raise WebError(
                "request/malformed", f"unknown game {name!r}", allowed=exc.allowed
            ) from exc

    async def create(
        self,
        game: Any,
        players: Any,
        options: Any,
        seats: Any,
        *,
        takeover_after_s: Any = None,
        turn_clock_s: Any = None,
        rematch_absent: Any = None,
        seed: int | None = None,
        pinned: dict[str, Any] | None = None,
        bot_seeds: dict[int, int] | None = None,
    ) -> dict[str, Any]:
        """Create a game; the server picks the seed. Returns tokens and links (shown only once).
        Its row is stored in a thread; the game is live only once stored (503 otherwise)."""
        rules = self.rules_for(game)
        if isinstance(players, bool) or not isinstance(players, int):
            raise WebError("request/malformed", "'players' must be a whole number")
        if not rules.min_players <= players <= rules.max_players:
            raise WebError(
                "request/malformed",
                f"{rules.name} is for {rules.min_players} to {rules.max_players} players, "
                f"not {players}",
                allowed=[str(n) for n in range(rules.min_players, rules.max_players + 1)],
            )
        if options is not None and not isinstance(options, dict):
            raise WebError("options/invalid", "'options' must be a JSON object")
        guard_options(rules.name, options)
        opts = options_from_json(rules.options_type, options)
        takeover = self._seconds("takeover_after_s", takeover_after_s)
        clock = self._seconds("turn_clock_s", turn_clock_s)
        absent = rematch.check_absent(rematch_absent)
        if not isinstance(seats, list) or len(seats) != players:
            raise WebError(
                "request/malformed", f"'seats' must list exactly {players} seats (one per player)"
            )
        infos: list[SeatInfo] = []
        tokens: dict[int, str] = {}
        agents: dict[int, Agent] = {}
        for i, spec in enumerate(seats):
            fixed = (bot_seeds or {}).get(i)
            info, agent = self._seat_from_request(rules, i, players, spec, fixed)
            if info.kind == "human":
                tokens[i] = new_token()
                info.token_hash = hash_token(tokens[i])
            else:
                assert agent is not None
                agents[i] = agent
            infos.append(info)
        game_id = secrets.token_urlsafe(9)
        seed = new_seed() if seed is None and pinned is None else seed
        meta = self._meta(game_id, infos)
        session = Session(rules, opts, seed=seed, players=players, pinned=pinned, agents=agents,
                          meta=meta)
        creator = new_token()
        stamp = now()
        row = GameRow(
            id=game_id, game=rules.name, options=options_to_json(opts), players=players,
            seed=seed, pinned=pinned, seats=[asdict(s) for s in infos],
            creator_token_hash=hash_token(creator), takeover_after_s=takeover,
            turn_clock_s=clock, status="over" if session.is_over else "running",
            outcome=session.outcome.to_json() if session.outcome else None, action_count=0,
            created_at=stamp, updated_at=stamp, rematch_absent=absent,
        )
        live = LiveGame(
            id=game_id, rules=rules, session=session, seats=infos,
            creator_token_hash=row.creator_token_hash, takeover_after_s=takeover,
            turn_clock_s=clock, created_at=stamp, by=[], rematch_absent=absent,
        )

        def started(_: None) -> None:
            self.live[game_id] = live
            self._after_change(live)

        await commit.saved("the new game", lambda: self.store.insert_game(row), started)
        return {
            "game_id": game_id,
            "creator_token": creator,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    **({"token": tokens[s.seat]} if s.seat in tokens else {}),
                    "link": play_link(game_id, s.seat, tokens.get(s.seat)),
                }
                for s in infos
            ],
            "watch_link": f"/play/{game_id}",
        }

    @staticmethod
    def _meta(game_id: str, seats: Iterable[SeatInfo]) -> dict[str, Any]:
        return {
            "game_id": game_id,
            "seats": [
                {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot} for s in seats
            ],
        }

    def get(self, game_id: str) -> LiveGame:
        """The game, from memory or rebuilt from the store; 404 `game/unknown` otherwise. Reads
        the store in the caller's thread: for tools and tests; async code awaits `fetch`."""
        live = self.live.get(game_id)
        if live is None:
            if not isinstance(game_id, str) or not 1 <= len(game_id) <= 32:
                raise WebError("game/unknown", f"no game {game_id!r}")
            live = self._load(game_id)
            self.live[game_id] = live
            self._after_change(live)
        return live

    async def fetch(self, game_id: str) -> LiveGame:
        """`get`, with the store read (when the game is not in memory) in a thread."""
        live = self.live.get(game_id)
        if live is not None:
            return live
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 32:
            raise WebError("game/unknown", f"no game {game_id!r}")
        if self.cluster is not None:  # hear its nudges before reading it (web/cluster/bus.py)
            await self.cluster.hold(game_id)
        fresh = await asyncio.to_thread(self._load, game_id)
        live = self.live.get(game_id)  # another request may have loaded it meanwhile
        if live is None:
            live = self.live[game_id] = fresh
            self._after_change(live)
        return live

    async def settle(self, live: LiveGame) -> None:
        """Wait until no commit of the game is under way, for a reader that then builds its
        answer without an await: a commit applies an action in memory before its write ends
        (under the lock), so a read meanwhile could show an action that is not stored yet, and
        that a failed write takes back."""
        async with live.lock:
            pass

    def _load(self, game_id: str, *, recheck: bool = False) -> LiveGame:
        """Rebuild a stored game; 409 `record/damaged` if it fails its integrity check."""
        return integrity.load(self.store, game_id, self.rules_for, self._build, recheck=recheck)

    def _build(
        self, row: GameRow, actions: list[ActionRow], rules: GameRules[Any, Any]
    ) -> LiveGame:
        game_id = row.id
        seats = [SeatInfo.from_json(s) for s in row.seats]
        record = integrity.record_of(row, actions, self._meta(game_id, seats))
        agents = {s.seat: self._agent_for(rules.name, s, row.players) for s in seats
                  if s.kind == "bot" or s.takeover}
        session = Session.from_record(rules, record, agents=agents)
        integrity.check_end(row, session)
        return LiveGame(
            id=game_id, rules=rules, session=session, seats=seats,
            creator_token_hash=row.creator_token_hash, takeover_after_s=row.takeover_after_s,
            turn_clock_s=row.turn_clock_s, created_at=row.created_at, by=[a.by for a in actions],
            abandoned=row.status == "abandoned", idle_since=_idle_since(row.updated_at),
            rematch_id=row.rematch_id, rematch_absent=row.rematch_absent,
        )

    def _agent_for(self, game: str, seat: SeatInfo, players: int) -> Agent:
        spec = seat.bot if seat.kind == "bot" else seat.takeover
        assert spec is not None
        return self.make_agent(game, spec, seat.seat, players, seat.bot_seed)

    async def _reload(self, live: LiveGame) -> None:
        """Put memory back in line with the store (after a failed commit; lock held)."""

        def put_back(fresh: LiveGame) -> None:
            live.session, live.seats, live.by = fresh.session, fresh.seats, fresh.by

        await commit.held(lambda: self._load(live.id), put_back)

    async def lobby(self, *, open_only: bool) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(
            self.store.list_games, status="running" if open_only else None,
            limit=self.settings.lobby_limit,
        )
        out = []
        for row in rows:
            seats = [SeatInfo.from_json(s) for s in row.seats]
            open_seats = [s.seat for s in seats if s.is_open]
            if open_only and not open_seats:
                continue
            try:
                title = self.rules_for(row.game).title
            except WebError:
                continue
            out.append(payloads.lobby_entry(row, title, open_seats))
        return out

    # -- seats and tokens ----------------------------------------------------------------------
    def seat_info(self, live: LiveGame, seat: Any) -> SeatInfo:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(live.seats):
            raise WebError(
                "seat/unknown", f"game {live.id} has no seat {seat!r}",
                allowed=[str(s.seat) for s in live.seats],
            )
        return live.seats[seat]

    async def authenticate(self, live: LiveGame, seat: Any, token: Any) -> int | None:
        """Check a seat's token (seat None: a watcher, no token needed). Returns the seat. The
        token's first use is stored, under the game's lock (web/seats.py)."""
        return await seats.authenticate(self, live, seat, token)

    async def authenticate_locked(self, live: LiveGame, seat: Any, token: Any) -> int | None:
        """`authenticate` for a caller holding the game's lock."""
        return await seats.authenticate_locked(self, live, seat, token)

    def check_creator(self, live: LiveGame, token: Any) -> None:
        if not token_matches(token, live.creator_token_hash):
            raise WebError("auth/bad_token", "this needs the game creator's token")

    async def claim(self, game_id: str, seat: Any, name: Any) -> dict[str, Any]:
        """Take an open human seat from the lobby: a fresh token (the creation one stops)."""
        return await seats.claim(self, game_id, seat, name)

    async def take_over(self, game_id: str, seat: Any, creator_token: Any, bot: Any) -> None:
        """The creator hands a person's seat to a computer player."""
        await seats.take_over(self, game_id, seat, creator_token, bot)

    async def _take_over_locked(self, live: LiveGame, info: SeatInfo, spec: str,
                                reason: str) -> None:
        await seats.take_over_locked(self, live, info, spec, reason)

    async def give_back(self, game_id: str, seat: Any, token: Any) -> None:
        """The seat's person takes it back from the computer player."""
        await seats.give_back(self, game_id, seat, token)

    # -- acting ------------------------------------------------------------------------------
    async def act(self, game_id: str, seat: int, action: Any, index: Any) -> dict[str, Any]:
        """A person's action (the seat is already authenticated). Returns the new index and the
        events of this action that the seat may see."""
        live = await self.fetch(game_id)
        async with live.lock:
            info = self.seat_info(live, seat)
            if live.session.is_over:
                raise WebError("action/game_over", "the game has ended")
            self._check_playable(live)
            if not info.is_person:
                raise WebError(
                    "seat/taken_over",
                    f"a computer player holds seat {seat}; take it back first (POST .../return)",
                )
            if isinstance(index, bool) or not isinstance(index, int):
                raise WebError("action/malformed", "'index' must be the action count you have seen")
            if index != live.index:
                raise WebError(
                    "action/stale",
                    f"you acted on position {index} but the game is at {live.index}: "
                    "another action came first; look again",
                    allowed=payloads.legal_json(live, seat),
                )
            self._check_text(action)
            try:
                parsed = live.rules.parse_action(action)
                live.rules.check(live.session.state, seat, parsed)
            except MalformedActionError as exc:
                raise WebError("action/malformed", exc.message, allowed=exc.allowed) from exc
            except IllegalActionError as exc:
                # Our own legal list, never the rules' `allowed`, which could describe another seat.
                legal = payloads.legal_json(live, seat)
                raise refused_move(live.rules.name, exc, live.session.view(seat),  # its view only
                                   [s.name for s in live.seats], legal) from exc
            at = await self._commit(live, seat, parsed, "person")
            return {"index": live.index, "events": payloads.events_json(live, seat, at, at + 1)}

    def _check_text(self, data: Any, depth: int = 0) -> None:
        limit = self.settings.max_text_len
        if depth > 8:
            raise WebError("action/malformed", "an action is nested too deeply")
        if isinstance(data, str) and len(data) > limit:
            raise WebError("action/malformed", f"a text field is longer than {limit} characters")
        if isinstance(data, dict):
            for value in data.values():
                self._check_text(value, depth + 1)
        elif isinstance(data, list):
            for value in data:
                self._check_text(value, depth + 1)

    async def _commit(self, live: LiveGame, seat: int, action: Action, by: str) -> int:
        """Apply, persist in a thread, then tell everyone (game lock held; web/commit.py).
        Returns the action's index."""
        return await commit.commit(self, live, seat, action, by)

    def _broadcast(self, live: LiveGame, *, skip: Conn | None = None) -> None:
        conns.broadcast(live, self.clock_json(live), skip=skip)

    # -- several workers (web/cluster/) ----------------------------------------------------------
    def tell(self, live: LiveGame, kind: str) -> None:
        """A stored change other than an action (seats, status): nudge the other workers."""
        if self.cluster is not None:
            self.cluster.changed(live, kind)

    async def _fresh(self, live: LiveGame) -> None:
        """Before changing seats (lock held): take the other workers' latest from the store."""
        if self.cluster is not None and await self.cluster.catch_up_locked(live):
            self._broadcast(live)

    def runs_timers(self, live: LiveGame) -> bool:
        """This worker runs the game's computer players and timers (always, in one process)."""
        return self.cluster is None or self.cluster.owns(live.id)

    # -- connections ---------------------------------------------------------------------------
    def attach(self, live: LiveGame, conn: Conn, seat: int | None, since: int) -> None:
        """Register a connection and queue its snapshot (called with no await in between).

        The others hear of it only when it changes whether its seat is connected: a watcher
        joining costs one snapshot, whatever the number of watchers."""
        self.detach(conn)
        conn.seat, conn.game_id = seat, live.id
        conn.sent_index = live.index
        live.conns.add(conn)
        # A finished game leaves memory when nobody is connected; one who connects brings it back,
        # so a later change (a rematch) reaches this connection.
        self.live.setdefault(live.id, live)
        live.idle_since = None
        flipped = conns.count(live, seat, +1)
        if flipped and seat is not None and self.cluster is not None:
            self.cluster.seen(live, seat)  # for the owner's away timer, on whichever worker
        conn.push(payloads.seat_payload(live, seat, "snapshot", since=since,
                                        clock=self.clock_json(live)))
        if flipped:
            conns.presence(live, skip=conn)
            self._after_change(live)

    def detach(self, conn: Conn) -> None:
        if conn.game_id is None:
            return
        live = self.live.get(conn.game_id)
        conn.game_id = None
        if live is None or conn not in live.conns:
            return
        live.conns.discard(conn)
        if not live.conns:
            live.idle_since = time.monotonic()
        if conns.count(live, conn.seat, -1):
            conns.presence(live)
        self._after_change(live)  # the away timer, or a finished game leaving memory

    # -- computer players, clocks, absences and abandoned games (web/bots.py) ------------------
    def _after_change(self, live: LiveGame) -> None:
        """After any change: start the bots if one is to act, and set the clocks right."""
        if self.closing:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - only when used outside a server
            return
        self.bots.after_change(live)
        if self.cluster is not None:
            self.cluster.after_change(live)  # asks for the lease, or hands it back when over
        if (live.session.is_over or live.abandoned) and not live.conns and (
                self.live.get(live.id) is live):
            # Finished (or abandoned) and nobody connected: the store holds all of it, and `get`
            # rebuilds it on demand, so memory does not grow with every game ever played.
            self.bots.forget(live)
            del self.live[live.id]

    def person_to_act(self, live: LiveGame) -> int | None:
        """The seat to act when a person holds it (None otherwise, or when over or abandoned)."""
        seat = live.session.to_act
        if seat is None or live.abandoned or not live.seats[seat].is_person:
            return None
        return seat

    def clock_json(self, live: LiveGame) -> dict[str, Any] | None:
        return self.bots.clock_json(live)

    async def touch(self, live: LiveGame, at: float) -> None:
        """Refresh the store's `updated_at` now and then while people are connected (in a
        thread; a failure is logged and tried again at the next sweep)."""
        if at - live.touched_at < self.settings.abandon_after_s / 10:
            return

        def touched(_: None) -> None:
            live.touched_at = at

        try:
            await commit.held(lambda: self.store.touch(live.id), touched)
        except Exception:
            log.exception("could not note that game %s is in use", live.id)

    async def abandon(self, live: LiveGame) -> None:
        """Nobody has been here for `abandon_after_s`: keep the game, refuse its actions. The
        status is stored first (in a thread, under the game's lock), then memory follows."""

        def abandoned(_: None) -> None:
            live.abandoned = True
            self.bots.forget(live)
            self.tell(live, "status")
            log.info("game %s abandoned: nobody connected for %d s", live.id,
                     self.settings.abandon_after_s)
            self._after_change(live)

        async with live.lock:
            if live.abandoned or live.session.is_over or live.conns:
                return  # someone came, or it ended, while the sweep waited for the lock
            await commit.saved(f"the end of game {live.id}",
                               lambda: self.store.set_status(live.id, "abandoned"), abandoned)

    def _check_playable(self, live: LiveGame) -> None:
        if live.abandoned:
            raise WebError(
                "game/abandoned",
                f"game {live.id} was abandoned (nobody came back for "
                f"{self.settings.abandon_after_s} s); it can be watched and replayed, not played",
            )


def _idle_since(updated_at: dt.datetime) -> float:
    """The monotonic time matching a stored wall-clock stamp (never in the future)."""
    age = max(0.0, (now() - updated_at).total_seconds())
    return time.monotonic() - age
