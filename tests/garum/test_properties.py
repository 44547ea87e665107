"""Invariants of Garum over many random games in every configuration (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludus
from ludus.engine import IllegalActionError
from ludus.games.garum.actions import Place
from ludus.games.garum.scoring import score_lines

from .helpers import CONFIGS, play_random

configs = st.sampled_from(CONFIGS)
seeds = st.integers(0, 2**32)


@settings(max_examples=150)
@given(configs, seeds, st.booleans())
def test_whole_game_invariants(config, seed, rotation):
    game = ludus.load_game("garum", rotation=rotation, **config)
    state = play_random(game.new_initial_state(seed=seed), seed=seed)
    board = game.board
    # rounds x 4 colours placements; every tile of every colour placed exactly once
    assert len(state.placed) == board.rounds * 4
    assert Counter(c for c, *_ in state.placed) == {c: board.rounds for c in range(4)}
    for c in range(4):
        assert sorted(t for col, t, *_ in state.placed if col == c) == list(game.tile_ids)
    assert all(-1 not in slots for slots in state.slots.values())
    # each species totals the fish the tiles carry; no worker of the ghost; pools within bounds
    assert all(w is None or w[0] != game.seating.ghost for w in state.workers)
    assert all(0 <= v <= 5 and 0 <= d <= 1 for v, d in state.pool)
    # final scores equal a fresh recount from the final board
    recount = list(state.bonus)
    for _line, colour, _kind, _n, points in score_lines(board, state.cells, state.workers):
        recount[colour] += points
    seating = game.seating
    assert state.scores() == [sum(recount[c] for c in seating.colours_of(s)) for s in range(seating.players)]
    assert state.winners() and all(0 <= s < seating.players for s in state.winners())


@given(configs, seeds)
def test_determinism_from_the_seed(config, seed):
    game = ludus.load_game("garum", **config)
    a = play_random(game.new_initial_state(seed=seed), seed=seed)
    b = play_random(game.new_initial_state(seed=seed), seed=seed)
    assert a.to_json() == b.to_json()


@given(configs, seeds, st.integers(0, 120))
def test_save_load_and_record_replay_round_trips(config, seed, upto):
    game = ludus.load_game("garum", **config)
    state = play_random(game.new_initial_state(seed=seed), seed=seed, upto=upto)
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()
    assert ludus.replay(state.record()).to_json() == state.to_json()


@given(configs, seeds, st.integers(0, 120), st.integers(0, 3))
def test_resample_leaks_nothing(config, seed, upto, seat):
    game = ludus.load_game("garum", **config)
    state = play_random(game.new_initial_state(seed=seed), seed=seed, upto=upto)
    seat %= game.num_players
    before = state.to_json()
    other = state.resample(seat, random.Random(seed))
    assert state.to_json() == before
    assert other.observation(seat) == state.observation(seat)
    assert other.observation(None) == state.observation(None)
    assert sorted(other.legal_actions(), key=str) == sorted(
        state.legal_actions(), key=str
    ) or state.current_player() not in (seat, ludus.TERMINAL)


@settings(max_examples=20)
@given(configs, seeds, st.booleans())
def test_placement_check_without_the_list_agrees_with_the_legal_actions(config, seed, rotation):
    """``apply_action`` checks a placement without listing the legal actions (``_offers``): on
    every position of a random game, every legal placement passes, and every other placement of
    the configuration (a sample of them) is refused with the state unchanged."""
    game = ludus.load_game("garum", rotation=rotation, **config)
    placements = [a for a in game.all_actions() if isinstance(a, Place)]
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        offered = set(legal)
        mine = [a for a in legal if isinstance(a, Place)]
        for action in rng.sample(mine, min(len(mine), 8)) + rng.sample(placements, 8):
            fresh = state.clone()
            fresh._legal = None  # as an environment meets it: nobody listed the actions
            assert fresh._offers(action) == (action in offered), (str(action), state.history())
            if action not in offered:
                before = fresh.to_json()
                with pytest.raises(IllegalActionError):
                    fresh.apply_action(Place(action.cetarium, action.slot, action.fish))  # a new object
                assert fresh.to_json() == before
        state.apply_action(rng.choice(legal))
