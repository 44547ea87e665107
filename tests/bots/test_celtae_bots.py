"""The bots are generic: on Celtae (when its engine is present) they play whole legal games too."""

from __future__ import annotations

import pytest

import ludus
from ludus import bots

from .helpers import play_out


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("bot", [{"name": "greedy"}, {"name": "ismcts", "iterations": 3, "prior": False}])
def test_bots_play_only_legal_actions_in_celtae(players: int, bot: dict) -> None:
    game = ludus.load_game("celtae", players=players)
    params = dict(bot)
    name = params.pop("name")
    seats = [
        bots.make(name, seed=s, **params) if s == 0 else bots.make("random", seed=s) for s in range(players)
    ]
    assert play_out(game.new_initial_state(seed=8), seats).is_terminal()


def test_the_solo_game_is_valued_by_the_solo_weights_and_duels_by_the_multiplayer_ones() -> None:
    from ludus.games.celtae import heuristic as values
    from ludus.games.celtae import heuristic_means as means

    from .helpers import random_position

    solo = random_position("celtae", {"players": 1}, seed=3, steps=40)
    duel = random_position("celtae", {"players": 2}, seed=3, steps=40)
    assert means.weights(solo) is means.W_SOLO and means.weights(duel) is means.W
    assert means.W_SOLO["tribe"] != means.W["tribe"]  # the solo game has weights of its own
    before = [values.evaluate(solo, 0), values.evaluate(duel, 0)]
    saved = dict(means.W_SOLO)
    try:
        means.W_SOLO["tribe"] += 5.0  # a tribe short of its next point space is worth more
        values.forget()
        after = [values.evaluate(solo, 0), values.evaluate(duel, 0)]
    finally:
        means.W_SOLO.update(saved)
        values.forget()
    assert after[0] > before[0] and after[1] == before[1]
