"""Run a coroutine to its end on its own event loop, in a fresh thread (for plain tests of async
code, in any folder: pyproject's pytest `pythonpath` puts tests/support on the path).

Playwright's sync API (the browser tests) keeps an event loop running in the main thread for the
rest of the session, where `asyncio.run` refuses to start (and leaves its coroutine never awaited,
which pytest reports later, against some other test). The suite must not depend on the order in
which pytest runs its folders.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_on_own_loop(coro: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(coro)` on a thread of its own; returns its result or raises its error."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
