"""The search's shortcuts change its speed, never its choices: same action, same random stream used."""

from __future__ import annotations

import pytest

import ludus.bots.greedy as greedy_module
import ludus.bots.ismcts as ismcts_module
from ludus.bots.ismcts import ISMCTSBot

from .helpers import GARUM_CONFIGS, config_id, random_position


@pytest.mark.parametrize("config", GARUM_CONFIGS[::3], ids=config_id)
@pytest.mark.parametrize("steps", [3, 30, 70])
@pytest.mark.parametrize("preset", ["learned", "rollout"])
def test_ismcts_with_action_shortcuts_searches_as_without(
    config: dict, steps: int, preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = random_position("garum", config, seed=steps, steps=steps)
    if state.is_terminal() or len(state.legal_actions()) < 2:
        pytest.skip("no choice here")
    budget = {"learned": 25, "rollout": 2}[preset]
    fast = ISMCTSBot(seed=steps, iterations=budget, preset=preset, horizon=4)
    chosen = fast.step(state)
    monkeypatch.setattr(ismcts_module, "heuristic_actions", lambda _name: None)
    monkeypatch.setattr(greedy_module, "heuristic_actions", lambda _name: None)
    plain = ISMCTSBot(seed=steps, iterations=budget, preset=preset, horizon=4)
    assert plain.step(state) == chosen
    assert plain.rng.getstate() == fast.rng.getstate()
