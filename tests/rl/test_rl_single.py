"""The single-agent Gymnasium environments: env_checker, opponents, refusals, full episodes."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from pocketgalaxy.agents.adventure import ForgetfulAgent, MemoryAgent
from pocketgalaxy.agents.base import RandomAgent
from pocketgalaxy.core.errors import IllegalActionError, OptionsError, PocketGalaxyError
from pocketgalaxy.core.rng import Rng
from pocketgalaxy.rl import PocketGalaxyGymEnv, Rewards, make_env
from pocketgalaxy.rl.single import split_specs


def test_adventure_passes_the_gymnasium_env_checker() -> None:
    check_env(make_env("adventure", players=4, opponents="memory,forgetful,random"),
              skip_render_check=True)


def test_perils_passes_the_gymnasium_env_checker() -> None:
    check_env(make_env("perils"), skip_render_check=True)


def test_opponents_sit_in_the_other_seats_in_order() -> None:
    env = make_env("adventure", players=4, seat=1,
                   opponents="memory,forgetful:level=easy,fade=0.2,random")
    env.reset(seed=2)
    agents = env.driver.live.agents
    assert sorted(agents) == [0, 2, 3]
    assert type(agents[0]) is MemoryAgent
    assert isinstance(agents[2], ForgetfulAgent) and agents[2].settings == {}
    assert type(agents[3]) is RandomAgent
    assert env.driver.to_act == 1
    assert make_env("perils", opponents=["random"]).driver.bots == {1: "random"}
    one = make_env("adventure", players=3, opponents="random")
    one.reset(seed=0)
    assert all(type(a) is RandomAgent for a in one.driver.live.agents.values())


def test_player_specs_split_on_commas_but_keep_their_settings() -> None:
    assert split_specs("memory, forgetful:level=easy,fade=0.1 ,random") == [
        "memory", "forgetful:level=easy,fade=0.1", "random"]
    assert split_specs("ismcts:iterations=50") == ["ismcts:iterations=50"]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"game": "adventure", "players": 4, "opponents": "memory,random"}, "2 players for 3"),
        ({"game": "adventure", "players": 3, "seat": 3}, "seat=3"),
        ({"game": "perils", "seat": 1}, "the Hero, seat 0"),
        ({"game": "perils", "players": 3}, "2 seats"),
        ({"game": "perils", "illegal_action": "ignore"}, "illegal_action"),
        ({"game": "perils", "opponents": ["teller", "random"]}, "2 players for 1"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(OptionsError, match=match):
        make_env(**kwargs)  # type: ignore[arg-type]


def test_unknown_opponents_are_refused_when_the_env_is_made() -> None:
    with pytest.raises(PocketGalaxyError, match="unknown computer player 'grandmaster'"):
        make_env("adventure", opponents="grandmaster")
    with pytest.raises(PocketGalaxyError, match=r"'rulebased' for perils seat 2 \(the Teller\)"):
        make_env("perils", opponents="rulebased")  # a Hero cannot take the Teller's seat


def test_an_illegal_action_ends_the_episode_or_raises_and_changes_nothing() -> None:
    env = make_env("perils", rewards=Rewards(win=1.0, loss=0.0, illegal=-5.0))
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    view_before = env.driver.info(0)
    obs2, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated) == (-5.0, True, False)
    assert info["illegal_action"]["code"] == "action/wrong_phase"  # a pathway, at setup
    assert info["view"] == view_before["view"]
    assert np.array_equal(obs2["observation"], obs["observation"])
    with pytest.raises(OptionsError, match="reset"):
        env.step(0)
    strict = make_env("adventure", players=2, illegal_action="raise")
    obs, _ = strict.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        strict.step(bad)
    assert np.array_equal(strict.action_masks(), obs["action_mask"].astype(bool))


def _episode(env: PocketGalaxyGymEnv, seed: int) -> tuple[float, int, bool]:
    obs, info = env.reset(seed=seed)
    rng = Rng(seed)
    steps = 0
    while True:
        assert info["view"]["to_act"] == env.seat
        legal = [int(i) for i in np.flatnonzero(obs["action_mask"])]
        obs, reward, terminated, truncated, info = env.step(rng.choice(legal))
        steps += 1
        if terminated or truncated:
            return reward, steps, truncated
        assert reward == 0.0


def test_full_episodes_end_with_the_outcome_reward() -> None:
    adv = make_env("adventure", players=3, opponents="random")
    for seed in range(3):
        reward, steps, truncated = _episode(adv, seed)
        out = adv.driver.outcome
        assert out is not None and not truncated and steps > 0
        sole = out.winners == (0,)
        assert reward == (1.0 if sole else 0.0 if 0 in out.winners else -1.0)
    hero = make_env("perils")
    for seed in range(3):
        reward, steps, _ = _episode(hero, seed)
        out = hero.driver.outcome
        assert out is not None and reward == (1.0 if out.winners else 0.0)
        assert steps >= 23  # at least a choice per round of the main phase


def test_reset_with_a_seed_repeats_the_episode() -> None:
    env = make_env("adventure", players=4, opponents="memory,forgetful,random")
    first = _episode(env, 5)
    obs_a, _ = env.reset(seed=5)
    assert _episode(env, 5) == first
    obs_b, _ = env.reset(seed=5)
    assert np.array_equal(obs_a["observation"], obs_b["observation"])
    env.reset(seed=6)
    other, _ = env.reset()
    env.reset(seed=6)
    again, _ = env.reset()
    assert np.array_equal(other["observation"], again["observation"])
