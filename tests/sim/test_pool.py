"""The shared pool loop: chunks, their sizes, and the same results from one worker or two."""

from __future__ import annotations

import pytest

from pocketgalaxy.sim.pool import chunk_size, chunked, run_chunks


def square_chunk(items: list[int]) -> list[tuple[int, int]]:
    """A worker's unit of work for these tests (module level, so a worker can import it)."""
    return [(i, i * i) for i in items]


def test_chunked_keeps_order_and_every_item() -> None:
    assert chunked(list(range(7)), 3) == [[0, 1, 2], [3, 4, 5], [6]]
    assert chunked([], 5) == []
    with pytest.raises(ValueError, match="chunk size must be >= 1, got 0"):
        chunked([1], 0)


def test_chunk_size_aims_at_eight_chunks_a_worker_within_the_cap() -> None:
    assert chunk_size(1600, 2, 200) == 100  # 1600 // 16
    assert chunk_size(100_000, 2, 200) == 200  # capped
    assert chunk_size(10, 4, 50) == 1  # never below one
    assert chunk_size(0, 1, 50) == 1


@pytest.mark.parametrize("workers", [1, 2])
def test_run_chunks_yields_every_result_and_counts_progress(workers: int) -> None:
    seen: list[tuple[int, int]] = []
    parts = list(run_chunks(square_chunk, chunked(list(range(23)), 4), workers=workers,
                            progress=lambda done, total: seen.append((done, total))))
    results = sorted(r for part in parts for r in part)
    assert results == [(i, i * i) for i in range(23)]
    assert sorted(len(p) for p in parts) == [3, 4, 4, 4, 4, 4]
    assert seen[0] == (0, 23) and seen[-1] == (23, 23)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)  # counts only go up
    assert len(seen) == 1 + len(parts)


def test_run_chunks_refuses_no_workers_and_runs_nothing() -> None:
    calls: list[int] = []
    with pytest.raises(ValueError, match="workers must be >= 1, got 0"):
        list(run_chunks(square_chunk, [[1]], workers=0, progress=lambda d, t: calls.append(d)))
    assert calls == []


def test_leaving_early_keeps_the_finished_chunks() -> None:
    kept: list[tuple[int, int]] = []
    for part in run_chunks(square_chunk, chunked(list(range(40)), 5), workers=2):
        kept.extend(part)
        if len(kept) >= 10:
            break  # the pool closes when the loop is left
    assert len(kept) >= 10 and all(b == a * a for a, b in kept)
