"""The TypedDicts of ``ludus.games.garum.observation_types`` say what ``observation()`` really holds.

Every key of every entry, no more and no fewer, with a value of the declared type, for each
seat and for the spectator, from the first decision to the final scoring.
"""

from __future__ import annotations

import pytest
from observation_check import problems

import ludus
from ludus.games.garum.observation_types import GarumObservation

from .helpers import play_random


@pytest.mark.parametrize(
    "options",
    [
        dict(players=2),
        dict(players=2, two_player_workers="shared", variant="emperor"),
        dict(players=3, variant="haruspex"),
        dict(players=4, board="baelo_claudia", rotation=False),
    ],
)
def test_observation_matches_its_typed_dict(options):
    game = ludus.load_game("garum", **options)
    state = game.new_initial_state(seed=5)
    steps = 0
    while True:
        for seat in [*range(game.num_players), None]:
            assert problems(state.observation(seat), GarumObservation, "observation") == []
        if state.is_terminal():
            break
        play_random(state, seed=steps, upto=17)
        steps += 1
    assert state.observation(None)["lines"]  # the final scoring was checked too


def test_the_check_can_fail():
    obs = ludus.load_game("garum", players=3).new_initial_state(seed=1).observation(0)
    obs["colours"][0]["hand_size"] = "3"
    del obs["winners"]
    assert len(problems(obs, GarumObservation, "observation")) == 1  # the missing key, before the values
    obs["winners"] = []
    assert problems(obs, GarumObservation, "observation") == [
        "observation.colours[0].hand_size: '3' is not int"
    ]
