"""The reasoning computer players for Adventure Cards: `memory` and `forgetful`.

- `memory` (`MemoryAgent`): perfect recall of its own event stream plus deduction
  (`memory.Memory`): it takes the cards it is sure of first, then plays the best odds,
  weighting missions it is close to solving, and peeks where nobody else has looked;
- `forgetful` (`ForgetfulAgent`): the same reasoning with facts that fade (`fade=0.x` per turn,
  or `level=easy|normal|hard`), and at the easier levels a loose grip on its own choices.

Players see only their view and the events their seat may see; never the state.
"""

from __future__ import annotations

from typing import Any

from pocketgalaxy.agents.adventure.memory import SLOT, Beliefs, Memory
from pocketgalaxy.agents.base import Agent
from pocketgalaxy.core.game import Action, Event
from pocketgalaxy.games.adventure.actions import (
    ClaimMission,
    DeclareCard,
    PassTurn,
    Peek,
    RequestCard,
    SkipPeek,
)
from pocketgalaxy.games.adventure.views import AdventureView

LEVELS: dict[str, dict[str, float]] = {
    "easy": {"fade": 0.35, "slack": 0.25},
    "normal": {"fade": 0.2, "slack": 0.1},
    "hard": {"fade": 0.08, "slack": 0.0},
}
"""Forgetful presets: `fade` = chance per turn to forget each fact; `slack` = chance to settle
for a near-best move instead of the best one."""

# Weights of the move score (see MemoryAgent._score). Tuned by bench runs, not by theory.
_CONTINUE = 1.5  # a success keeps the turn going
_PEEK_VALUE = 0.3  # a refused request still earns a peek
_MISS_VALUE = 0.05  # a missed declaration shows a face to everyone, us included
_COMPLETE_BONUS = 6.0
_SURE = 0.999


class MemoryAgent(Agent):
    """Perfect recall and deduction; asks and declares where it is sure, then plays the odds."""

    name = "memory"

    def __init__(self, seed: int = 0, *, fade: float = 0.0, slack: float = 0.0, **settings: Any):
        super().__init__(seed, **settings)
        if settings:
            raise TypeError(f"unknown setting(s) {sorted(settings)}; allowed: fade, slack")
        for label, value in (("fade", fade), ("slack", slack)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"{label} must be a number from 0 to 1, not {value!r}")
            if not 0.0 <= float(value) <= 1.0:
                raise TypeError(f"{label} must be from 0 to 1, not {value!r}")
        self.fade = float(fade)
        self.slack = float(slack)
        self.memory = Memory(0, 2, fade=self.fade, rng=self.rng.fork())

    def reset(self, seat: int, players: int, options: Any) -> None:
        super().reset(seat, players, options)
        self.memory = Memory(seat, players, fade=self.fade, rng=self.rng.fork())

    def observe(self, events: list[Event]) -> None:
        self.memory.observe(events)

    def act(self, view: Any, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        v: AdventureView = view
        mem = self.memory
        mem.sync(v)
        for a in legal:
            if isinstance(a, ClaimMission):
                return a
        if v.phase == "peek":
            return self._peek(v, legal)
        beliefs = mem.beliefs(v.hand_sizes, v.table)
        scored: list[tuple[float, int, Action]] = []
        values = self._card_values(v)
        for i, a in enumerate(legal):
            if isinstance(a, (RequestCard, DeclareCard)):
                scored.append((self._score(a, beliefs, values), i, a))
        if not scored:
            return next((a for a in legal if isinstance(a, PassTurn)), legal[0])
        scored.sort(key=lambda t: (-t[0], t[1]))
        best = scored[0][0]
        top = [a for s, _, a in scored if s >= best - 1e-9]
        if self.slack > 0 and self.rng.below(1000) < int(self.slack * 1000):
            top = [a for _, _, a in scored[:3]]
        return self.rng.choice(top)

    # -- pieces of the decision ---------------------------------------------------------
    def _peek(self, v: AdventureView, legal: list[Action]) -> Action:
        """Peek where we know nothing, preferring slots fewer rivals have seen."""
        mem = self.memory
        options = [a for a in legal if isinstance(a, Peek) and a.slot not in mem.slot_face]
        if not options:
            return next(a for a in legal if isinstance(a, SkipPeek))
        fewest = min(len(mem.peeked_by.get(a.slot, ())) for a in options)
        options = [a for a in options if len(mem.peeked_by.get(a.slot, ())) == fewest]
        return self.rng.choice(options)

    def _card_values(self, v: AdventureView) -> dict[str, float]:
        """How much gaining each card is worth: progress on its mission, more when near done."""
        mem = self.memory
        values: dict[str, float] = {}
        for m, group in enumerate(v.missions):
            if v.claimed_by[m] is not None:
                continue
            have = sum(1 for c in group if c in mem.hand)
            reach = sum(1 for c in group if c in mem.loc)
            rival = [0] * self.players
            for c in group:
                where = mem.loc.get(c)
                if where is not None and where < SLOT:
                    rival[where] += 1
            for c in group:
                if c in mem.hand:
                    continue
                value = 1.0 + have + 0.5 * (reach - (1 if c in mem.loc else 0))
                if have == 3:
                    value += _COMPLETE_BONUS
                holder = mem.loc.get(c)
                if holder is not None and holder < SLOT:
                    value += 0.5 * rival[holder]  # taking it sets a rival back
                if c in mem.gave_away and have < 3:
                    value -= 100.0  # AC-A10: no ping-pong over a card we lost
                values[c] = value
        return values

    def _score(self, a: RequestCard | DeclareCard, b: Beliefs, values: dict[str, float]) -> float:
        mem = self.memory
        card = a.card
        if card in mem.hand:
            return -1000.0
        where = mem.loc.get(card)
        if isinstance(a, RequestCard):
            if where is not None:
                q = 1.0 if where == a.target else 0.0
            else:
                q = b.in_hand[a.target].get(card, 0.0)
            fail = _PEEK_VALUE if b.unknown_slots else 0.0
        else:
            face = mem.slot_face.get(a.slot)
            if face is not None:
                q = 1.0 if face == card else 0.0
            elif where is not None:
                q = 0.0
            else:
                q = b.at_slot(card)
            fail = _MISS_VALUE
        value = values.get(card, 0.5)
        if q >= _SURE:
            return 1000.0 + value  # sure things first
        return q * (value + _CONTINUE) + (1.0 - q) * fail


class ForgetfulAgent(MemoryAgent):
    """The memory player with facts that fade, to play like a person (`level` or `fade`)."""

    name = "forgetful"

    def __init__(
        self,
        seed: int = 0,
        *,
        level: str = "normal",
        fade: float | None = None,
        slack: float | None = None,
        **settings: Any,
    ):
        if level not in LEVELS:
            raise TypeError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        preset = LEVELS[level]
        super().__init__(
            seed,
            fade=preset["fade"] if fade is None else fade,
            slack=preset["slack"] if slack is None else slack,
            **settings,
        )
        self.level = level
