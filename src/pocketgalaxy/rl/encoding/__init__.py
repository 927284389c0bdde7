"""Fixed integer action spaces and flat observation vectors, one module per game.

Both games share the same two ideas:

- a `Layout` names the consecutive blocks of a flat vector (observation slots, or action
  indices), so code, tests and docs/rl.md all read the same table;
- an `ActionCodec` maps the rules' actions to indices of a fixed `Discrete(size)` space and
  back, and builds the action mask from `rules.legal_actions(state, seat)`: one bit per legal
  action, nothing else.

Observation encoders read views only (never a state); they are pure functions of the view,
so two states a seat cannot tell apart give that seat the same vector.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pocketgalaxy.core.errors import MalformedActionError
from pocketgalaxy.core.game import Action

MASK_DTYPE = np.int8
OBS_DTYPE = np.float32


@dataclass(frozen=True)
class Block:
    """A named run of `size` consecutive slots starting at `start`."""

    name: str
    start: int
    size: int
    doc: str

    @property
    def stop(self) -> int:
        return self.start + self.size

    @property
    def slice(self) -> slice:
        return slice(self.start, self.stop)


class Layout:
    """Consecutive named blocks. `layout["hand"].start` is where the block `hand` begins."""

    def __init__(self, blocks: Sequence[tuple[str, int, str]]) -> None:
        out: list[Block] = []
        start = 0
        for name, size, doc in blocks:
            if size < 0:
                raise ValueError(f"block {name!r} has a negative size {size}")
            out.append(Block(name, start, size, doc))
            start += size
        names = [b.name for b in out]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate block names in {names}")
        self.blocks: tuple[Block, ...] = tuple(out)
        self.size = start
        self._by_name = {b.name: b for b in out}

    def __getitem__(self, name: str) -> Block:
        return self._by_name[name]

    def __iter__(self) -> Iterator[Block]:
        return iter(self.blocks)

    def block_of(self, index: int) -> Block:
        """The block holding slot `index`."""
        for b in self.blocks:
            if b.start <= index < b.stop:
                return b
        raise IndexError(f"slot {index} is outside 0..{self.size - 1}")

    def describe(self) -> list[dict[str, Any]]:
        """Rows for documentation: name, first and last slot, size, meaning."""
        return [
            {"name": b.name, "first": b.start, "last": b.stop - 1, "size": b.size, "doc": b.doc}
            for b in self.blocks
        ]


class ActionCodec(ABC):
    """A game's fixed action space for one player count (and option set).

    `encode(action, seat=, legal=)` gives the index of an action in its canonical form;
    `decode(index, seat=, legal=)` gives the action back. `legal` is the seat's legal list;
    spaces whose indices point into a list the rules make (Perils' plans and choices) need it.
    """

    layout: Layout

    @property
    def size(self) -> int:
        return self.layout.size

    @abstractmethod
    def encode(self, action: Action, *, seat: int, legal: Sequence[Action] = ()) -> int:
        """The index of `action`; MalformedActionError if the space has no such action."""

    @abstractmethod
    def decode(self, index: int, *, seat: int, legal: Sequence[Action] = ()) -> Action:
        """The action at `index`; MalformedActionError if the index is out of range."""

    def mask(self, *, seat: int, legal: Sequence[Action]) -> np.ndarray:
        """1 for the index of every legal action, 0 elsewhere (int8, PettingZoo style)."""
        out = np.zeros(self.size, dtype=MASK_DTYPE)
        for action in legal:
            index = self._mask_index(action, seat, legal)
            if index is not None:
                out[index] = 1
        return out

    def _mask_index(self, action: Action, seat: int, legal: Sequence[Action]) -> int | None:
        return self.encode(action, seat=seat, legal=legal)

    def check_index(self, index: Any) -> int:
        """`index` as a plain int in range, or MalformedActionError naming the range."""
        if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
            if isinstance(index, np.ndarray) and index.shape in ((), (1,)) and np.issubdtype(
                index.dtype, np.integer
            ):
                index = int(index.reshape(()))
            else:
                raise MalformedActionError(
                    index, f"an action is a whole number 0..{self.size - 1}",
                    allowed=[f"0..{self.size - 1}"],
                )
        value = int(index)
        if not 0 <= value < self.size:
            raise MalformedActionError(
                index, f"action index out of range 0..{self.size - 1}",
                allowed=[f"0..{self.size - 1}"],
            )
        return value


def one_hot(out: np.ndarray, start: int, index: int | None) -> None:
    """Set `out[start + index]` to 1 (nothing when `index` is None)."""
    if index is not None:
        out[start + index] = 1.0
