"""Garum with chosen colours (the ghost need not be the last colour): encodings and bots follow."""

from __future__ import annotations

import pytest

import ludus
from ludus.bots import make

from .test_fast_encoding import _check_game

CHOSEN = [
    dict(players=3, colours="red,blue,green"),
    dict(players=2, colours="yellow,red,green,blue"),
    dict(players=4, colours="red,green,blue,yellow"),
]


@pytest.mark.parametrize("config", CHOSEN)
def test_the_encoding_follows_the_chosen_colours(config):
    assert _check_game("garum", config, seed=4, every=3) > 20


@pytest.mark.parametrize("bot", ["greedy", "ismcts"])
def test_bots_play_chosen_colours(bot):
    state = ludus.load_game("garum", players=3, colours="red,blue,green").new_initial_state(seed=1)
    bots = [make(bot, seed=s, **({"iterations": 20} if bot == "ismcts" else {})) for s in range(3)]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert len(state.winners()) >= 1
