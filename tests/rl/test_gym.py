"""The single-agent Gymnasium environment: env_checker, masks, bots between decisions."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import ludus
from ludus.rl import gym_env


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("config", [{"players": 2}, {"players": 3, "board": "baelo_claudia"}])
def test_check_env_passes(config):
    n = config["players"]
    check_env(
        gym_env("garum", opponents=["random"] * (n - 1), render_mode="ansi", **config),
        skip_render_check=False,
    )


def test_every_observation_is_a_decision_of_the_agent_with_its_mask():
    env = gym_env("garum", opponents=["random", "random", "random"], players=4, seat=2)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(0)
    terminated = False
    steps = 0
    while not terminated:
        assert env.state.current_player() == 2
        assert np.array_equal(info["action_mask"], env.action_masks())
        assert info["action_mask"].sum() == len(env.state.legal_actions())
        assert np.array_equal(obs, env.encoder.encode(env.state.observation(2)))
        obs, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        steps += 1
        assert not truncated
    assert reward == env.state.returns()[2]
    assert not info["action_mask"].any()
    assert 16 * 2 >= steps >= 16  # a tile each round, and a worker on some


def test_illegal_action_costs_the_penalty_or_raises():
    env = gym_env("garum", players=2)
    _obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.state.to_json()
    _obs, reward, terminated, _trunc, info = env.step(illegal)
    assert reward == -1.0 and not terminated and "not legal" in info["illegal_action"]
    assert env.state.to_json() == before
    strict = gym_env("garum", players=2, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ludus.IllegalActionError):
        strict.step(illegal)


def test_same_seed_same_episode_with_seeded_bots():
    def run(seed):
        env = gym_env("garum", opponents=[{"name": "random"}], players=2)
        _obs, info = env.reset(seed=seed)
        done = False
        while not done:
            _obs, _r, done, _t, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        return env.state.history()

    assert run(7) == run(7)
    assert run(7) != run(8)


def test_wrong_number_of_opponents_is_refused():
    with pytest.raises(ValueError, match="needs 2 opponents"):
        gym_env("garum", opponents=["random"], players=3)
    with pytest.raises(ValueError, match="unknown bot"):
        gym_env("garum", opponents=["nobody"], players=2).reset(seed=0)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("config", [{"players": 1, "difficulty": "normal"}, {"players": 3}])
def test_celtae_check_env_passes(config):
    check_env(gym_env("celtae", opponents=["random"] * (config["players"] - 1), **config))


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_gym_env_copied_mid_game_observes_as_the_original(how: str) -> None:
    import copy
    import pickle

    env = gym_env("celtae", players=2)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(6):
        obs, _reward, _terminated, _truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
    twin = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    action = int(rng.choice(np.flatnonzero(info["action_mask"])))
    mine, twins = env.step(action), twin.step(action)
    assert np.array_equal(mine[0], twins[0]) and mine[1:4] == twins[1:4]
