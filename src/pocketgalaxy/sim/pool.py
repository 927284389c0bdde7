"""Chunks of work in local worker processes: the one pool loop the simulator and the ladder share.

`chunked(items, size)` cuts a schedule into chunks; `chunk_size(total, workers, cap)` picks a
size that gives each worker about eight chunks (so a slow chunk does not leave the others idle)
and at most `cap` items. `run_chunks(fn, chunks, workers=..., progress=...)` yields each chunk's
results as it finishes: in this process with one worker (or one chunk), otherwise in a pool of
`workers` processes started with fork where the platform has it (fastest on Linux) and spawn
elsewhere; the work is the same either way. Results arrive in completion order, so callers sort
them by their own key: each item carries its own seed, and the results never depend on
`workers` or on the chunk size.

Because the results are yielded, a caller keeps every chunk already finished when the run is
interrupted (Ctrl-C): leaving the loop closes the pool.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

T = TypeVar("T")
R = TypeVar("R")

ProgressFn = Callable[[int, int], None]
"""`progress(done, total)`: items finished so far, and the items of the whole run."""


def chunked(items: Sequence[T], size: int) -> list[list[T]]:
    """`items` in consecutive chunks of `size` (the last may be shorter).

    >>> chunked([1, 2, 3, 4, 5], 2)
    [[1, 2], [3, 4], [5]]
    """
    if size < 1:
        raise ValueError(f"chunk size must be >= 1, got {size}")
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def chunk_size(total: int, workers: int, cap: int) -> int:
    """About eight chunks per worker, from 1 to `cap` items each.

    >>> chunk_size(10_000, 2, 200), chunk_size(40, 2, 200), chunk_size(3, 4, 50)
    (200, 2, 1)
    """
    return max(1, min(cap, total // (workers * 8) or 1))


def pool_context() -> BaseContext:
    """fork starts workers fastest (Linux); elsewhere spawn gives the same results."""
    import multiprocessing  # here, not at the top: the command line imports this module to start

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return multiprocessing.get_context(method)


def run_chunks(
    fn: Callable[[list[T]], list[R]],
    chunks: Sequence[list[T]],
    *,
    workers: int = 1,
    progress: ProgressFn | None = None,
) -> Iterator[list[R]]:
    """Yield `fn(chunk)` for every chunk, in completion order, from `workers` processes.

    `fn` must be a module-level function (a worker imports it by name) that returns one result
    per item; `progress(done, total)` is called in this process before the first chunk and after
    each one, counting items.
    """
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    total = sum(len(c) for c in chunks)
    done = 0
    if progress:
        progress(0, total)
    if workers == 1 or len(chunks) <= 1:
        for chunk in chunks:
            part = fn(chunk)
            done += len(part)
            yield part
            if progress:
                progress(done, total)
        return
    with pool_context().Pool(processes=workers) as pool:
        for part in pool.imap_unordered(fn, chunks):
            done += len(part)
            yield part
            if progress:
                progress(done, total)
