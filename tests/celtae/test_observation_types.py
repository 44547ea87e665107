"""The TypedDicts of ``ludus.games.celtae.observation_types`` say what ``observation()`` really holds.

Every key of every entry, no more and no fewer, with a value of the declared type, for each
seat and for the spectator, from the leader choice to the final scoring, solo against
Solitairix and with 2, 3 and 4 players, under every option; and the Solitairix turns of
the move log.
"""

from __future__ import annotations

import pytest
from observation_check import problems

import ludus
from ludus.games.celtae.observation_types import CeltaeObservation, SolitairixTurn
from ludus.games.celtae.solo_words import solitairix_turns

from .helpers import CONFIGS, play_random


def _check(state, seats: list[int | None]) -> None:
    for seat in seats:
        obs = state.observation(seat)
        assert problems(obs, CeltaeObservation, "observation") == []
        # the two keys that are sometimes absent, exactly when they should be
        assert ("legal" in obs) == (seat is not None and seat == state.current_player())
        assert ("solitairix" in obs) == obs["solo"]


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_observation_matches_its_typed_dict(options):
    game = ludus.load_game("celtae", **options)
    seats: list[int | None] = [*range(game.num_players), None]
    for seed in (5, 6):
        state = game.new_initial_state(seed=seed)
        steps = 0
        while not state.is_terminal():
            _check(state, seats)
            if steps % 40 == 20:  # a saved game read back (lists where the state had tuples)
                _check(game.state_from_json(state.to_json()), seats)
            play_random(state, seed=steps, upto=1)
            steps += 1
        _check(state, seats)
        assert state.observation(None)["phase"] == "over"  # the final position was checked too
        for final in (state, game.state_from_json(state.to_json())):
            turns = solitairix_turns(final)
            assert bool(turns) == (game.num_players == 1)
            for i, turn in enumerate(turns):
                assert problems(turn, SolitairixTurn, f"turn {i}") == []


def test_the_check_can_fail():
    state = ludus.load_game("celtae", players=3).new_initial_state(seed=1)
    obs = state.observation(state.current_player())
    obs["players_info"][0]["hand_size"] = "3"
    del obs["scores"]
    assert len(problems(obs, CeltaeObservation, "observation")) == 1  # the missing key, before the values
    obs["scores"] = [0, 0, 0]
    assert problems(obs, CeltaeObservation, "observation") == [
        "observation.players_info[0].hand_size: '3' is not int"
    ]
    obs["players_info"][0]["hand_size"] = 3
    obs["extra"] = 1  # a key the type does not declare
    assert len(problems(obs, CeltaeObservation, "observation")) == 1
    del obs["extra"], obs["legal"]  # an optional key may be absent
    assert problems(obs, CeltaeObservation, "observation") == []
    obs["legal"] = ["done", 1]
    assert problems(obs, CeltaeObservation, "observation") == ["observation.legal[1]: 1 is not str"]
