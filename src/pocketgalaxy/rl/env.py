"""PettingZoo AEC environments: Adventure Cards (every astronaut learns) and Perils & Pathways
(the Hero learns; the computer Teller plays inside).

PettingZoo classic style: each observation is `{"observation": float32 vector,
"action_mask": int8 mask}` (the mask is all zeros for an agent that is not to act), actions
are indices of a fixed `Discrete` space, rewards come only at the end, and `infos[agent]`
holds that agent's raw view JSON under "view" (refreshed whenever the agent is to act, and for
every agent at the end; building every seat's view after every step would halve the speed).

    from pocketgalaxy.rl import adventure_env
    env = adventure_env(players=4)
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else pick(obs["observation"], obs["action_mask"])
        env.step(action)

A masked-out action raises the rules' `IllegalActionError` (or `MalformedActionError` for an
index outside the space) and changes nothing. A game ended by the rules' turn cap
(Adventure `max_turns`, AC-R14) is scored as the rules score it and reported as truncated.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from pocketgalaxy.rl.driver import GameDriver, Rewards
from pocketgalaxy.rl.encoding import MASK_DTYPE, OBS_DTYPE
from pocketgalaxy.rl.encoding.perils import CHOICE_CAP

RENDER_MODES = ("ansi",)


def observation_space(driver: GameDriver) -> spaces.Dict:
    """The Dict space of one seat's observation for `driver`'s game."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, shape=(driver.encoder.size,), dtype=OBS_DTYPE),
        "action_mask": spaces.Box(0, 1, shape=(driver.codec.size,), dtype=MASK_DTYPE),
    })


class PocketGalaxyAEC(AECEnv):  # type: ignore[misc]
    """An AEC environment over a `GameDriver`; agents are the driver's learner seats."""

    metadata: dict[str, Any] = {
        "render_modes": list(RENDER_MODES),
        "name": "pocketgalaxy",
        "is_parallelizable": False,
    }

    def __init__(self, driver: GameDriver, agent_names: dict[int, str],
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            from pocketgalaxy.core.errors import OptionsError

            raise OptionsError(f"render_mode={render_mode!r} is not supported",
                               allowed=list(RENDER_MODES))
        self.driver = driver
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"pocketgalaxy_{driver.game}_v0"}
        self._names = {s: agent_names[s] for s in driver.learners}
        self._seats = {name: s for s, name in self._names.items()}
        self.possible_agents = [self._names[s] for s in driver.learners]
        self.agents: list[str] = []
        space = observation_space(driver)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(driver.codec.size)
                              for a in self.possible_agents}
        self._rng: np.random.Generator | None = None

    def __str__(self) -> str:
        return str(self.metadata["name"])

    # -- the AEC API --------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def seat_of(self, agent: str) -> int:
        return self._seats[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. `seed` is the game's own seed (the same deal as `Session(seed=seed)`);
        without one, the next seed comes from a generator seeded by the last given seed.
        `options` is accepted for API compatibility and not used (rulings are fixed when the
        environment is made)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            if self._rng is None:
                self._rng = np.random.default_rng()
            game_seed = int(self._rng.integers(0, 2**31))
        self.driver.new_game(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_action()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.driver.observation(self._seats[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            from pocketgalaxy.core.errors import MalformedActionError

            raise MalformedActionError(action, f"{agent} is to act and must give an action")
        self.driver.act(self._seats[agent], action)  # raises (and changes nothing) if illegal
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._after_action()
        self._accumulate_rewards()

    def _after_action(self) -> None:
        driver = self.driver
        seat = driver.to_act
        if seat is not None:
            self.agent_selection = self._names[seat]
            self.infos[self.agent_selection] = driver.info(seat)
            return
        out = driver.outcome
        capped = bool(out is not None and out.ended_by_cap)
        for a in self.agents:
            self.infos[a] = driver.info(self._seats[a])
            self.rewards[a] = driver.reward(self._seats[a])
            self.terminations[a] = not capped
            self.truncations[a] = capped
        self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self.driver.to_act
        return self.driver.render_text(seat if seat is not None else None)

    def close(self) -> None:
        self.driver.session = None


class AdventureAEC(PocketGalaxyAEC):
    """Adventure Cards for 2..5 learning astronauts `astronaut_0`..`astronaut_{n-1}`."""

    def __init__(self, players: int = 4, *, options: Any = None, rewards: Rewards | None = None,
                 render_mode: str | None = None) -> None:
        driver = GameDriver("adventure", players=players, options=options, rewards=rewards)
        super().__init__(driver, {s: f"astronaut_{s}" for s in range(driver.players)},
                         render_mode)


class PerilsAEC(PocketGalaxyAEC):
    """Perils & Pathways with one learning agent, `hero_0`; the computer `teller` spec (from
    the agents registry) plays seat 1 inside the environment."""

    def __init__(self, *, options: Any = None, teller: str = "teller",
                 rewards: Rewards | None = None, choice_cap: int = CHOICE_CAP,
                 render_mode: str | None = None) -> None:
        driver = GameDriver("perils", options=options, bots={1: teller}, rewards=rewards,
                            choice_cap=choice_cap)
        super().__init__(driver, {0: "hero_0"}, render_mode)


def adventure_env(players: int = 4, **kwargs: Any) -> AdventureAEC:
    """The Adventure Cards AEC environment (PettingZoo's `env()` convention)."""
    return AdventureAEC(players, **kwargs)


def perils_env(**kwargs: Any) -> PerilsAEC:
    """The Perils & Pathways AEC environment (the Hero learns)."""
    return PerilsAEC(**kwargs)
