"""What happens to a game without a request: computer players, turn clocks, away timers, and
the sweep that marks games abandoned.

Thinking runs off the event loop (web/thinking.py) WITHOUT the game's lock, so the game's own
requests (a claim, a watcher's hello) are not held up by it. The lock is taken twice per move:
to read the position (index, view, legal actions) and to commit. The commit happens only if the
game is still at the index the player thought about, with the same session and the same player
in the seat; otherwise the thought is dropped. The store's UNIQUE index is the last guard.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.limits import is_heavy
from pocketgalaxy.core.game import Action
from pocketgalaxy.web.errors import WebError
from pocketgalaxy.web.live import Clock, LiveGame
from pocketgalaxy.web.store import now as store_now
from pocketgalaxy.web.thinking import Thinker, ThinkingStopped, think, think_fresh

if TYPE_CHECKING:
    from pocketgalaxy.web.hub import Hub

log = logging.getLogger("pocketgalaxy.web")

_LIGHT = ("memory", "rulebased", "teller", "random")  # fallbacks, fastest thinkers first


class Bots:
    """The timers and thinkers of every live game of one hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        settings = hub.settings
        self.thinker = Thinker(threads=settings.bot_threads, processes=settings.bot_processes,
                               budget_s=settings.bot_move_budget_s)
        self.sweeper: asyncio.Task[None] | None = None

    # -- lifecycle ------------------------------------------------------------------------
    def start(self) -> None:
        self.sweeper = asyncio.create_task(self._sweep())

    def stop(self) -> None:
        """Cancel every game's timers and thoughts, then stop the workers (no commit after)."""
        if self.sweeper is not None:
            self.sweeper.cancel()
        for live in list(self.hub.live.values()):
            self.forget(live)
        self.thinker.stop()

    @staticmethod
    def forget(live: LiveGame) -> None:
        """Cancel a game's thinking and timers (it leaves memory, is abandoned or we stop)."""
        for task in (live.bot_task, live.clock_task, live.away_task):
            if task is not None:
                task.cancel()
        live.bot_task = live.clock_task = live.away_task = None
        live.clock, live.away_seat = None, None

    # -- after any change -------------------------------------------------------------------
    def after_change(self, live: LiveGame) -> None:
        """Start the bots if one is to act, and set the clocks right (only on the game's owner
        when several workers serve it: web/cluster/)."""
        if live.abandoned or not self.hub.runs_timers(live):
            self.forget(live)
            return
        session = live.session
        if session.bot_to_act() and (live.bot_task is None or live.bot_task.done()):
            live.bot_task = asyncio.create_task(self._bot_loop(live))
        self._set_clock(live)
        self._set_away(live)

    # -- computer players -------------------------------------------------------------------
    async def _bot_loop(self, live: LiveGame) -> None:
        delay = self.hub.settings.bot_delay_ms / 1000
        try:
            while not self.hub.closing and not live.abandoned and live.session.bot_to_act():
                await asyncio.sleep(delay)
                if not await self._bot_move(live):
                    return
        except (asyncio.CancelledError, ThinkingStopped):
            return  # the game left memory or the server stops: not a failure
        except Exception:
            log.exception("the computer players of game %s stopped", live.id)

    async def _bot_move(self, live: LiveGame) -> bool:
        """One move of the computer player to act. False when the loop should end."""
        async with live.lock:
            session = live.session
            if live.abandoned or not session.bot_to_act():
                return False
            seat = session.to_act
            assert seat is not None
            agent, index = session.agents[seat], live.index
            view, legal = session.view(seat), session.legal_actions(seat)
            spec = self._spec(live, seat)
        heavy = is_heavy(live.rules.name, _name(spec))
        try:
            try:
                action, thought = await self.thinker.run(think, agent, view, legal, heavy=heavy)
            except TimeoutError:
                log.warning("computer player %s at seat %d of game %s ran out of its %g s "
                            "budget; a quick player moves instead", spec, seat, live.id,
                            self.thinker.budget_s)
                action, _ = await self._fallback(live, seat, view, legal)
                thought = agent  # the seat keeps its own player, which saw none of this
            except (ThinkingStopped, asyncio.CancelledError):
                raise
            except Exception:
                # A player that fails (or whose worker process died) must not stall the game.
                log.exception("computer player %s at seat %d of game %s failed; a quick player "
                              "moves instead", spec, seat, live.id)
                action, _ = await self._fallback(live, seat, view, legal)
                thought = agent
        except (ThinkingStopped, asyncio.CancelledError):
            raise
        except Exception:
            log.exception("computer player at seat %s of game %s failed", seat, live.id)
            return False
        async with live.lock:
            if self.hub.closing or live.abandoned or not self.hub.runs_timers(live):
                return False
            if (live.session is not session or live.index != index
                    or session.agents.get(seat) is not agent):
                return True  # the game moved on while we thought: look again
            session.agents[seat] = thought
            try:
                await self.hub._commit(live, seat, action, "bot")
            except Exception:
                log.exception("computer player at seat %s of game %s failed", seat, live.id)
                return False
        return True

    def _spec(self, live: LiveGame, seat: int) -> str:
        info = live.seats[seat]
        return (info.bot if info.kind == "bot" else info.takeover) or ""

    def light_bot(self, game: str, seat: int, players: int) -> str:
        """A quick player for a seat: the default unless it searches, else the first light one."""
        spec = self.hub.default_bot(game, seat, players)
        if not is_heavy(game, _name(spec)):
            return spec
        names = self.hub.agent_names(game, seat, players)
        return next((n for n in _LIGHT if n in names), spec)

    async def _fallback(
        self, live: LiveGame, seat: int, view: Any, legal: list[Action], spec: str | None = None
    ) -> tuple[Action, Agent]:
        """A new player, caught up on the seat's events, makes one move: `spec`, or a quick one
        (after a lost budget or a failure)."""
        session = live.session
        players = len(live.seats)
        spec = spec or self.light_bot(live.rules.name, seat, players)
        agent = self.hub.make_agent(live.rules.name, spec, seat, players,
                                    live.seats[seat].bot_seed)
        return await self.thinker.run(
            think_fresh, agent, seat, session.players, session.options,
            session.events_for(seat), view, legal, heavy=is_heavy(live.rules.name, _name(spec)))

    # -- turn clocks ------------------------------------------------------------------------
    def _set_clock(self, live: LiveGame) -> None:
        seat = self.hub.person_to_act(live) if live.turn_clock_s else None
        if seat is None:
            if live.clock_task is not None:
                live.clock_task.cancel()
            live.clock, live.clock_task = None, None
            return
        if live.clock is not None and (live.clock.seat, live.clock.index) == (seat, live.index):
            return
        if live.clock_task is not None:
            live.clock_task.cancel()
        assert live.turn_clock_s is not None
        loop = asyncio.get_running_loop()
        live.clock = Clock(seat, live.index, loop.time() + live.turn_clock_s,
                           time.time() + live.turn_clock_s)
        live.clock_task = asyncio.create_task(
            self._clock_expired(live, seat, live.index, live.turn_clock_s)
        )

    async def _clock_expired(self, live: LiveGame, seat: int, index: int, seconds: float) -> None:
        try:
            await asyncio.sleep(seconds)
            async with live.lock:
                if live.index != index or self.hub.person_to_act(live) != seat:
                    return
                session = live.session
                view, legal = session.view(seat), session.legal_actions(seat)
            # The seat's default computer player moves (a quick one if that one runs out of time).
            spec = self.hub.default_bot(live.rules.name, seat, len(live.seats))
            try:
                try:
                    action, _ = await self._fallback(live, seat, view, legal, spec)
                except TimeoutError:
                    action, _ = await self._fallback(live, seat, view, legal)
            except (ThinkingStopped, asyncio.CancelledError):
                raise
            except Exception:
                log.exception("turn clock move for seat %d of game %s failed", seat, live.id)
                return
            async with live.lock:
                if (self.hub.closing or live.session is not session or live.index != index
                        or self.hub.person_to_act(live) != seat
                        or not self.hub.runs_timers(live)):
                    return
                # This task must not be cancelled by the reschedule that the commit triggers.
                live.clock, live.clock_task = None, None
                try:
                    await self.hub._commit(live, seat, action, "clock")
                except Exception:
                    log.exception("turn clock move for seat %d of game %s failed", seat, live.id)
        except (asyncio.CancelledError, ThinkingStopped):
            return

    def clock_json(self, live: LiveGame) -> dict[str, Any] | None:
        if live.clock is None or live.clock.index != live.index:
            return None
        remaining = max(0.0, live.clock.deadline - asyncio.get_running_loop().time())
        return {"seat": live.clock.seat, "deadline_s": round(remaining, 1),
                "expires_at": round(live.clock.expires_at, 3)}

    # -- away timers ------------------------------------------------------------------------
    def _set_away(self, live: LiveGame) -> None:
        seat = self.hub.person_to_act(live) if live.takeover_after_s else None
        if seat is not None and live.connected(seat):
            seat = None
        if seat is None:
            if live.away_task is not None:
                live.away_task.cancel()
            live.away_seat, live.away_task = None, None
            return
        if live.away_seat == seat and live.away_task is not None and not live.away_task.done():
            return
        if live.away_task is not None:
            live.away_task.cancel()
        assert live.takeover_after_s is not None
        live.away_seat = seat
        live.away_task = asyncio.create_task(self._away_expired(live, seat, live.takeover_after_s))

    async def _away_expired(self, live: LiveGame, seat: int, seconds: float) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(seconds)
            cluster = self.hub.cluster
            # Several workers: the person may be connected to another one; the count starts
            # again once they are gone from there too.
            while cluster is not None and await cluster.present_elsewhere(live.id, seat):
                while await cluster.present_elsewhere(live.id, seat):
                    await asyncio.sleep(cluster.tick_s)
                await asyncio.sleep(seconds)
            async with live.lock:
                if (self.hub.person_to_act(live) != seat or live.connected(seat)
                        or not self.hub.runs_timers(live)):
                    return
                live.away_seat, live.away_task = None, None
                spec = self.hub.default_bot(live.rules.name, seat, len(live.seats))
                try:
                    await self.hub._take_over_locked(live, live.seats[seat], spec, "away")
                except Exception:
                    log.exception("automatic takeover of seat %d in game %s failed", seat,
                                  live.id)
                    self.hub._after_change(live)  # not taken over: its away timer starts again

    # -- abandoned games --------------------------------------------------------------------
    async def _sweep(self) -> None:
        """Every so often, mark abandoned the unfinished games nobody has been at for long."""
        limit = self.hub.settings.abandon_after_s
        every = max(0.05, min(60.0, limit / 10))
        with contextlib.suppress(asyncio.CancelledError):
            while not self.hub.closing:
                await asyncio.sleep(every)
                await self.sweep_once()

    async def sweep_once(self) -> None:
        now = time.monotonic()
        limit = self.hub.settings.abandon_after_s
        for live in list(self.hub.live.values()):
            if live.abandoned or live.session.is_over:
                continue
            if live.conns:
                live.idle_since = None
                await self.hub.touch(live, now)  # people are here: a restart must not abandon it
                continue
            if live.idle_since is None:
                live.idle_since = now
            elif (now - live.idle_since >= limit and not self._thinking(live)
                  and await self._idle_everywhere(live, limit)):
                try:
                    await self.hub.abandon(live)
                except WebError:  # the store refused: still running; the next sweep tries again
                    log.warning("game %s could not be marked abandoned", live.id)

    async def _idle_everywhere(self, live: LiveGame, limit: float) -> bool:
        """Several workers: only the owner abandons, and only when the store says no worker
        touched the game for `limit` either (a worker with people connected touches it)."""
        if self.hub.cluster is None:
            return True
        if not self.hub.runs_timers(live):
            return False
        row = await asyncio.to_thread(self.hub.store.load_game, live.id)
        if row is None or (store_now() - row.updated_at).total_seconds() >= limit:
            return True
        live.idle_since = time.monotonic() - (store_now() - row.updated_at).total_seconds()
        return False

    @staticmethod
    def _thinking(live: LiveGame) -> bool:
        return live.bot_task is not None and not live.bot_task.done()


def _name(spec: str) -> str:
    """The player's name in a spec (`ismcts:iterations=500` -> `ismcts`)."""
    return spec.partition(":")[0].strip()
