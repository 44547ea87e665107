"""Steps per second of the research environments beside the raw engine's decisions per second.

For each game configuration: the engine alone (random legal actions), the PettingZoo AEC
env (observe + mask + step, masked random actions), the Gymnasium env (random opponent
bots inside ``step``), and OpenSpiel (the registered Python game, if pyspiel is installed).

    python benchmarks/rl_speed.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import ludus
from ludus.rl import gym_env, pettingzoo_env
from ludus.rl.encoding import has_encoder

CONFIGS = [
    ("garum", {"players": 2}),
    ("garum", {"players": 3}),
    ("garum", {"players": 4}),
    ("garum", {"players": 4, "board": "baelo_claudia", "variant": "emperor"}),
    ("celtae", {"players": 2}),
    ("celtae", {"players": 4}),
    ("celtae", {"players": 1}),
]


def engine_rate(name: str, config: dict, seconds: float) -> float:
    game = ludus.load_game(name, **config)
    rng = random.Random(0)
    steps, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state(seed=seed)
        seed += 1
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - start)


def pettingzoo_rate(name: str, config: dict, seconds: float) -> float:
    env = pettingzoo_env(name, **config)
    rng = np.random.default_rng(0)
    steps, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _info = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - start)


def gym_rate(name: str, config: dict, seconds: float) -> float:
    n = ludus.load_game(name, **config).num_players
    env = gym_env(name, opponents=["random"] * (n - 1), **config)
    rng = np.random.default_rng(0)
    steps, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _obs, info = env.reset(seed=seed)
        seed += 1
        done = False
        while not done:
            _obs, _r, done, _t, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - start)


def openspiel_rate(name: str, config: dict, seconds: float) -> float | None:
    try:
        import ludus.rl.openspiel as spiel
    except ImportError:
        return None
    if f"python_ludus_{name}" not in spiel.REGISTERED:
        return None
    game = spiel.load(name, **config)
    rng = random.Random(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(len(state.chance_outcomes())))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    print(f"{'configuration':<46} {'engine/s':>9} {'AEC/s':>8} {'gym/s':>8} {'spiel/s':>8}")
    for name, config in CONFIGS:
        if not has_encoder(name):
            continue
        try:
            ludus.load_game(name, **config)
        except ludus.OptionError:
            continue
        label = name + " " + " ".join(f"{k}={v}" for k, v in config.items())
        engine = engine_rate(name, config, args.seconds)
        aec = pettingzoo_rate(name, config, args.seconds)
        gym = gym_rate(name, config, args.seconds)
        spiel = openspiel_rate(name, config, args.seconds)
        spiel_text = "-" if spiel is None else f"{spiel:8.0f}"
        print(f"{label:<46} {engine:9.0f} {aec:8.0f} {gym:8.0f} {spiel_text:>8}", flush=True)
    print("engine: decisions/s with random legal actions; AEC: PettingZoo steps/s (observe, mask, step);")
    print("gym: agent steps/s (random opponents' moves inside); spiel: OpenSpiel decisions/s.")


if __name__ == "__main__":
    main()
