"""Shared helpers for the research-interface tests: random games from a seed."""

from __future__ import annotations

import random

import ludus

GARUM_CONFIGS = [
    {"players": 2},
    {"players": 3, "board": "baelo_claudia"},
    {"players": 4, "variant": "emperor"},
    {"players": 2, "variant": "haruspex", "two_player_workers": "shared"},
    {"players": 4, "board": "baelo_claudia", "rotation": False, "species_bonus": "own"},
]

CELTAE_CONFIGS = [
    {"players": 1, "difficulty": "hard"},
    {"players": 2},
    {"players": 3, "token_moves_marker": True},
    {"players": 4},
]


def random_states(name: str, config: dict, seed: int, every: int = 7):
    """States met along one random game (every ``every``-th decision, and the end)."""
    game = ludus.load_game(name, **config)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            yield state
        state.apply_action(rng.choice(state.legal_actions()))
        step += 1
    yield state
