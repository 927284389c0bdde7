"""core/rng.py's fast paths against plain references (docs/speed.md, "The Perils million"): the
draw's rare rejection, generators built from seeds of every size, lists shuffled as lists, and
`mix64`. Each runs on the speed path in use (compiled: the native bodies)."""

from __future__ import annotations

import pickle
from collections import deque

import pytest

from pocketgalaxy.core.rng import Rng, mix64
from pocketgalaxy.games.perils.things import mix

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB


def _finalise(z: int) -> int:
    z = ((z ^ (z >> 30)) * M1) & MASK
    z = ((z ^ (z >> 27)) * M2) & MASK
    return z ^ (z >> 31)


def _unshift(y: int, k: int) -> int:
    """The z with z ^ (z >> k) == y."""
    z = y
    for _ in range(64 // k + 1):
        z = y ^ (z >> k)
    return z


def _state_before(output: int) -> int:
    """The state from which one SplitMix64 step gives `output` (the finaliser inverted)."""
    z = _unshift(output, 31)
    z = (z * pow(M2, -1, 1 << 64)) & MASK
    z = _unshift(z, 27)
    z = (z * pow(M1, -1, 1 << 64)) & MASK
    z = _unshift(z, 30)
    return (z - GAMMA) & MASK


def _reference_below(state: int, n: int) -> tuple[int, int]:
    """SplitMix64 on unsigned integers, `below` by rejection: (new state, value)."""
    limit = (1 << 64) - (1 << 64) % n
    while True:
        state = (state + GAMMA) & MASK
        x = _finalise(state)
        if x < limit:
            return state, x % n


def test_the_inverted_finaliser_is_right() -> None:
    for out in (0, 1, MASK, 0xFFFFFFFF00000000, 0x123456789ABCDEF0):
        state = _state_before(out)
        assert _finalise((state + GAMMA) & MASK) == out


@pytest.mark.parametrize("n", [3, 6, 7, 76, 1000, 1_000_003, 2**31 - 1])
def test_a_draw_at_the_top_of_the_range_is_rejected_exactly_as_the_reference(n: int) -> None:
    """The outputs with all-ones high bits, around the rejection line 2**64 - 2**64 % n: the
    native draw works that line out only there, once in 2**32 draws, so seeded play never
    reaches it. States made by inverting the finaliser put each output first."""
    t = (1 << 64) % n
    line = (1 << 32) - t  # low half from which an all-ones high half is rejected
    for low in (0, line - 1, line, line + 1, (1 << 32) - 1, line // 2):
        if not 0 <= low < 1 << 32:
            continue
        seed = _state_before((0xFFFFFFFF << 32) | low)
        r = Rng(seed)
        state = seed
        for _ in range(4):
            state, want = _reference_below(state, n)
            assert r.below(n) == want, (n, low)
            assert r.state == state


@pytest.mark.parametrize("seed", [0, 5, -1, -5, 2**62 - 1, 2**62, -2**62, -2**62 - 1, 2**63 - 1,
                                  2**63, -2**63, -2**63 - 1, 2**64 - 1, 2**64, 2**64 + 9,
                                  -(2**70) + 3, 0x9E3779B97F4A7C15])
def test_a_generator_takes_its_seed_s_64_low_bits_whatever_its_size(seed: int) -> None:
    r = Rng(seed)
    assert r.state == seed & MASK
    assert r.pinned == []  # built in full when called from interpreted code too
    state = seed & MASK
    for n in (6, 2, 1_000_000, 2**31 - 1, 2**40 + 3):
        state, want = _reference_below(state, n)
        assert r.below(n) == want
    assert r.state == state
    again = pickle.loads(pickle.dumps(r))
    assert again == r and again.below(76) == r.clone().below(76)


def test_a_clone_is_equal_and_independent() -> None:
    r = Rng(2**63 + 11, pinned=[4, 2])
    c = r.clone()
    assert c == r and c.pinned is not r.pinned
    assert [c.roll() for _ in range(5)] == [r.roll() for _ in range(5)]
    c.below(9)
    assert c != r


def _reference_shuffle(state: int, items: list[object]) -> int:
    for i in range(len(items) - 1, 0, -1):
        state, j = _reference_below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


class _Seq(list[object]):
    """A list subclass: shuffled through the sequence protocol, not as list slots."""


def test_shuffle_gives_the_reference_permutation_for_lists_and_other_sequences() -> None:
    pick = Rng(99)
    for k in range(300):
        n = k % 60
        items: list[object] = [f"c{i}" if i % 2 else i for i in range(n)]
        seed = pick.below(2**32) * 2**32 + pick.below(2**32)
        want = list(items)
        state = _reference_shuffle(seed, want)
        for shaped in (list(items), _Seq(items), deque(items)):
            r = Rng(seed)
            r.shuffle(shaped)
            assert list(shaped) == want, (k, type(shaped))
            assert r.state == state


def _reference_mix(*parts: int) -> int:
    value = 0x243F6A8885A308D3
    for p in parts:
        value = ((value ^ (p & MASK)) + GAMMA) & MASK
        value = _finalise(value)
    return value


def test_mix64_is_splitmix_s_finaliser_over_the_parts() -> None:
    edges = [0, 1, -1, 2**31 - 1, 2**32, 2**62 - 1, 2**62, 2**63 - 1, 2**63, 2**64 - 1, 2**64,
             -(2**63), -(2**63) - 1, 2**70 + 3, 0x7417C5, 0xC0E]
    cases: list[tuple[int, ...]] = [()] + [(e,) for e in edges]
    cases += [(a, b) for a in edges for b in edges[::3]]
    pick = Rng(7)
    for _ in range(2000):
        cases.append(tuple(pick.below(2**32) * 2**32 + pick.below(2**32)
                           for _ in range(1 + pick.below(4))))
    for parts in cases:
        want = _reference_mix(*parts)
        assert mix64(parts) == want, parts
        assert mix(*parts) == want
