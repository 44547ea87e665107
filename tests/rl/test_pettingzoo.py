"""The PettingZoo AEC environment passes PettingZoo's own API and seeding tests."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import ludus
from ludus.rl import pettingzoo_env

from .conftest import CELTAE_CONFIGS, GARUM_CONFIGS


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("config", GARUM_CONFIGS)
def test_api_test_passes(config):
    api_test(pettingzoo_env("garum", **config), num_cycles=300)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("config", [GARUM_CONFIGS[0], GARUM_CONFIGS[2]])
def test_seed_test_passes(config):
    seed_test(functools.partial(pettingzoo_env, "garum", **config), num_cycles=100)


def play(env, seed, pick_seed=0):
    """Play one whole game with masked random actions; the list of (agent, observation) seen."""
    env.reset(seed=seed)
    rng = np.random.default_rng(pick_seed)
    seen = []
    for agent in env.agent_iter():
        obs, _reward, term, trunc, _info = env.last()
        seen.append((agent, obs["observation"].copy()))
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


def test_reset_with_a_seed_replays_the_same_game():
    env = pettingzoo_env("garum", players=3)
    first = play(env, seed=9)
    second = play(env, seed=9)
    assert [a for a, _ in first] == [a for a, _ in second]
    assert all(np.array_equal(x, y) for (_, x), (_, y) in zip(first, second, strict=True))
    other = play(env, seed=10)
    assert not all(np.array_equal(x, y) for (_, x), (_, y) in zip(first, other, strict=False))


def test_two_player_garum_has_two_agents_playing_two_colours():
    env = pettingzoo_env("garum", players=2)
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1"]
    colours = env.encoder.view(env.observe("player_0")["observation"], "colours")
    assert colours[:, 0].tolist() == [1, 0, 1, 0]  # "mine": blue and yellow


def test_observation_is_the_seats_view_and_mask_only_for_the_mover():
    env = pettingzoo_env("garum", players=4)
    env.reset(seed=4)
    mover = env.agent_selection
    for agent in env.agents:
        obs = env.observe(agent)
        seat = env.agent_seat[agent]
        expected = env.encoder.encode(env.state.observation(seat))
        assert np.array_equal(obs["observation"], expected)
        assert obs["action_mask"].any() == (agent == mover)


@pytest.mark.parametrize("reward", ["win", "score_diff"])
def test_rewards_come_at_the_end(reward):
    env = pettingzoo_env("garum", players=3, reward=reward)
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, r, term, trunc, _ = env.last()
        totals[agent] += r
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = env.state
    scores = state.scores()
    for seat, agent in enumerate(env.possible_agents):
        if reward == "win":
            assert totals[agent] == state.returns()[seat]
        else:
            others = [s for i, s in enumerate(scores) if i != seat]
            assert totals[agent] == pytest.approx(scores[seat] - sum(others) / len(others))


def test_illegal_action_is_refused_and_changes_nothing():
    env = pettingzoo_env("garum", players=2)
    env.reset(seed=3)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.state.to_json()
    with pytest.raises(ludus.IllegalActionError, match="not legal"):
        env.step(illegal)
    assert env.state.to_json() == before


def test_notation_mapping_and_ansi_render():
    env = pettingzoo_env("garum", players=2, render_mode="ansi")
    env.reset(seed=0)
    i = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    assert env.notation_to_action(env.action_to_notation(i)) == i
    text = env.render()
    assert isinstance(text, str) and "h1" in text


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="reward must be"):
        pettingzoo_env("garum", reward="points")
    with pytest.raises(ludus.OptionError, match="players"):
        pettingzoo_env("garum", players=5)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("config", CELTAE_CONFIGS)
def test_celtae_api_and_seed_tests_pass(config):
    api_test(pettingzoo_env("celtae", **config), num_cycles=300)
    seed_test(functools.partial(pettingzoo_env, "celtae", **config), num_cycles=50)


def test_celtae_solo_has_one_agent_whose_score_diff_is_its_score():
    env = pettingzoo_env("celtae", players=1, difficulty="easy", reward="score_diff")
    env.reset(seed=0)
    assert env.possible_agents == ["player_0"]
    rng = np.random.default_rng(1)
    total = 0.0
    for _agent in env.agent_iter():
        obs, r, term, trunc, _ = env.last()
        total += r
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert total == env.state.scores()[0]


@pytest.mark.parametrize("name", ["garum", "celtae"])
@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_an_env_copied_mid_game_plays_on_as_the_original(name: str, how: str) -> None:
    """A copy (deepcopy, or pickle and back) observes what the original observes, step for step, and
    playing it leaves the original as it was."""
    import copy
    import pickle

    env = pettingzoo_env(name, players=2)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(12):
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    twin = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    before = env.state.to_json()
    for _ in range(20):
        obs, *_ = env.last()
        other, *_ = twin.last()
        assert np.array_equal(obs["observation"], other["observation"])
        assert np.array_equal(obs["action_mask"], other["action_mask"])
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        twin.step(action)
        assert env.state.to_json() == before
        env.step(action)
        before = env.state.to_json()
