"""Information-set Monte Carlo tree search: a searching computer player for any contract game.

Single-observer ISMCTS with determinization (Cowling, Powley and Whitehouse, "Information Set
Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012). Each iteration:

1. *determinize*: sample one full state consistent with what this seat knows (the game's
   `Determinizer` does this from the seat's view and the events it has seen);
2. *select*: walk down one shared tree, choosing among the actions legal in *this*
   determinization by UCB1 with availability counts (a child's exploration term uses how often
   it was available, not how often its parent was visited);
3. *expand* one untried action;
4. *play out* with the playout policy (`random`, or a game's own such as `memory`), cut off after
   `depth` decisions and scored by the game's heuristic evaluation when the game has not ended;
5. *back up*: every node on the path adds the reward of the seat that moved into it, so each
   seat's nodes are chosen for that seat's own good.

The agent sees only its view and its seat's events, like every other player: the determinizer
turns those into sampled states, and the search never looks at the real one. Settings:
`iterations=` or `seconds=` per decision, `c=` (exploration), `playout=`, `depth=` and
`widen=` (progressive widening over the game's own move ordering; 0 considers every action).
"""

from __future__ import annotations

import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol

from pocketgalaxy.agents.base import Agent
from pocketgalaxy.core.game import Action, Event, GameRules


class RandomSource(Protocol):
    """What the search asks of a random source (`core.rng.Rng` and `FastRandom` both fit)."""

    def below(self, n: int) -> int: ...

    def shuffle(self, items: list[Any]) -> None: ...


class FastRandom:
    """The search's own random source: Python's Mersenne Twister, seeded from the agent's `Rng`
    (reproducible), several times cheaper per draw than SplitMix64 written in Python."""

    __slots__ = ("_random", "shuffle")

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed).random
        self.shuffle = random.Random(seed ^ 0x5DEECE66D).shuffle

    def below(self, n: int) -> int:
        """An integer in [0, n) (float-based: a bias below 2**-50, harmless in search)."""
        return int(self._random() * n)


Sampler = Callable[[RandomSource], Any]
"""Draws one determinization (a full game state) with the given random source."""


class Determinizer(ABC):
    """The game-specific half of the search: what the seat knows, and how to fill in the rest.

    Subclasses keep their seat's knowledge from `observe`, and offer `sampler(view)`; the other
    hooks have neutral defaults (uniform playouts, no move ordering, an even split at a cut-off).
    `begin` makes a per-iteration context that `update` keeps current with the events of every
    applied action; playout policies and the move ordering may read it.
    """

    policies: ClassVar[tuple[str, ...]] = ("random",)
    """Names accepted by `playout=`; "random" is always available."""

    def reset(self, seat: int, players: int, options: Any) -> None:
        self.seat = seat
        self.players = players
        self.options = options

    def observe(self, events: list[Event]) -> None:  # noqa: B027 - optional hook
        """Events this seat may see, in order."""

    @abstractmethod
    def sampler(self, view: Any) -> Sampler:
        """A function that draws full states consistent with `view` and the events seen."""

    def begin(self, state: Any) -> Any:
        """A fresh per-iteration context for `state` (None when the game needs none)."""
        return None

    def update(self, ctx: Any, state: Any, events: list[Event]) -> None:  # noqa: B027
        """Keep `ctx` in step after an action was applied to `state`."""

    def needs_legal(self, policy: str) -> bool:
        """False when `choose` under `policy` builds legal moves itself (then `legal` is None)."""
        return True

    def choose(
        self, policy: str, ctx: Any, state: Any, seat: int, legal: list[Action] | None,
        rng: RandomSource,
    ) -> Action:
        """The playout move of `seat` under `policy` (default: uniform over `legal`)."""
        assert legal is not None
        return legal[rng.below(len(legal))]

    def order(self, ctx: Any, state: Any, seat: int, legal: list[Action]) -> list[Action] | None:
        """`legal` best first by the acting seat's own knowledge, or None (no ordering)."""
        return None

    def evaluate(self, state: Any) -> list[float]:
        """Reward per seat for a playout cut off before the end (default: an even split)."""
        return [1.0 / self.players] * self.players

    def rule_decision(self, view: Any, legal: list[Action]) -> Action | None:
        """A decision the search leaves to a fixed rule (for example one it cannot value)."""
        return None


