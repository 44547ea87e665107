"""The Celtae heuristic's copy-saving entry point values as the plain one does."""

from __future__ import annotations

import random

import pytest

import ludus
from ludus.games.celtae import heuristic as heuristics_celtae


@pytest.mark.parametrize("players", [1, 2, 4])
def test_evaluate_on_an_owned_copy_equals_evaluate_and_leaves_the_original_alone(players: int) -> None:
    game = ludus.load_game("celtae", players=players)
    rng = random.Random(players)
    checked = 0
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            seat = state.current_player()
            before = state.to_json()
            assert heuristics_celtae.evaluate_owned(state.clone(), seat) == heuristics_celtae.evaluate(
                state, seat
            )
            assert state.to_json() == before
            checked += state.phase >= heuristics_celtae._FINISH_PHASE and not state.pending
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 50  # positions in the middle of a turn, where the finish runs
