"""Garum's undo is the engine's one mechanism (``State._settles``): within a turn a tile may be
taken back before its worker, and the Emperor's choice before the tile; the action ending a turn
closes the door. States saved while Garum kept its own ``turn_start`` still load, with it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import ludus

SAVES = Path(__file__).parent / "saves"


def _play_until(config: dict, seed: int, wanted) -> ludus.State:
    state = ludus.load_game("garum", **config).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not wanted(state):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_tile_may_be_taken_back_before_its_worker():
    state = _play_until({"players": 4}, 3, lambda s: s.phase == "worker")
    assert state.history()[-1].startswith("c")  # the tile just placed
    assert state.undo_barrier() == len(state.history()) - 1


def test_the_worker_or_pass_ending_the_turn_closes_the_door():
    state = _play_until({"players": 4}, 3, lambda s: s.phase == "worker")
    state.apply_action(state.legal_actions()[-1])  # pass (or the last worker choice)
    assert state.undo_barrier() == len(state.history())


def test_the_emperors_choice_may_be_taken_back_with_the_tile_after_it():
    state = _play_until(
        {"players": 4, "variant": "emperor"},
        5,
        lambda s: s.history() and s.history()[-1].startswith("choose") and s.phase == "place",
    )
    barrier = state.undo_barrier()
    assert barrier == len(state.history()) - 1
    state.apply_action(state.legal_actions()[0])
    if state.phase == "worker":
        assert state.undo_barrier() == barrier  # the choice and the tile: both still the chooser's


@pytest.mark.parametrize(
    "name, config, barrier",
    [
        ("garum-3p-worker-step.json", {"players": 3}, 13),
        ("garum-emperor-after-choose.json", {"players": 4, "variant": "emperor"}, 9),
    ],
)
def test_states_saved_with_garums_own_turn_start_load_with_it(name, config, barrier):
    """Those saves hold ``turn_start`` (the true barrier) and an engine barrier at the history's end."""
    text = (SAVES / name).read_text()
    saved = json.loads(text)
    assert saved["state"]["turn_start"] == barrier and saved["barrier"] == len(saved["history"])
    state = ludus.load_game("garum", **config).state_from_json(text)
    assert state.undo_barrier() == barrier < len(state.history())
    again = state.game.state_from_json(state.to_json())  # written anew: the engine's barrier alone
    assert "turn_start" not in json.loads(state.to_json())["state"]
    assert again.undo_barrier() == barrier
    replayed = ludus.replay(state.record())
    assert replayed.undo_barrier() == barrier and replayed.to_json() == state.to_json()


def test_a_saved_turn_start_outside_the_history_is_refused():
    saved = json.loads((SAVES / "garum-3p-worker-step.json").read_text())
    saved["state"]["turn_start"] = len(saved["history"]) + 1
    with pytest.raises(ValueError, match="turn_start outside the history"):
        ludus.load_game("garum", players=3).state_from_json(json.dumps(saved))
