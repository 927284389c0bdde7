"""The "player who sees the cards": simulation-only players that read the whole game state.

Every other computer player sees only its seat's view (agents/). These two are the one
documented exception, and they live here, under sim/balance/, so that only the balance lab's
skill ladder (sim/balance/ladder.py) builds them: they are in no player registry or catalogue,
so no table, web page, `play` or `simulate` can seat one (tests/test_architecture.py holds it).
They mark the top of the skill-versus-luck ladder: what the best play this project knows can
reach when nothing is hidden but the future dice and shuffles.

- `PerilsOracleHero`: the planning Hero (agents/perils/planner) whose Monte Carlo "deals" are
  the true cards: the face-down pathways and the draw pile in order (and, in the showdown, the
  suits of the face-down Big Bads). Only the dice (and later shuffles) are still sampled.
- `AdventureOracle`: the memory player, but every request and declaration is scored with the
  true hands and table: it asks where the card is, declares what the slot holds, and never
  needs a peek.

The ladder gives each oracle the live state with `see(state)` before it acts.
"""

from __future__ import annotations

import random
from typing import Any

from pocketgalaxy.agents.adventure import MemoryAgent
from pocketgalaxy.agents.base import Agent
from pocketgalaxy.agents.perils.planner.hero import PlannerHero
from pocketgalaxy.agents.perils.planner.model import ITEM, SIM_CARDS, SimCard
from pocketgalaxy.core.game import Action
from pocketgalaxy.games.adventure.actions import (
    ClaimMission,
    DeclareCard,
    PassTurn,
    RequestCard,
    SkipPeek,
)
from pocketgalaxy.games.adventure.state import AdventureState
from pocketgalaxy.games.adventure.views import AdventureView
from pocketgalaxy.games.perils.state import PerilsState
from pocketgalaxy.games.perils.views import PerilsView

ORACLE = "oracle"
"""The ladder's name for the rung; no registry knows it."""

_PLACEHOLDER: SimCard = (ITEM, 3, 0)


class PerilsOracleHero(PlannerHero):
    """The planner with every face-down card known (see the module text)."""

    name = "oracle"

    def __init__(self, seed: int = 0, **settings: Any) -> None:
        super().__init__(seed, **settings)
        self._state: PerilsState | None = None

    def see(self, state: Any) -> None:
        assert isinstance(state, PerilsState)
        self._state = state

    def _true(self) -> PerilsState:
        assert self._state is not None, "the ladder gives the oracle the state before it acts"
        return self._state

    def _hints(self, view: PerilsView) -> list[dict[str, str]]:
        # Exact: the suit of each face-down card (the showdown picks its Big Bad by suit).
        out = []
        for code in self._true().pathways:
            hint = {"suit": code[-1]} if code[-1] in "DCSH" else {}
            out.append(hint)
        return out

    def _deal(self, pos: Any, rnd: random.Random, pathway_hints: list[dict[str, str]],
              unchosen_hints: list[dict[str, str]]) -> tuple[list[SimCard], list[SimCard]]:
        state = self._true()
        pathways = [SIM_CARDS.get(c, _PLACEHOLDER) for c in state.pathways] \
            if pathway_hints else []
        # The model draws from the end of its list; the rules from the front of theirs.
        draw = [SIM_CARDS.get(c, _PLACEHOLDER) for c in reversed(state.draw)]
        return pathways, draw


class AdventureOracle(MemoryAgent):
    """The memory player scoring every move with the true hands and table."""

    name = "oracle"

    def __init__(self, seed: int = 0, **settings: Any) -> None:
        super().__init__(seed, **settings)
        self._state: AdventureState | None = None

    def see(self, state: Any) -> None:
        assert isinstance(state, AdventureState)
        self._state = state

    def act(self, view: Any, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        state = self._state
        assert state is not None, "the ladder gives the oracle the state before it acts"
        v: AdventureView = view
        self.memory.sync(v)
        for a in legal:
            if isinstance(a, ClaimMission):
                return a
        if v.phase == "peek":  # it already knows every face
            return next((a for a in legal if isinstance(a, SkipPeek)), legal[0])
        values = self._card_values(v)
        best: tuple[float, int] | None = None
        choice: Action | None = None
        for i, a in enumerate(legal):
            if isinstance(a, RequestCard):
                sure = a.card in state.hands[a.target]
            elif isinstance(a, DeclareCard):
                sure = state.table[a.slot] == a.card
            else:
                continue
            if a.card in self.memory.hand:
                continue
            score = (1000.0 if sure else 0.0) + values.get(a.card, 0.5)
            if best is None or (score, -i) > best:
                best, choice = (score, -i), a
        if choice is not None:
            return choice
        return next((a for a in legal if isinstance(a, PassTurn)), legal[0])


def make_oracle(game: str, seed: int) -> Agent:
    """The oracle for `game`, seeded; only the ladder calls this."""
    if game == "perils":
        return PerilsOracleHero(seed)
    return AdventureOracle(seed)
