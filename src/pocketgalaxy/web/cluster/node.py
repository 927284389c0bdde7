"""One worker's part in a cluster: follow other workers' changes, hold leases, adopt games.

The hub (web/hub.py) calls this object at a few points: after it COMMITs an action or a seat
change (`committed`, `changed`), to ask whether it may run a game's timers and computer players
(`owns`), and after any change (`after_change`, which asks for the lease of a running game it
does not own). Everything else runs on this object's own tasks:

- the bus listener (web/cluster/bus.py) hands over nudges from other workers; a nudge for a game
  this worker holds in memory starts a catch-up, which reads the new action rows (from the index
  this worker has reached) and applies them in index order, then fans the update out to this
  worker's sockets. Per connection the hub sends what lies between the last index sent and the
  game's index (web/conns.py), so every action reaches every socket once and in order, whatever
  the nudges did (late, repeated, lost);
- the nudge of an action carries the committed row: when this worker's copy stands at that
  row's index and nothing else is under way for the game, the row is applied at once (no store
  read, no task); otherwise the catch-up above runs;
- a tick every third of the lease time renews this worker's leases (a lost one stops that
  game's timers here), compares with the store, in one batched query, the games in memory that
  it heard nothing of for a tick (heals lost nudges: a lost nudge of a game that keeps moving
  shows as a gap at its next nudge, one of a game that went quiet at the next check), and
  adopts running games whose lease nobody holds (their owner died or stopped), a bounded number
  per tick, in a random order so that several workers share the orphans.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.web import rematch
from pocketgalaxy.web.cluster.bus import Bus
from pocketgalaxy.web.cluster.lease import Leases
from pocketgalaxy.web.cluster.presence import Presence
from pocketgalaxy.web.live import LiveGame, SeatInfo

if TYPE_CHECKING:
    from pocketgalaxy.web.hub import Hub

log = logging.getLogger("pocketgalaxy.web.cluster")

ADOPT_PER_TICK = 64  # orphaned games one worker takes per tick (the others take the rest)
RETRY_TICKS = 30  # a held game's lease is asked for again by `after_change` at most this often
STOP_WAIT_S = 5.0  # longest a stop waits for the catch-ups and the tick under way


class ClusterError(PocketGalaxyError):
    """The cluster cannot start as configured (e.g. Redis unreachable, SQLite)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="cluster/setup")


def check_settings(redis_url: str, database_url: str) -> None:
    """Several workers need a shared database server: refuse SQLite with a clear message."""
    if not database_url.startswith("postgresql"):
        raise ClusterError(
            "POCKETGALAXY_REDIS_URL is set (several workers), so the database must be PostgreSQL "
            "(POCKETGALAXY_DATABASE_URL=postgresql+psycopg://...); a shared SQLite file over many "
            f"processes is not supported (the database is {database_url.split(':', 1)[0]}); "
            "unset POCKETGALAXY_REDIS_URL to run one process on SQLite")
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise ClusterError(
            f"POCKETGALAXY_REDIS_URL must be a redis://, rediss:// or unix:// URL, "
            f"not {redis_url.split(':', 1)[0]!r}")


