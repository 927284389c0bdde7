"""The PettingZoo AEC environments: the API conformance test, seeds, refusals and rewards."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

from pocketgalaxy.core.errors import IllegalActionError, MalformedActionError, OptionsError
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.games.adventure import AdventureRules
from pocketgalaxy.rl import AdventureAEC, GameDriver, PerilsAEC, adventure_env, perils_env
from pocketgalaxy.rl.env import PocketGalaxyAEC

# The dict observation of PettingZoo's classic environments draws these two notes from
# api_test for every environment that is not one of PettingZoo's own; anything else fails.
CLASSIC_STYLE_NOTES = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


def _api_test(env: PocketGalaxyAEC, cycles: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=cycles)
    other = {str(w.message) for w in caught
             if not str(w.message).startswith(CLASSIC_STYLE_NOTES)}
    assert not other


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_adventure_passes_the_pettingzoo_api_test(players: int) -> None:
    _api_test(adventure_env(players=players), 150)


def test_perils_passes_the_pettingzoo_api_test() -> None:
    env = perils_env()
    assert env.possible_agents == ["hero_0"]
    _api_test(env, 300)


def _random_run(env: PocketGalaxyAEC, seed: int, steps: int) -> list[Any]:
    """(agent, observation, mask, info view) along a run of random masked actions."""
    env.reset(seed=seed)
    rng = Rng(seed)
    trace: list[Any] = []
    for agent in env.agent_iter(steps):
        obs, _, terminated, truncated, info = env.last()
        trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(),
                      info.get("view")))
        if terminated or truncated:
            env.step(None)
        else:
            env.step(rng.choice([int(i) for i in np.flatnonzero(obs["action_mask"])]))
    return trace


@pytest.mark.parametrize("make", [lambda: adventure_env(players=4), perils_env])
def test_same_seed_and_actions_give_the_same_observations(make: Any) -> None:
    first = _random_run(make(), 11, 300)
    again = make()
    _random_run(again, 99, 50)  # an earlier game on the same object changes nothing
    assert _random_run(again, 11, 300) == first
    assert _random_run(make(), 12, 300) != first


def test_unseeded_resets_follow_the_last_seed() -> None:
    a, b = adventure_env(players=3), adventure_env(players=3)
    a.reset(seed=5)
    b.reset(seed=5)
    a.reset()
    b.reset()
    assert np.array_equal(a.observe(a.agent_selection)["observation"],
                          b.observe(b.agent_selection)["observation"])
    assert a.driver.live.seed == b.driver.live.seed != 5


def test_a_reset_seed_plays_the_same_deal_as_a_session_with_that_seed() -> None:
    env = adventure_env(players=4)
    env.reset(seed=21)
    state = AdventureRules().new(None, 21, players=4)
    seat = env.seat_of(env.agent_selection)
    assert seat == state.to_move
    assert list(env.infos[env.agent_selection]["view"]["hand"]) == sorted(
        state.hands[seat], key=lambda c: ("SPAM".index(c[0]), c[1]))


def test_through_the_driver_hidden_cards_do_not_change_a_seats_observation() -> None:
    # Two deals that differ only in seats 1 and 2 (S3 and S4 swapped) and the table's order.
    missions = [[f"S{m}", f"P{m}", f"A{m}", f"M{m}"] for m in range(1, 7)]
    mine = ["S1", "P1", "A1", "S2", "P2", "A2"]
    pin_a = {"missions": missions, "first_player": 0,
             "hands": [mine, ["M1", "M2", "S3", "P3", "A4", "M4"],
                       ["A3", "M3", "S4", "P4", "S5", "P5"]],
             "table": ["A5", "M5", "S6", "P6", "A6", "M6"]}
    pin_b = {"missions": missions, "first_player": 0,
             "hands": [mine, ["M1", "M2", "S4", "P3", "A4", "M4"],
                       ["A3", "M3", "S3", "P4", "S5", "P5"]],
             "table": ["M6", "M5", "S6", "P6", "A6", "A5"]}
    a, b = GameDriver("adventure", players=3), GameDriver("adventure", players=3)
    a.new_game(1, pinned=pin_a)
    b.new_game(1, pinned=pin_b)
    for key in ("observation", "action_mask"):
        assert np.array_equal(a.observation(0)[key], b.observation(0)[key])
    assert a.info(0) == b.info(0)
    assert not np.array_equal(a.observation(1)["observation"], b.observation(1)["observation"])


def test_a_masked_out_action_raises_and_changes_nothing() -> None:
    env = adventure_env(players=2)
    env.reset(seed=3)
    agent = env.agent_selection
    before = env.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    with pytest.raises(MalformedActionError, match="out of range"):
        env.step(10_000)
    with pytest.raises(MalformedActionError, match="must give an action"):
        env.step(None)
    after = env.observe(agent)
    assert env.agent_selection == agent
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])
    assert env._cumulative_rewards[agent] == 0.0


def test_only_the_agent_to_act_has_a_mask() -> None:
    env = adventure_env(players=3)
    env.reset(seed=4)
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == env.agent_selection)


def _play_out(env: PocketGalaxyAEC, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    rng = Rng(seed)
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
        else:
            assert reward == 0.0  # rewards come at the end only
            env.step(rng.choice([int(i) for i in np.flatnonzero(obs["action_mask"])]))
    return final


def test_adventure_rewards_follow_the_outcome() -> None:
    env = adventure_env(players=2)
    for seed in range(3):
        final = _play_out(env, seed)
        out = env.driver.outcome
        assert out is not None and not out.ended_by_cap
        expected = {f"astronaut_{s}": (1.0 if s in out.winners and len(out.winners) == 1
                                       else 0.0 if s in out.winners else -1.0)
                    for s in range(2)}
        assert final == expected
        assert env.agents == []


def test_a_game_ended_by_the_turn_cap_is_truncated_and_scored() -> None:
    env = AdventureAEC(3, options={"max_turns": 2})
    final = _play_out(env, 8)
    out = env.driver.outcome
    assert out is not None and out.ended_by_cap
    assert set(final) == {"astronaut_0", "astronaut_1", "astronaut_2"}
    assert all(v in (1.0, 0.0, -1.0) for v in final.values())


def test_perils_reward_is_one_for_the_prize_and_zero_otherwise() -> None:
    easy = PerilsAEC(options={"skill_adds_to_roll": True, "teller_policy": "approve_all"})
    seen = set()
    for env in (easy, PerilsAEC()):  # random play mostly wins the easy game, loses the other
        for seed in range(4):
            final = _play_out(env, seed)
            out = env.driver.outcome
            assert out is not None
            assert final == {"hero_0": 1.0 if out.winners else 0.0}
            seen.add(final["hero_0"])
    assert seen == {0.0, 1.0}


def test_bad_construction_is_refused() -> None:
    with pytest.raises(OptionsError, match="2 to 5 players"):
        adventure_env(players=6)
    with pytest.raises(OptionsError, match="unknown option"):
        adventure_env(players=2, options={"no_such_rule": 1})
    with pytest.raises(OptionsError, match="render_mode"):
        perils_env(render_mode="human")
    with pytest.raises(OptionsError, match="reset"):
        adventure_env().observe("astronaut_0")


def test_ansi_render_describes_the_game() -> None:
    env = adventure_env(players=2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None and "Adventure Cards" in text and "hand" in text
    hero = perils_env(render_mode="ansi")
    hero.reset(seed=1)
    assert "Perils & Pathways" in (hero.render() or "")
    assert perils_env().render() is None
