"""The search's shortcuts change its speed, never its choices: same action, same random stream used."""

from __future__ import annotations

import random

import pytest

import ludus
import ludus.bots.greedy as greedy_module
import ludus.bots.ismcts as ismcts_module
from ludus.bots.ismcts import ISMCTSBot

from .helpers import GARUM_CONFIGS, config_id


def _position_with_a_choice(config: dict, steps: int) -> ludus.State:
    """``random_position``'s position ``steps`` random actions in, or, where the game ends sooner or the
    seat has a single action there, the last position on the way with a choice to make."""
    state = ludus.load_game("garum", **config).new_initial_state(seed=steps)
    rng = random.Random(steps)
    chosen = None
    for step in range(steps + 1):  # the positions after 0 .. steps random actions
        if state.is_terminal():
            break
        legal = state.legal_actions()
        if len(legal) >= 2:
            chosen = state.clone()
        if step < steps:
            state.apply_action(rng.choice(legal))
    assert chosen is not None
    return chosen


@pytest.mark.parametrize("config", GARUM_CONFIGS[::3], ids=config_id)
@pytest.mark.parametrize("steps", [3, 30, 70])
@pytest.mark.parametrize("preset", ["learned", "rollout"])
def test_ismcts_with_action_shortcuts_searches_as_without(
    config: dict, steps: int, preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _position_with_a_choice(config, steps)
    budget = {"learned": 25, "rollout": 2}[preset]
    fast = ISMCTSBot(seed=steps, iterations=budget, preset=preset, horizon=4)
    chosen = fast.step(state)
    monkeypatch.setattr(ismcts_module, "heuristic_actions", lambda _name: None)
    monkeypatch.setattr(greedy_module, "heuristic_actions", lambda _name: None)
    plain = ISMCTSBot(seed=steps, iterations=budget, preset=preset, horizon=4)
    assert plain.step(state) == chosen
    assert plain.rng.getstate() == fast.rng.getstate()
