"""Computer players think here, off the event loop, on a copy of themselves, within a budget.

Two kinds of workers, both bounded in number:

- **processes** (pebble's `ProcessPool`, started by forkserver) for the searching players
  (`agents.limits.HEAVY`: ismcts, planner). Pure-Python search holds the GIL; in a thread it
  would still slow every request of the server, in another process it cannot. A process can
  also be stopped: when the budget runs out, the game is evicted or the server stops, the
  worker is terminated and replaced.
- **threads** for the light players (milliseconds per move), where a process round trip
  would cost more than the thinking.

A player keeps memory (what it saw, its random source), which must stay in step with the
session. So a worker never touches the session's own player: it thinks on a copy (pickled to
the process, or deep-copied in the thread) and hands back the action AND the copy that chose
it. The hub adopts the copy only when it commits that action; a thought that is thrown away
(the game moved on, the budget ran out, the server stops) leaves the session's player as it
was, exactly as if it had never thought.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import copy
import multiprocessing
import os
import threading
import time
from typing import Any

from pebble import ProcessPool

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.core.game import Action, Event


class ThinkingStopped(Exception):
    """The thinker was shut down (server stopping): the thought is dropped, not a failure."""


def think(agent: Agent, view: Any, legal: list[Action]) -> tuple[Action, Agent]:
    """The worker's job: the copy of `agent` it was given decides; both come back."""
    action = agent.act(view, legal)
    return action, agent


def think_fresh(
    agent: Agent, seat: int, players: int, options: Any, events: list[Event], view: Any,
    legal: list[Action],
) -> tuple[Action, Agent]:
    """A new player (the turn clock's) catches up on the seat's events, then decides."""
    agent.reset(seat, players, options)
    agent.observe(events)
    return think(agent, view, legal)


WORKER_NICENESS = 10
"""Worker processes run at a lower CPU priority than the server, so on a busy machine the
requests of people come before the thinking of computer players."""


def _worker_start(server_pid: int) -> None:
    """Initializer of each worker process: lower priority, and leave when the server is gone."""
    try:
        os.nice(WORKER_NICENESS)
    except (AttributeError, OSError):  # pragma: no cover - platforms without nice
        pass
    # A server killed with -9 cannot stop its workers, and a worker's parent is the forkserver,
    # which outlives it; so each worker checks once a second that the server still runs.
    threading.Thread(target=_watch, args=(server_pid,), daemon=True).start()


def _watch(server_pid: int) -> None:
    while True:
        time.sleep(1.0)
        try:
            os.kill(server_pid, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # pragma: no cover - a reused pid of another user
            os._exit(0)


def _copy_and(job: Any, agent: Agent, *args: Any) -> tuple[Action, Agent]:
    return job(copy.deepcopy(agent), *args)  # type: ignore[no-any-return]


class Thinker:
    """Runs `think` jobs on bounded worker threads and processes, each within `budget_s`."""

    def __init__(self, *, threads: int, processes: int, budget_s: float) -> None:
        self.threads = max(1, threads)
        self.processes = max(1, processes)
        self.budget_s = budget_s
        self._thread_pool: concurrent.futures.ThreadPoolExecutor | None = None
        self._process_pool: ProcessPool | None = None
        self.stopped = False

    async def run(self, job: Any, agent: Agent, *args: Any, heavy: bool) -> tuple[Action, Agent]:
        """Run `job(copy of agent, *args)`; TimeoutError past the budget, ThinkingStopped once
        stopped. Cancelling the awaiting task stops a process worker at once."""
        if self.stopped:
            raise ThinkingStopped
        if heavy:
            pool = self._processes()
            future: concurrent.futures.Future[tuple[Action, Agent]] = pool.schedule(
                job, args=(agent, *args), timeout=self.budget_s)
        else:
            future = self._threads().submit(_copy_and, job, agent, *args)
        # A process worker has pebble's own timeout (it kills the worker); this one is a guard.
        limit = self.budget_s + 1.0 if heavy else self.budget_s
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), limit)
        except asyncio.CancelledError:
            future.cancel()  # a running process worker is terminated; a thread finishes its copy
            raise

    def _threads(self) -> concurrent.futures.ThreadPoolExecutor:
        if self._thread_pool is None:
            self._thread_pool = concurrent.futures.ThreadPoolExecutor(
                self.threads, thread_name_prefix="pocketgalaxy-bot")
        return self._thread_pool

    def _processes(self) -> ProcessPool:
        if self._process_pool is None:
            # forkserver: forking the server itself (threads running) is unsafe.
            context = multiprocessing.get_context("forkserver")
            self._process_pool = ProcessPool(max_workers=self.processes, context=context,
                                             initializer=_worker_start,
                                             initargs=(os.getpid(),))
        return self._process_pool

    def stop(self) -> None:
        """Stop every worker now; pending and running thoughts end with ThinkingStopped."""
        self.stopped = True
        if self._process_pool is not None:
            self._process_pool.stop()  # type: ignore[no-untyped-call]
            self._process_pool.join(timeout=5)
            self._process_pool = None
        if self._thread_pool is not None:
            self._thread_pool.shutdown(wait=False, cancel_futures=True)
            self._thread_pool = None