class _Node:
    """One tree node: statistics of the move that led here, and the children by seat."""

    __slots__ = ("visits", "total", "avail", "children", "order")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.children: dict[int, dict[Action, _Node]] = {}
        self.order: list[Action] | None = None


class SearchStats:
    """What the last decision's search did (for benches, tests and docs)."""

    __slots__ = ("iterations", "seconds", "root_visits", "playout_decisions")

    def __init__(self) -> None:
        self.iterations = 0
        self.seconds = 0.0
        self.root_visits: dict[Action, tuple[int, float]] = {}
        self.playout_decisions = 0


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS over `rules`, with `determinizer` supplying sampled states."""

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        *,
        rules: GameRules[Any, Any],
        determinizer: Determinizer,
        iterations: int = 1000,
        seconds: float | None = None,
        c: float = 0.7,
        playout: str = "random",
        depth: int = 0,
        widen: float = 0.0,
        **settings: Any,
    ) -> None:
        super().__init__(seed, **settings)
        if settings:
            raise TypeError(
                f"unknown setting(s) {sorted(settings)}; allowed: iterations, seconds, c, "
                "playout, depth, widen"
            )
        _need_number("iterations", iterations, 1, integer=True)
        if seconds is not None:
            _need_number("seconds", seconds, 1e-6)
        _need_number("c", c, 0.0)
        _need_number("depth", depth, 0, integer=True)
        _need_number("widen", widen, 0.0)
        if playout not in determinizer.policies:
            raise TypeError(
                f"playout must be one of {', '.join(determinizer.policies)}, not {playout!r}"
            )
        self.rules = rules
        self.determinizer = determinizer
        self.iterations = int(iterations)
        self.seconds = None if seconds is None else float(seconds)
        self.c = float(c)
        self.playout = playout
        self.depth = int(depth)
        self.widen = float(widen)
        self.last = SearchStats()
        self.fast = FastRandom(self.rng.below(1 << 62))

    def reset(self, seat: int, players: int, options: Any) -> None:
        super().reset(seat, players, options)
        self.determinizer.reset(seat, players, options)
        self.fast = FastRandom(self.rng.below(1 << 62))

    def observe(self, events: list[Event]) -> None:
        self.determinizer.observe(events)

    def act(self, view: Any, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        ruled = self.determinizer.rule_decision(view, legal)
        if ruled is not None:
            return ruled
        return self.search(view, legal)

    # -- the search -------------------------------------------------------------------
    def search(self, view: Any, legal: Sequence[Action]) -> Action:
        """Run the iterations (or the time budget) from `view` and return the most-visited move."""
        sample = self.determinizer.sampler(view)
        root = _Node()
        stats = SearchStats()
        started = time.perf_counter()
        deadline = None if self.seconds is None else started + self.seconds
        n = 0
        while True:
            self._iterate(root, sample(self.fast), stats)
            n += 1
            if deadline is None:
                if n >= self.iterations:
                    break
            elif n & 7 == 0 and time.perf_counter() >= deadline:
                break
        stats.iterations = n
        stats.seconds = time.perf_counter() - started
        mine = root.children.get(self.seat, {})
        stats.root_visits = {a: (ch.visits, ch.total / max(1, ch.visits)) for a, ch in mine.items()}
        self.last = stats
        allowed = set(legal)
        best: Action | None = None
        key = (-1, -1.0)
        for a, ch in mine.items():
            if a in allowed:
                k = (ch.visits, ch.total / max(1, ch.visits))
                if k > key:
                    best, key = a, k
        return best if best is not None else legal[0]

    def _iterate(self, root: _Node, state: Any, stats: SearchStats) -> None:
        rules = self.rules
        det = self.determinizer
        rng = self.fast
        ctx = det.begin(state)
        node = root
        path: list[tuple[_Node, int]] = []
        c = self.c
        expanded = False
        while not expanded:
            seat = rules.to_act(state)
            if seat is None:
                break
            legal = rules.legal_actions(state, seat)
            if self.widen > 0 and len(legal) > 1:
                legal = self._widened(node, ctx, state, seat, legal)
            kids = node.children.get(seat)
            if kids is None:
                kids = node.children[seat] = {}
            untried: list[Action] = []
            best: _Node | None = None
            best_action = legal[0]
            best_value = -math.inf
            for a in legal:
                ch = kids.get(a)
                if ch is None:
                    untried.append(a)
                    continue
                ch.avail += 1
                if not untried:
                    value = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if value > best_value:
                        best, best_action, best_value = ch, a, value
            if untried:
                action = untried[rng.below(len(untried))]
                best = kids[action] = _Node()
                expanded = True
            else:
                assert best is not None
                action = best_action
            events = rules.apply_unchecked(state, seat, action)
            det.update(ctx, state, events)
            path.append((best, seat))
            node = best
        rewards = self._playout(ctx, state, stats)
        for n, seat in path:
            n.visits += 1
            n.total += rewards[seat]

    def _widened(
        self, node: _Node, ctx: Any, state: Any, seat: int, legal: list[Action]
    ) -> list[Action]:
        """Progressive widening: the first k of the node's ordering that are legal here, with
        k = widen * (visits + 1) ** 0.3, so the set grows slowly as the node is visited."""
        if node.order is None:
            node.order = self.determinizer.order(ctx, state, seat, legal) or list(legal)
        k = max(1, int(self.widen * (node.visits + 1) ** 0.3))
        if k >= len(legal):
            return legal
        # By identity, not equality: hashing dataclass actions would cost more than the search
        # step. Games that reuse action objects (as Adventure Cards does) get the full benefit;
        # others fall back to taking any legal actions.
        allowed = {id(a) for a in legal}
        out: list[Action] = []
        for a in node.order:
            if id(a) in allowed:
                out.append(a)
                if len(out) == k:
                    return out
        taken = {id(a) for a in out}
        out.extend(a for a in legal if id(a) not in taken)
        return out[:k]

    def _playout(self, ctx: Any, state: Any, stats: SearchStats) -> list[float]:
        rules = self.rules
        det = self.determinizer
        rng = self.fast
        policy = self.playout
        cap = self.depth if self.depth > 0 else 1 << 62
        steps = 0
        listing = det.needs_legal(policy)
        seat = rules.to_act(state)
        while seat is not None and steps < cap:
            legal = rules.legal_actions(state, seat) if listing else None
            action = det.choose(policy, ctx, state, seat, legal, rng)
            det.update(ctx, state, rules.apply_unchecked(state, seat, action))
            steps += 1
            seat = rules.to_act(state)
        stats.playout_decisions += steps
        outcome = rules.outcome(state)
        if outcome is None:
            return det.evaluate(state)
        rewards = [0.0] * self.players
        if outcome.winners:
            share = 1.0 / len(outcome.winners)
            for w in outcome.winners:
                rewards[w] = share
        return rewards


def _need_number(name: str, value: Any, low: float, *, integer: bool = False) -> None:
    ok = isinstance(value, int) or (not integer and isinstance(value, float))
    if isinstance(value, bool) or not ok or math.isnan(value):
        kind = "a whole number" if integer else "a number"
        raise TypeError(f"{name} must be {kind} >= {low}, not {value!r}")
    if float(value) < low:
        raise TypeError(f"{name} must be >= {low}, not {value!r}")
