"""``State.move_number()``: the number of actions applied, always ``len(history())``, on a state
played, cloned, re-dealt or loaded from JSON (whose history is notation)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludus


@settings(max_examples=25, deadline=None)
@given(
    game=st.sampled_from(["garum", "celtae"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 120),
)
def test_move_number_is_the_length_of_the_history(game, players, seed, moves):
    state = ludus.load_game(game, players=players).new_initial_state(seed=seed)
    assert state.move_number() == 0
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
        assert state.move_number() == len(state.history())
    copies = [state.clone(), state.game.state_from_json(state.to_json())]
    if not state.is_terminal():
        copies.append(state.resample(state.current_player(), rng))
    for copy in copies:
        assert copy.move_number() == len(state.history())
    if not state.is_terminal():  # a refused action counts nothing
        before = state.move_number()
        with pytest.raises(ludus.IllegalActionError):
            state.apply_action("not an action")
        assert state.move_number() == before
