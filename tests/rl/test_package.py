"""``from ludus.rl import pettingzoo_env, gym_env`` gives the functions, even once the submodules are imported."""

from __future__ import annotations

import importlib

import pytest


def test_the_factories_stay_functions_after_their_modules_are_imported() -> None:
    importlib.import_module("ludus.rl.pettingzoo_env")
    importlib.import_module("ludus.rl.gym_env")
    from ludus.rl import gym_env, pettingzoo_env

    assert callable(pettingzoo_env) and callable(gym_env)
    env = pettingzoo_env("garum", players=2)
    env.reset(seed=1)
    assert env.agent_selection in env.possible_agents
    single = gym_env("garum", players=2)
    _obs, info = single.reset(seed=1)
    assert info["action_mask"].any()


def test_the_factories_take_no_default_game() -> None:
    """The generic layer names no game: the caller always says which."""
    from ludus.rl import gym_env, pettingzoo_env

    for factory in (pettingzoo_env, gym_env):
        with pytest.raises(TypeError, match="name"):
            factory(players=2)
