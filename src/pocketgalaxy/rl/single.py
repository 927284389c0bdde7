"""Single-agent Gymnasium environments: one learning seat, computer players in the others.

    from pocketgalaxy.rl import make_env
    env = make_env("adventure", players=4, opponents="memory,forgetful,random")
    obs, info = env.reset(seed=3)
    obs, reward, terminated, truncated, info = env.step(index)   # mask: obs["action_mask"]

`make_env("perils")` makes the Hero the learner and seats the computer `teller`. Each step
applies the learner's action, then lets the computer players move until the learner must act
again or the game ends. `env.action_masks()` returns the current mask as booleans (the
convention of masking learners such as sb3-contrib's MaskablePPO).

A masked-out action is handled by `illegal_action`: "terminate" (default) ends the episode
with reward `Rewards.illegal` and the refusal in `info["illegal_action"]` (the game itself is
unchanged, as every refusal leaves it), "raise" lets the rules' typed error through.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from pocketgalaxy.core.errors import OptionsError, PocketGalaxyError
from pocketgalaxy.rl.driver import GAMES, GameDriver, Rewards
from pocketgalaxy.rl.encoding.perils import CHOICE_CAP
from pocketgalaxy.rl.env import RENDER_MODES, observation_space

ILLEGAL_ACTION_MODES = ("terminate", "raise")


def split_specs(text: str) -> list[str]:
    """Player specs separated by commas; a part with "=" but no ":" is a further setting of
    the spec before it: "memory,forgetful:level=easy,fade=0.1" -> ["memory",
    "forgetful:level=easy,fade=0.1"]."""
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def _opponent_specs(game: str, players: int, seat: int, opponents: str | list[str] | None
                    ) -> dict[int, str]:
    others = [s for s in range(players) if s != seat]
    if opponents is None:
        specs = ["teller" if game == "perils" else "memory"]
    elif isinstance(opponents, str):
        specs = split_specs(opponents)
    else:
        specs = [str(s) for s in opponents]
    if len(specs) == 1:
        specs = specs * len(others)
    if len(specs) != len(others):
        raise OptionsError(
            f"opponents {opponents!r} names {len(specs)} players for {len(others)} other "
            f"seat(s) of a {players}-player game",
            allowed=["one spec for every other seat", f"{len(others)} specs in seat order"],
        )
    return dict(zip(others, specs, strict=True))


class PocketGalaxyGymEnv(gymnasium.Env[dict[str, Any], Any]):
    """One learner at `seat`; computer players (agents registry specs) everywhere else."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        game: str,
        *,
        players: int | None = None,
        opponents: str | list[str] | None = None,
        seat: int = 0,
        options: Any = None,
        rewards: Rewards | None = None,
        illegal_action: str = "terminate",
        choice_cap: int = CHOICE_CAP,
        render_mode: str | None = None,
    ) -> None:
        if game not in GAMES:
            raise OptionsError(f"unknown game {game!r}", allowed=list(GAMES))
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise OptionsError(f"illegal_action={illegal_action!r} is not allowed",
                               allowed=list(ILLEGAL_ACTION_MODES))
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise OptionsError(f"render_mode={render_mode!r} is not supported",
                               allowed=list(RENDER_MODES))
        n = 2 if game == "perils" else (4 if players is None else players)
        if game == "perils" and seat != 0:
            raise OptionsError("in Perils & Pathways the learner is the Hero, seat 0",
                               allowed=["0"])
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise OptionsError(f"seat={seat!r} is not a seat of a {n}-player game",
                               allowed=[str(s) for s in range(n)])
        if game == "perils" and players not in (None, 2):
            raise OptionsError(f"Perils & Pathways has 2 seats, not {players!r}",
                               allowed=["2"])
        bots = _opponent_specs(game, n, seat, opponents)
        self.driver = GameDriver(game, players=n, options=options, bots=bots, rewards=rewards,
                                 choice_cap=choice_cap)
        self.seat = seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observation_space = observation_space(self.driver)
        self.action_space = spaces.Discrete(self.driver.codec.size)
        self._done = True

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game. `seed` is the game's own seed (its deal equals `Session(seed=seed)`);
        without one the seed comes from `np_random`. `options` is not used (rulings are fixed
        when the environment is made)."""
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**31))
        self.driver.new_game(game_seed)
        self._done = False
        return self._obs(), self.driver.info(self.seat)

    def _obs(self) -> dict[str, np.ndarray]:
        return self.driver.observation(self.seat)

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                          dict[str, Any]]:
        if self._done:
            raise OptionsError("the episode is over: call reset() first")
        try:
            self.driver.act(self.seat, action)
        except PocketGalaxyError as exc:
            if self.illegal_action == "raise":
                raise
            self._done = True
            info = self.driver.info(self.seat)
            info["illegal_action"] = exc.to_json()
            return self._obs(), float(self.driver.rewards.illegal), True, False, info
        out = self.driver.outcome
        info = self.driver.info(self.seat)
        if out is None:
            return self._obs(), 0.0, False, False, info
        self._done = True
        reward = float(self.driver.reward(self.seat))
        return self._obs(), reward, not out.ended_by_cap, out.ended_by_cap, info

    def action_masks(self) -> np.ndarray:
        """The current action mask as booleans."""
        return self._obs()["action_mask"].astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.driver.render_text(self.seat)

    def close(self) -> None:
        self.driver.session = None


def make_env(game: str, **kwargs: Any) -> PocketGalaxyGymEnv:
    """A single-agent Gymnasium environment for `game` ("adventure" or "perils").

    Keywords: `players` (Adventure 2..5, default 4), `opponents` (Adventure: one agents
    registry spec for every other seat, or one per other seat in seat order, comma-separated
    or as a list, default "memory"; Perils: the Teller spec, default "teller"),
    `seat` (the learner's seat, default 0), `options` (rulings), `rewards`, `illegal_action`,
    `choice_cap`, `render_mode` ("ansi").
    """
    return PocketGalaxyGymEnv(game, **kwargs)
