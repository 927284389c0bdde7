"""The computer-player interface and the uniform random baseline shared by every game.

Compiled with mypyc (scripts/compile_core.py, docs/speed.md "The Perils million"): the rule-based
Perils Hero built on it is. Both classes stay open to interpreted subclasses (every other game's
players, the test doubles) and `serializable`, since players are pickled to thinking processes
and deep-copied (web/thinking.py).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.core.mypyc_marks import mypyc_attr
from pocketgalaxy.core.rng import Rng


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Agent(ABC):
    """A computer player for one seat.

    The session calls `reset` once, `observe` with the events its seat may see after every
    action (its own included), and `act` when it is this seat's turn. An agent never sees a state.
    """

    name: ClassVar[str] = "agent"
    forced_is_first: ClassVar[bool] = False
    """True when, offered exactly one legal action, `act` returns it without reading the view
    or changing the agent: a simulation may then skip building the view (sim/runner.py)."""

    def __init__(self, seed: int = 0, **settings: Any) -> None:
        self.rng = Rng(seed)
        self.settings = settings
        self.seat = -1
        self.players = 0
        self.options: Any = None

    def reset(self, seat: int, players: int, options: Any) -> None:
        self.seat = seat
        self.players = players
        self.options = options

    def observe(self, events: list[Event]) -> None:  # noqa: B027 - optional hook
        """Events this seat may see, in order; memory-keeping agents override this."""

    @abstractmethod
    def act(self, view: Any, legal: list[Action]) -> Action:
        """Pick one of `legal` (never empty) from what `view` shows."""


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class RandomAgent(Agent):
    """Uniform over the legal actions: the baseline every other player must beat."""

    name = "random"

    def act(self, view: Any, legal: list[Action]) -> Action:
        return self.rng.choice(legal)
