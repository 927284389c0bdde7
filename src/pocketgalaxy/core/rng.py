"""A small seeded random source that lives inside the game state.

Why not `random.Random`: its state is 625 integers, slow to clone and bulky in JSON. This is
SplitMix64: one integer of state, cheap to copy, identical on every platform, good enough for
shuffles and dice. Tests pin die rolls with `pinned`, a queue consumed before the generator.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Final, TypeVar

from pocketgalaxy.core.mypyc_marks import mypyc_attr

T = TypeVar("T")
_MASK: Final = (1 << 64) - 1
_TWO64: Final = 1 << 64


@mypyc_attr(serializable=True)  # picklable when compiled (worker processes)
class Rng:
    """Seeded generator; `state` and `pinned` are plain data (see `to_json`)."""

    __slots__ = ("state", "pinned")

    def __new__(cls, *args: object, **kwargs: object) -> Rng:
        # A bare instance, so `clone` skips `__init__` when compiled too (docs/speed.md).
        return object.__new__(cls)

    def __init__(self, seed: int = 0, pinned: Sequence[int] = ()) -> None:
        self.state = seed & _MASK
        self.pinned: list[int] = list(pinned)

    def _next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = _TWO64 - _TWO64 % n
        while True:
            x = self._next()
            if x < limit:
                return x % n

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
        r = Rng.__new__(Rng)
        r.state = self.state
        r.pinned = self.pinned.copy()
        return r

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


def new_seed() -> int:
    """A fresh seed for a game given none (shells print it so the game can be played again)."""
    import secrets

    return secrets.randbelow(2**31)
