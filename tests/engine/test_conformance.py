"""Every installed game, in every valid configuration, keeps the engine contract (the kit)."""

from __future__ import annotations

import itertools

import pytest

import ludus
from ludus.engine import OptionError
from ludus.engine.conformance import (
    FEW,
    ConformanceError,
    check_game,
    configurations,
    every_game_configuration,
)
from ludus.engine.registry import game_class

CASES = list(every_game_configuration())


@pytest.mark.parametrize(
    "name,config", CASES, ids=[n + "-" + "-".join(f"{k}={v}" for k, v in c.items()) for n, c in CASES]
)
def test_every_game_configuration_conforms(name, config):
    assert check_game(name, config, games=1, seed=7) > 0


@pytest.mark.parametrize("name", ["garum", "celtae"])
def test_configurations_are_the_valid_option_combinations(name):
    """Every valid combination of the options with a few values, and every value of every option."""
    cls = game_class(name)
    found = configurations(name)
    few = [o.name for o in cls.options if len(o.choices) <= FEW]
    valid = set()
    for values in itertools.product(*(o.choices for o in cls.options if o.name in few)):
        try:
            config = cls.validate_options(dict(zip(few, values, strict=True)))
        except OptionError:
            continue
        valid.add(tuple(config[n] for n in few))
    assert {tuple(c[n] for n in few) for c in found} == valid
    for option in cls.options:
        assert {c[option.name] for c in found} == set(option.choices), option.name
    for config in found:
        ludus.load_game(name, **config)  # each one loads


def test_the_solo_configurations_are_among_them():
    solo = {"players": 1, "difficulty": "hard", "token_moves_marker": False, "solo_adjacent": True}
    assert solo in configurations("celtae")


def test_the_kit_catches_a_game_that_breaks_the_contract(monkeypatch):
    """A state whose clone shares its lists is caught (the kit can fail)."""
    state_class = ludus.load_game("garum", players=2).state_class
    original = state_class._copy_into

    def shallow(self, other):
        original(self, other)
        other.hands = self.hands  # shared: playing on the clone changes the original

    monkeypatch.setattr(state_class, "_copy_into", shallow)
    with pytest.raises(ConformanceError, match="clone"):
        check_game("garum", {"players": 2}, games=1)


def test_the_kit_catches_an_illegal_action_that_changes_the_state(monkeypatch):
    state_class = ludus.load_game("celtae", players=2).state_class
    original = state_class._why_illegal

    def meddling(self, action):
        self.strength[0] += 1
        return original(self, action)

    monkeypatch.setattr(state_class, "_why_illegal", meddling)
    with pytest.raises(ConformanceError, match="changed the state"):
        check_game("celtae", {"players": 2}, games=1)
