"""The bots are generic: on Celtae (when its engine is present) they play whole legal games too."""

from __future__ import annotations

import pytest

import ludus
from ludus import bots

from .helpers import play_out

pytestmark = pytest.mark.skipif("celtae" not in ludus.game_names(), reason="the Celtae engine is not present")


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
