"""A small seeded random source that lives inside the game state.

Why not `random.Random`: its state is 625 integers, slow to clone and bulky in JSON. This is
SplitMix64: one integer of state, cheap to copy, identical on every platform, good enough for
shuffles and dice. Tests pin die rolls with `pinned`, a queue consumed before the generator.

Two bodies, one stream. Pure Python runs SplitMix64 on unsigned Python integers. Compiled with
mypyc (docs/speed.md), those 64-bit values are big integers, slow in C (`below` took about
1.4 µs); there the same generator runs on native `i64`, signed, whose multiplications wrap
(CPython builds extensions with -fwrapv) and whose right shifts are masked to be logical. The
internal `_s` therefore holds the state unsigned on the pure path and as its signed 64-bit twin
on the compiled one; `state`, the JSON and pickles always give it unsigned. `below` takes the
native route for n < 2**31 (every game's use), with SplitMix64's constants in native fields and
the step written out in `_draw` (about 60 instructions a draw); a list is shuffled as list
slots; `mix64` (the narration's stream seeds) runs on `i64` too. tests/core/test_rng.py,
test_rng_native.py (plain references, the rare rejection included) and
tests/test_speed_paths.py hold the two bodies to the same numbers.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any, Final, TypeVar

from pocketgalaxy.core.mypyc_marks import i64

T = TypeVar("T")
_MASK: Final = (1 << 64) - 1
_TWO64: Final = 1 << 64
_TWO63: Final = 1 << 63

_LOW32: Final[i64] = 0xFFFFFFFF
_TWO32: Final[i64] = 1 << 32
_NATIVE_BELOW: Final = 1 << 31  # below this n, `below` stays in native integers
_MIX_START: Final = 0x243F6A8885A308D3  # `mix64`'s starting value (below 2**62)


class _Constants:
    """SplitMix64's constants as signed 64-bit values (each unsigned constant minus 2**64), in
    native fields: compiled, a module constant beyond 2**62 is a boxed integer converted at
    every use (three conversions a step, about a third of a draw), a native field is read as
    it is."""

    def __init__(self) -> None:
        self.gamma: i64 = -7046029254386353131  # 0x9E3779B97F4A7C15
        self.mix1: i64 = -4658895280553007687  # 0xBF58476D1CE4E5B9
        self.mix2: i64 = -7723592293110705685  # 0x94D049BB133111EB
        self.low63: i64 = 0x7FFFFFFFFFFFFFFF


_K: Final = _Constants()


def _probe() -> None:
    """A function whose type tells whether this module runs compiled (no `__code__` then)."""


_NATIVE: Final = not hasattr(_probe, "__code__")


# Not marked `serializable`: it pickles through `__reduce__` (worker processes), and compiled, a
# class marked `serializable` alone is left uninitialised when interpreted code calls it. No
# `__new__` of its own either: compiled, a class with one is built through the generic call
# protocol (arguments packed in a tuple and a dict, about 450 instructions), and a game makes
# some 60 generators (each pathway's cue has its own stream).
class Rng:
    """Seeded generator; `state` and `pinned` are plain data (see `to_json`)."""

    __slots__ = ("_s", "pinned")

    def __init__(self, seed: int = 0, pinned: Sequence[int] = ()) -> None:
        self._s: i64 = 0
        # Compiled, a seed within (-2**63, 2**63) is its own signed twin (a cue stream's seed
        # is): `bit_length` tells it in C, where comparing a big integer with a small one or
        # shifting it cost about 300 instructions.
        if _NATIVE and seed.bit_length() < 64:
            self._s = seed
        else:
            self.state = seed
        self.pinned: list[int] = list(pinned) if pinned else []

    @property
    def state(self) -> int:
        """The generator's 64-bit state, unsigned (0 <= state < 2**64)."""
        return int(self._s) & _MASK

    @state.setter
    def state(self, value: int) -> None:
        if _NATIVE:
            u = value & _MASK
            self._s = u - _TWO64 if u >= _TWO63 else u
        else:
            self._s = value & _MASK  # pure: `i64` is a plain int, kept unsigned

    def _next(self) -> int:
        if _NATIVE:
            return int(self._step()) & _MASK
        z = (self._s + 0x9E3779B97F4A7C15) & _MASK
        self._s = z
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def _step(self) -> i64:
        """Compiled only: one SplitMix64 step on the signed state; the output, signed."""
        k = _K
        z: i64 = self._s + k.gamma
        self._s = z
        z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * k.mix1
        z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * k.mix2
        return z ^ ((z >> 31) & 0x1FFFFFFFF)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        if _NATIVE and n < _NATIVE_BELOW:
            return self._below_native(n)
        limit = _TWO64 - _TWO64 % n
        while True:
            x = self._next()
            if x < limit:
                return x % n

    def _below_native(self, n: i64) -> int:
        """`below` in native integers (compiled, 0 < n < 2**31): the same draws and rejections
        (`_draw`)."""
        return int(self._draw(n))

    def _draw(self, n: i64) -> i64:
        """`below(n)` as a native integer (compiled only, 0 < n < 2**31).

        The step is written out here on a local copy of the state. With the output x = hi *
        2**32 + lo (unsigned halves) and t = 2**64 % n < 2**31, x is accepted when x < 2**64 -
        t, that is unless hi is all ones and lo >= 2**32 - t (t is worked out only then, once
        in 2**32 draws). x % n is (2 * (q % n) + x's last bit) % n with q = x // 2, which is
        below 2**63: every term stays a non-negative signed 64-bit value."""
        k = _K
        s: i64 = self._s
        while True:
            s += k.gamma
            z: i64 = (s ^ ((s >> 30) & 0x3FFFFFFFF)) * k.mix1
            z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * k.mix2
            x: i64 = z ^ ((z >> 31) & 0x1FFFFFFFF)
            if ((x >> 32) & _LOW32) == _LOW32:
                p: i64 = _TWO32 % n
                if (x & _LOW32) >= _TWO32 - (p * p) % n:
                    continue  # rejected: the draw is made again from the next state
            self._s = s
            r: i64 = ((x >> 1) & k.low63) % n * 2 + (x & 1)  # below 2 * n: one subtraction
            return r - n if r >= n else r

    def roll(self, sides: int = 6) -> int:
        """A die roll 1..sides; a pinned roll is used first if one is queued."""
        if self.pinned:
            value = self.pinned.pop(0)
            if not 1 <= value <= sides:
                raise ValueError(f"pinned roll {value} is not a d{sides} result")
            return value
        return self.below(sides) + 1

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        if _NATIVE and type(items) is list:
            _shuffle_list(self, items)
            return
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]

    def fork(self) -> Rng:
        """A new independent generator seeded from this one (advances this one)."""
        return Rng(self._next())

    def clone(self) -> Rng:
        r = Rng()  # seed 0 and no pinned rolls: the cheap way through `__init__`
        r._s = self._s
        r.pinned = self.pinned.copy()
        return r

    def __reduce__(self) -> tuple[Any, tuple[int, list[int]]]:
        # Pickled by its unsigned state, so a pickle reads back on either speed path.
        return (_restore, (self.state, list(self.pinned)))

    def to_json(self) -> dict[str, object]:
        return {"state": self.state, "pinned": list(self.pinned)}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Rng:
        r = cls(0)
        state = data.get("state")
        pinned = data.get("pinned", [])
        if not isinstance(state, int) or not isinstance(pinned, list):
            raise ValueError("rng needs an integer 'state' and a list 'pinned'")
        r.state = state & _MASK
        r.pinned = [int(x) for x in pinned]
        return r

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and (self.state, self.pinned) == (other.state, other.pinned)

    def __repr__(self) -> str:
        return f"Rng(state={self.state}, pinned={self.pinned})"


