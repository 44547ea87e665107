"""The encoding read straight from the state equals the encoding of the observation dict, everywhere.

``encode_state`` is what the environments call on every step (a preallocated vector, cached
static parts, no dicts); ``encode(state.observation(seat))`` is the reference. They must agree
on every position of every configuration, for every seat and the public view, whether the
state is followed move by move (the incremental path) or met fresh (a clone), and whatever
the output buffer held before. The masks agree with a per-action lookup too.
"""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludus
from ludus.rl.encoding import ActionMap, encoder_for

from .conftest import CELTAE_CONFIGS, GARUM_CONFIGS

CONFIGS = [("garum", c) for c in GARUM_CONFIGS] + [("celtae", c) for c in CELTAE_CONFIGS]


def _check_game(name: str, config: dict, seed: int, every: int = 1) -> int:
    """Play one random game, comparing both encodings of every seat at every ``every``-th step."""
    game = ludus.load_game(name, **config)
    encoder = encoder_for(game)
    actions = ActionMap(game)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    dirty = np.full(encoder.size, 7.0, dtype=np.float32)
    checked = 0
    step = 0
    while True:
        if step % every == 0 or state.is_terminal():
            for seat in [None, *range(game.num_players)]:
                expected = encoder.encode(state.observation(seat))
                assert np.array_equal(encoder.encode_state(state, seat), expected), (seed, step, seat)
                out = encoder.encode_state(state.clone(), seat, dirty)  # fresh state, used buffer
                assert out is dirty and np.array_equal(out, expected), (seed, step, seat, "clone")
                checked += 1
            legal = state.legal_actions()
            reference = np.zeros(len(actions), dtype=np.int8)
            reference[[actions.to_index(a) for a in legal]] = 1
            assert np.array_equal(actions.mask(state), reference)
            fast = np.zeros(len(actions), dtype=np.int8)
            encoder.mark_legal(state.clone(), actions, fast)  # as the environments mark it
            assert np.array_equal(fast, reference), (seed, step, "mark_legal")
            assert sorted(actions.legal_index_array(state).tolist()) == actions.legal_indices(state)
        if state.is_terminal():
            return checked
        state.apply_action(rng.choice(legal if step % every == 0 else state.legal_actions()))
        step += 1


@pytest.mark.parametrize("name,config", CONFIGS)
def test_fast_encoding_equals_the_observation_encoding_on_whole_games(name: str, config: dict) -> None:
    assert _check_game(name, config, seed=3) > 20


@pytest.mark.parametrize("name", ["garum", "celtae"])
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(1, 4), every=st.integers(1, 9))
def test_fast_encoding_equals_the_observation_encoding_on_random_positions(
    name: str, seed: int, players: int, every: int
) -> None:
    if name == "garum" and players == 1:
        players = 2
    assert _check_game(name, {"players": players}, seed, every) > 0


def test_a_seat_outside_the_game_is_refused_by_the_fast_encoding() -> None:
    game = ludus.load_game("garum", players=2)
    with pytest.raises(ValueError, match="seat"):
        encoder_for(game).encode_state(game.new_initial_state(seed=1), 5)


def test_garum_marks_placements_in_rows_only_where_the_action_map_lays_them_out_so() -> None:
    """The row-by-row mask needs ``all_actions()``' grid of placements (cetarium, slot, layout);
    any other numbering is marked action by action, and still right."""
    from ludus.games.garum.encoder import _PlaceGrid

    game = ludus.load_game("garum", players=2)
    actions = ActionMap(game)
    grid = _PlaceGrid.of(actions)
    assert grid is not None and grid.stop == 4 * len(game.board.cetaria) * grid.width
    shuffled = ActionMap(game)
    shuffled.actions = shuffled.actions[::-1]
    shuffled._by_id = {id(a): i for i, a in enumerate(shuffled.actions)}
    shuffled.index = {a: i for i, a in enumerate(shuffled.actions)}
    assert _PlaceGrid.of(shuffled) is None
    encoder = encoder_for(game)
    state = game.new_initial_state(seed=5)
    mask = np.zeros(len(shuffled), dtype=np.int8)
    encoder.mark_legal(state, shuffled, mask)
    assert np.flatnonzero(mask).tolist() == sorted(shuffled.to_index(a) for a in state.legal_actions())


@pytest.mark.parametrize("name", ["garum", "celtae"])
def test_encode_state_fills_a_buffer_of_another_type_and_works_without_a_state_writer(name: str) -> None:
    """The base ``Encoder.encode_state``: a float64 buffer gets the same numbers; an encoder that
    names no ``state_writer`` encodes the observation dict instead (and makes no writer)."""
    game = ludus.load_game(name, players=2)
    state = game.new_initial_state(seed=4)
    rng = random.Random(4)
    for _ in range(15):
        state.apply_action(rng.choice(state.legal_actions()))
    encoder = encoder_for(game)
    expected = encoder.encode(state.observation(1))
    wide = np.full(encoder.size, 7.0)
    assert encoder.encode_state(state, 1, wide) is wide and np.array_equal(wide, expected)
    plain = encoder_for(game)
    plain.state_writer = None
    assert np.array_equal(plain.encode_state(state, 1), expected) and plain._writer is None
    assert encoder._writer is not None  # the fast path was the one taken above


@pytest.mark.parametrize("name", ["garum", "celtae"])
def test_an_encoder_pickled_mid_game_writes_the_same_vectors_after_loading(name: str) -> None:
    """OpenSpiel pickles games with their observers: the encoder's writer (a cache, compiled in the
    compiled build) is left out and made again, and the loaded encoder goes on alike."""
    game = ludus.load_game(name, players=2)
    encoder = encoder_for(game)
    state = game.new_initial_state(seed=3)
    rng = random.Random(3)
    for _ in range(25):
        encoder.encode_state(state, 0)  # the writer now holds what it wrote
        state.apply_action(rng.choice(state.legal_actions()))
    loaded = pickle.loads(pickle.dumps(encoder))
    for _ in range(25):
        for seat in (None, 0, 1):
            assert np.array_equal(loaded.encode_state(state, seat), encoder.encode_state(state, seat))
        state.apply_action(rng.choice(state.legal_actions()))
