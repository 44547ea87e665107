"""``State.log(seat, start)``: the log from action ``start`` on is the whole log's tail, for every seat
and the spectator, secrets masked alike (a log kept elsewhere asks only for what is new)."""

from __future__ import annotations

import random

import pytest

import ludus


@pytest.mark.parametrize("name", ["garum", "celtae"])
def test_log_from_start_is_the_tail_of_the_whole_log(name):
    game = ludus.load_game(name, players=2)
    rng = random.Random(3)
    state = game.new_initial_state(seed=3)
    checked = 0
    while not state.is_terminal() and len(state.history()) < 80:
        state.apply_action(rng.choice(state.legal_actions()))
        plies = len(state.history())
        for seat in (None, 0, 1):
            whole = state.log(seat)
            assert len(whole) == plies
            for start in {0, 1, plies // 2, plies - 1, plies}:
                assert state.log(seat, start) == whole[start:]
                checked += 1
    assert checked > 500