def _shuffle_list(rng: Rng, items: list[Any]) -> None:
    """`Rng.shuffle` of a list, compiled: the same draws, the items read and swapped as list
    slots (the generic sequence protocol cost as much as the draws)."""
    i: i64 = len(items) - 1
    while i > 0:
        j = rng._draw(i + 1)
        items[i], items[j] = items[j], items[i]
        i -= 1


def mix64(parts: tuple[int, ...]) -> int:
    """A 64-bit hash of integers: SplitMix64's finaliser over each part (its 64 low bits) in
    turn, from a fixed start. Seeds streams that share nothing even for neighbouring keys.
    Compiled on native `i64` (with big integers one part cost about 1,000 instructions)."""
    if not _NATIVE:
        return _mix64_pure(parts)
    v: i64 = _MIX_START
    for p in parts:
        if p.bit_length() < 64:  # a signed 64-bit value already (see `Rng.__init__`)
            part: i64 = p
        else:
            u = p & _MASK
            part = u - _TWO64 if u >= _TWO63 else u
        v = mix64_step(v, part)
    return int(v) & _MASK


MIX64_START: Final = _MIX_START
"""`mix64`'s value before its first part (for callers that continue a mix with `mix64_step`)."""


def mix64_step(value: i64, part: i64) -> i64:
    """One part of `mix64`, compiled only (on the pure path `i64` is a plain int that would
    not wrap): `value` is the mix so far, `part` the part's 64 bits, both as signed 64-bit
    numbers. A caller that mixes many keys with one prefix mixes the prefix once."""
    k = _K
    z: i64 = (value ^ part) + k.gamma
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * k.mix1
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * k.mix2
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


def _mix64_pure(parts: tuple[int, ...]) -> int:
    """`mix64` on unsigned Python integers (the pure path)."""
    value = _MIX_START
    for p in parts:
        value = (value ^ (p & _MASK)) & _MASK
        value = (value + 0x9E3779B97F4A7C15) & _MASK
        z = value
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        value = z ^ (z >> 31)
    return value


def _restore(state: int, pinned: list[int]) -> Rng:
    """Unpickle an `Rng` (see `Rng.__reduce__`)."""
    return Rng(state, pinned)


def new_seed() -> int:
    """A fresh seed for a game given none (shells print it so the game can be played again)."""
    import secrets

    return secrets.randbelow(2**31)
