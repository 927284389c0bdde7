"""Computer players for Adventure Cards, one module per job:

- `memory.py`: what a player remembers and deduces from the events its seat sees (`Memory`,
  `Beliefs`);
- `players.py`: the reasoning players `memory` (`MemoryAgent`) and `forgetful`
  (`ForgetfulAgent`, facts that fade; `level=easy|normal|hard`);
- `deals.py`: full states consistent with what one seat knows (`Knowledge.sample`);
- `search.py`: the searching player `ismcts` (information-set Monte Carlo tree search over those
  deals, `agents/ismcts.py`; `make_ismcts`); docs/agents.md.
`random` is the shared baseline (`agents.base.RandomAgent`).

Imports point one way (memory <- players; memory, deals <- search), and this module only
gathers the names for agents/registry.py. The search player is imported on first use, so
seating a `memory` player does not load the search.
"""

from __future__ import annotations

from collections.abc import Callable

from pocketgalaxy.agents.adventure.players import LEVELS, ForgetfulAgent, MemoryAgent
from pocketgalaxy.agents.base import Agent, RandomAgent


def agents_for_seat(seat: int, players: int) -> dict[str, Callable[..., Agent]]:
    """The computer players that can sit at any Adventure Cards seat."""
    from pocketgalaxy.agents.adventure.search import make_ismcts  # the searching player

    return {
        "random": RandomAgent,
        "memory": MemoryAgent,
        "forgetful": ForgetfulAgent,
        "ismcts": make_ismcts,
    }


__all__ = ["LEVELS", "ForgetfulAgent", "MemoryAgent", "agents_for_seat"]
