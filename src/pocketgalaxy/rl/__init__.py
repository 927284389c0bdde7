"""Reinforcement-learning environments for Pocket Galaxy's games (needs the `rl` extra).

- `adventure_env(players=4)`, `perils_env()`: PettingZoo AEC environments;
- `make_env("adventure", players=4, opponents="memory,forgetful,random")`, `make_env("perils")`:
  single-agent Gymnasium environments whose other seats are computer players;
- `encoding`: the fixed action spaces (`AdventureActionCodec`, `PerilsActionCodec`) and the
  observation encoders (`AdventureObservation`, `PerilsObservation`), usable on their own.

Everything here wraps the rules through `Session` and reads views only; docs/rl.md documents
every action index and observation slot.
"""

from pocketgalaxy.rl.driver import ADVENTURE_REWARDS, PERILS_REWARDS, GameDriver, Rewards
from pocketgalaxy.rl.encoding.adventure import AdventureActionCodec, AdventureObservation
from pocketgalaxy.rl.encoding.perils import PerilsActionCodec, PerilsObservation
from pocketgalaxy.rl.env import AdventureAEC, PerilsAEC, adventure_env, perils_env
from pocketgalaxy.rl.single import PocketGalaxyGymEnv, make_env

__all__ = [
    "ADVENTURE_REWARDS",
    "PERILS_REWARDS",
    "AdventureAEC",
    "AdventureActionCodec",
    "AdventureObservation",
    "GameDriver",
    "PerilsAEC",
    "PerilsActionCodec",
    "PerilsObservation",
    "PocketGalaxyGymEnv",
    "Rewards",
    "adventure_env",
    "make_env",
    "perils_env",
]