class Cluster:
    """This worker's Redis client, bus and leases, and the tasks that use them."""

    def __init__(self, hub: Hub, redis: Any | None = None) -> None:
        settings = hub.settings
        assert settings.redis_url is not None
        check_settings(settings.redis_url, settings.resolved_database_url)
        if redis is None:
            import redis.asyncio as aioredis  # only when clustered: one process never loads it

            redis = aioredis.Redis.from_url(settings.redis_url)
        self.hub = hub
        self.redis = redis
        self.worker_id = settings.worker_id
        self.tick_s = settings.lease_ttl_s / 3
        self.leases = Leases(redis, self.worker_id, settings.lease_ttl_s)
        self.bus = Bus(redis, self.worker_id, self.on_nudge)
        self.presence = Presence(redis, self.worker_id, settings.lease_ttl_s)
        self.tasks: set[asyncio.Task[None]] = set()
        self.following: dict[str, asyncio.Task[None]] = {}
        self.again: set[str] = set()  # games with a nudge that came during their catch-up
        self.tried: dict[str, float] = {}  # game -> when we last asked for its lease
        self.skip: set[str] = set()  # games that cannot be rebuilt (damaged): not adopted
        self.ticker: asyncio.Task[None] | None = None
        self.renewer: asyncio.Task[None] | None = None
        # games whose lease we hold in Redis but no longer trust (a renewal came late): renewed
        # with all the others by the lease loop, which then restarts their timers
        self.regain: set[str] = set()
        self.wake = asyncio.Event()  # set on stop: the tick loop ends without waiting
        self.stopping = False
        self.random = random.Random()  # the order orphans are adopted in; no game depends on it
        self.applied = 0  # nudged actions applied without a store read (tests, logs)
        self.checked = 0  # games compared with the store by the ticks (tests, logs)
        # game -> (its stored seats text, the seats list in memory) when the check last found
        # them equal: a change here writes new text, one taken from elsewhere replaces the list,
        # so an unchanged game's seats are not decoded and compared on every check
        self.seats_seen: dict[str, tuple[str, list[SeatInfo]]] = {}

    # -- lifecycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Reach Redis (a clear error if it is not there), then start the bus and the tick."""
        try:
            await self.redis.ping()
        except Exception as exc:
            raise ClusterError(f"cannot reach Redis at POCKETGALAXY_REDIS_URL: {exc}") from exc
        self.bus.start()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.bus.subscribed.wait(), 5.0)
        await self.bus.hold(list(self.hub.live))  # games loaded at startup (checked by the tick)
        await self.tick()  # adopt orphans at once, not a tick later
        self.ticker = asyncio.create_task(self._tick_loop())
        self.renewer = asyncio.create_task(self._lease_loop())

    async def stop(self, *, hand_back: bool = True) -> None:
        """Stop the tasks and hand back every lease, so other workers need not wait for them
        (`hand_back=False`: let them lapse, as a killed worker's do; the tests use it).

        The tasks are let finish rather than cancelled at once: a cancelled task would leave
        its store read running in a thread after the store is disposed."""
        self.stopping = True
        self.wake.set()
        pending = [t for t in [self.ticker, self.renewer, *self.tasks,
                               *self.following.values()]
                   if t is not None and not t.done()]
        if pending:
            _, late = await asyncio.wait(pending, timeout=STOP_WAIT_S)
            for task in late:
                task.cancel()
        await self.bus.stop()
        if hand_back:
            with contextlib.suppress(Exception):  # Redis away: the leases lapse by themselves
                await asyncio.wait_for(self.leases.release_all(), 2.0)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.redis.aclose(), 2.0)

    # -- what the hub asks and tells ----------------------------------------------------------
    def owns(self, game_id: str) -> bool:
        return self.leases.owns(game_id)

    def committed(self, live: LiveGame, at: int, seat: int, action: dict[str, Any],
                  by: str) -> None:
        """Action `at` of this game was committed here: nudge the other workers, with the row."""
        live.heard_at = time.monotonic()
        self.bus.publish(live.id, live.index, "action",
                         {"at": at, "seat": seat, "action": action, "by": by})

    def changed(self, live: LiveGame, kind: str) -> None:
        """Seats or status changed here (claim, takeover, return, abandonment, rematch)."""
        self.bus.publish(live.id, live.index, kind)

    def after_change(self, live: LiveGame) -> None:
        """Ask for the lease of a running game we hold but do not own (once; then again only
        after RETRY_TICKS ticks: a lease that lapses meanwhile is found by the tick's orphan
        search, in one batched read); hand back the lease of a game that has ended or was
        abandoned."""
        if self.stopping:
            return
        if not self.bus.holding(live.id):  # a game new here (created, or back in memory)
            self._spawn(self.bus.hold([live.id]))
        if live.session.is_over or live.abandoned:
            if live.id in self.leases.held:
                self._spawn(self.leases.release(live.id))
            return
        if self.owns(live.id):
            return
        if live.id in self.leases.held:
            # Ours in Redis, but its renewal is late: the lease loop renews it with all the
            # others in one call. (A renewal of its own per game, in a burst when a late tick
            # let them all lapse here at once, made the Redis client open connections by the
            # hundred: an eighth of a loaded worker's time.)
            self.regain.add(live.id)
            return
        now = time.monotonic()
        if now - self.tried.get(live.id, -1e9) >= RETRY_TICKS * self.tick_s:
            self.tried[live.id] = now
            self._spawn(self._adopt(live.id))

    async def hold(self, game_id: str) -> None:
        """Listen to the game's nudges before reading it from the store (web/cluster/bus.py)."""
        await self.bus.hold([game_id])

    def seen(self, live: LiveGame, seat: int) -> None:
        """A seat's first connection here: note it at once (the owner's away timer asks)."""
        self._spawn(self.presence.note([(live.id, seat)]))

    async def present_elsewhere(self, game_id: str, seat: int) -> bool:
        """Is the seat's person connected to another worker? (Redis away: assume so, so that
        no one is taken over on a guess.)"""
        try:
            return await self.presence.elsewhere(game_id, seat)
        except Exception as exc:
            log.warning("could not ask Redis who is connected (%s)", exc)
            return True

    def health(self) -> dict[str, Any]:
        held = [g for g in self.leases.held if self.owns(g)]
        return {"worker": self.worker_id, "cluster": True, "leases": len(held),
                "live": len(self.hub.live)}

    # -- following other workers -----------------------------------------------------------
    def on_nudge(self, nudge: dict[str, Any]) -> None:
        live = self.hub.live.get(nudge["game"])
        if live is None:
            return
        live.heard_at = time.monotonic()
        move = nudge.get("move")
        if nudge["kind"] == "action" and move is not None:
            if move["at"] < live.index:
                return  # already here (a repeated or late nudge; or a write racing it here,
                # whose failure reloads the game from the store)
            if self.apply(live, move):
                return
        self.follow(live.id)

    def apply(self, live: LiveGame, move: dict[str, Any]) -> bool:
        """Apply a nudged action row at once when it is the next one and the game is free here
        (no await between the checks and the change: nothing else runs on the game meanwhile).
        False when it cannot be (busy, a gap, or the rules refuse it): the caller catches up
        from the store instead."""
        hub = self.hub
        if (self.stopping or move["at"] != live.index or live.lock.locked()
                or live.id in self.following or hub.live.get(live.id) is not live):
            return False
        try:
            live.session.act(move["seat"], move["action"])  # refuses before changing anything
        except PocketGalaxyError:
            return False
        live.by.append(move["by"])
        self.applied += 1
        hub._broadcast(live)
        hub._after_change(live)
        return True

    def follow(self, game_id: str) -> None:
        """Catch the game up with the store (one catch-up at a time per game)."""
        if self.stopping:
            return
        running = self.following.get(game_id)
        if running is not None and not running.done():
            self.again.add(game_id)
            return
        self.following[game_id] = asyncio.create_task(self._follow(game_id))

    async def _follow(self, game_id: str) -> None:
        try:
            while True:
                self.again.discard(game_id)
                await self.catch_up(game_id)
                if game_id not in self.again:
                    break
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("could not catch game %s up with the store", game_id)
        finally:
            if self.following.get(game_id) is asyncio.current_task():
                del self.following[game_id]

    async def catch_up(self, game_id: str) -> bool:
        """Bring the game in memory level with the store and tell this worker's sockets.

        New action rows are applied in index order from the index reached (a seat or status
        change rebuilds the game from the store instead). True when anything changed."""
        hub = self.hub
        live = hub.live.get(game_id)
        if live is None:
            return False
        async with live.lock:
            if hub.live.get(game_id) is not live:
                return False
            changed = await self.catch_up_locked(live)
            live.heard_at = time.monotonic()
            if changed:
                hub._broadcast(live)
                hub._after_change(live)
            return changed

    async def catch_up_locked(self, live: LiveGame) -> bool:
        """The catch-up itself, the game's lock held (the hub calls it before changing seats,
        so it writes the seats over the latest ones). Tells no one; True when anything changed."""
        hub = self.hub
        game_id = live.id
        row = await asyncio.to_thread(hub.store.load_game, game_id)
        if row is None:
            return False
        changed = False
        if row.action_count < live.index:  # cannot happen (rows are never deleted)
            await self._rebuild(live)
            changed = True
        seats = [SeatInfo.from_json(s) for s in row.seats]
        if [asdict(s) for s in seats] != live.seats_json():
            self._take_seats(live, seats)
            changed = True
        if row.action_count > live.index:
            rows = await asyncio.to_thread(hub.store.load_actions, game_id, live.index)
            try:
                for action in rows:
                    if action.idx != live.index:
                        break  # a gap cannot happen (UNIQUE, dense indexes); stop, heal later
                    live.session.act(action.seat, action.action)
                    live.by.append(action.by)
                    changed = True
            except PocketGalaxyError:
                log.exception("game %s: a stored action does not apply here; rebuilding",
                              game_id)
                await self._rebuild(live)
                changed = True
        if row.status == "abandoned" and not live.abandoned:
            live.abandoned = changed = True
        if row.rematch_id != live.rematch_id:
            live.rematch_id, changed = row.rematch_id, True
            rematch._announce(live)  # its sockets here hear of the rematch, as on its worker
        if row.creator_token_hash != live.creator_token_hash:  # a rematch's creator came
            live.creator_token_hash = row.creator_token_hash
        return changed

    def _take_seats(self, live: LiveGame, seats: list[SeatInfo]) -> None:
        """Another worker changed the seats: take them, and hand the computer players that a
        takeover or a return changed to the session (they catch up on the seat's events)."""
        for old, new in zip(live.seats, seats, strict=True):
            if old.takeover != new.takeover:
                agent = self.hub._agent_for(live.rules.name, new, len(seats)) if (
                    new.takeover is not None) else None
                live.session.set_agent(new.seat, agent)
        live.seats = seats

    async def _rebuild(self, live: LiveGame) -> None:
        fresh = await asyncio.to_thread(self.hub._load, live.id)
        live.session, live.seats, live.by = fresh.session, fresh.seats, fresh.by

    # -- the tick: leases, the store check, orphans ----------------------------------------------
    async def _tick_loop(self) -> None:
        while not self.stopping:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(),
                                       self.tick_s * (0.8 + 0.4 * self.random.random()))
            if self.stopping:
                return
            try:
                await self.tick(renew=False)  # the lease loop renews
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis or the database away: the next tick tries again
                log.warning("cluster tick failed: %s", exc)

    async def _lease_loop(self) -> None:
        """Renew the leases every tick on a task of their own: the rest of the tick (presence,
        the store check, the orphan search) awaits several round trips, each behind whatever
        the loop has queued, and must not make a renewal late."""
        while not self.stopping:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.tick_s)
            if self.stopping:
                return
            try:
                await self._renew()
                self._regained()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the next round tries again
                log.warning("lease renewal round failed: %s", exc)

    def _regained(self) -> None:
        """Restart the timers of the games whose late lease the last renewal kept."""
        again, self.regain = self.regain, set()
        for game_id in sorted(again):
            live = self.hub.live.get(game_id)
            if live is not None and self.owns(game_id):
                self.hub._after_change(live)

    async def tick(self, *, renew: bool = True) -> None:
        """Renew, note who is connected here, check, adopt (one round; tests call it too).
        `renew=False`: all but the renewal (the lease loop's)."""
        if renew:
            await self._renew()
            self._regained()
        await self.presence.note(
            (live.id, seat) for live in list(self.hub.live.values())
            for seat, n in sorted(live.seat_conns.items()) if n > 0)
        await self.listen_to_held()
        await self.check()
        await self.adopt_orphans()

    async def _renew(self) -> None:
        try:
            lost = await self.leases.renew_all()
        except Exception as exc:
            log.warning("could not renew leases (%s); they lapse unless Redis comes back", exc)
            lost = []
        for game_id in lost:
            log.info("lost the lease of game %s; its timers stop here", game_id)
        # Timers of games whose lease lapsed or was lost stop here (the new owner runs them).
        now = time.monotonic()
        self.tried = {g: t for g, t in self.tried.items()
                      if now - t < RETRY_TICKS * self.tick_s and g in self.hub.live}
        self.seats_seen = {g: t for g, t in self.seats_seen.items() if g in self.hub.live}
        for live in list(self.hub.live.values()):
            if not self.owns(live.id) and self._has_timers(live):
                self.hub.bots.forget(live)
            if not self.owns(live.id) and not live.conns and self.hub.live.get(live.id) is live:
                del self.hub.live[live.id]  # nobody here needs it: its owner keeps it

    async def listen_to_held(self) -> None:
        """Listen to the shards of every game in memory (one that came in by a path that did
        not ask is compared with the store by this tick's check), and leave the others."""
        missing = [g for g in self.hub.live if not self.bus.holding(g)]
        if missing:
            await self.bus.hold(missing)
            for game_id in missing:
                live = self.hub.live.get(game_id)
                if live is not None:
                    live.heard_at = 0.0  # it may have missed nudges: the check reads it
        await self.bus.keep(list(self.hub.live))

    @staticmethod
    def _has_timers(live: LiveGame) -> bool:
        return any(t is not None for t in (live.bot_task, live.clock_task, live.away_task))

    async def check(self, *, every: bool = False) -> None:
        """Compare with the store the games in memory heard nothing of for a tick (`every`:
        all of them), in one batched query; catch up those that differ."""
        now = time.monotonic()
        ids = [g for g, live in self.hub.live.items()
               if every or now - live.heard_at >= self.tick_s]
        if not ids:
            return
        self.checked += len(ids)
        for game_id in ids:
            self.hub.live[game_id].heard_at = now  # checked now: not again before a tick
        stored = await asyncio.to_thread(self.hub.store.progress, ids)
        for game_id, (count, status, seats_text) in stored.items():
            live = self.hub.live.get(game_id)
            if live is None:
                continue
            if count != live.index or (status == "abandoned") != live.abandoned:
                self.follow(game_id)
                continue
            seen = self.seats_seen.get(game_id)
            if seen is not None and seen[0] == seats_text and seen[1] is live.seats:
                continue  # the very text found equal to these very seats last time
            seats = _seats(seats_text)
            if seats is not None and seats != live.seats_json():
                self.follow(game_id)
            else:
                self.seats_seen[game_id] = (seats_text, live.seats)

    async def adopt_orphans(self) -> None:
        """Take the lease of running games that nobody holds (bounded per tick)."""
        ids = await asyncio.to_thread(self.hub.store.unfinished_ids)
        free = [g for g in ids if g not in self.leases.held and g not in self.skip]
        if not free:
            return
        holders = await self.leases.holders(free)
        orphans = [g for g in free if holders.get(g) is None]
        self.random.shuffle(orphans)
        for game_id in orphans[:ADOPT_PER_TICK]:
            await self._adopt(game_id)

    async def _adopt(self, game_id: str) -> None:
        if self.stopping or not await self.leases.acquire(game_id):
            return
        hub = self.hub
        live = hub.live.get(game_id)
        if live is None:
            await self.bus.hold([game_id])  # before the read: no commit after it goes unheard
            try:
                live = await asyncio.to_thread(hub._load, game_id)
            except PocketGalaxyError as exc:
                log.error("game %s cannot be rebuilt here: %s", game_id, exc.message)
                self.skip.add(game_id)
                await self.leases.release(game_id)
                return
            live = hub.live.setdefault(game_id, live)
        else:
            await self.catch_up(game_id)  # it may have moved on while we did not own it
        log.info("worker %s now runs game %s", self.worker_id, game_id)
        hub._after_change(live)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(_logged(coro))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


async def _logged(coro: Any) -> None:
    """Run a background step; Redis or the database away is logged, the next tick retries."""
    try:
        await coro
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        log.warning("cluster step failed: %s", exc)


def _seats(text: str) -> list[dict[str, Any]] | None:
    try:
        data = json.loads(text)
        return [asdict(SeatInfo.from_json(s)) for s in data]
    except (ValueError, TypeError, AttributeError):
        return None  # unreadable here: the integrity check reports it when the game is loaded
