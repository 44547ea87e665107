"""The TypedDicts of ``ludus.garum.observation_types`` say what ``observation()`` really holds.

Every key of every entry, no more and no fewer, with a value of the declared type, for each
seat and for the spectator, from the first decision to the final scoring.
"""

from __future__ import annotations

import types
import typing
from typing import Any

import pytest

import ludus
from ludus.garum.observation_types import GarumObservation

from .helpers import play_random


def _problems(value: Any, tp: Any, where: str) -> list[str]:
    """Where ``value`` is not of type ``tp`` (TypedDicts, lists, dicts, unions, scalars)."""
    if tp is Any:
        return []
    if typing.is_typeddict(tp):
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a dict"]
        hints = typing.get_type_hints(tp)
        if set(value) != set(hints):
            return [f"{where}: keys {sorted(value)} instead of {sorted(hints)}"]
        return [p for key, hint in hints.items() for p in _problems(value[key], hint, f"{where}.{key}")]
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        if any(not _problems(value, arg, where) for arg in args):
            return []
        return [f"{where}: {value!r} is none of {args}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [p for i, item in enumerate(value) for p in _problems(item, args[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a dict"]
        return [p for key, item in value.items()
                for p in _problems(key, args[0], f"{where} key") + _problems(item, args[1], f"{where}[{key!r}]")]
    if tp is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if tp is int and isinstance(value, bool):
        return [f"{where}: {value!r} is a bool, not an int"]
    return [] if isinstance(value, tp) else [f"{where}: {value!r} is not {tp.__name__}"]


@pytest.mark.parametrize("options", [
    dict(players=2), dict(players=2, two_player_workers="shared", variant="emperor"),
    dict(players=3, variant="haruspex"), dict(players=4, board="baelo_claudia", rotation=False),
])
def test_observation_matches_its_typed_dict(options):
    game = ludus.load_game("garum", **options)
    state = game.new_initial_state(seed=5)
    steps = 0
    while True:
        for seat in [*range(game.num_players), None]:
            assert _problems(state.observation(seat), GarumObservation, "observation") == []
        if state.is_terminal():
            break
        play_random(state, seed=steps, upto=17)
        steps += 1
    assert state.observation(None)["lines"]  # the final scoring was checked too


def test_the_check_can_fail():
    obs = ludus.load_game("garum", players=3).new_initial_state(seed=1).observation(0)
    obs["colours"][0]["hand_size"] = "3"
    del obs["winners"]
    assert len(_problems(obs, GarumObservation, "observation")) == 1  # the missing key, before the values
    obs["winners"] = []
    assert _problems(obs, GarumObservation, "observation") == ["observation.colours[0].hand_size: '3' is not int"]
