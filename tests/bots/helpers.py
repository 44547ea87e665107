"""Game configurations and positions shared by the bot tests."""

from __future__ import annotations

import itertools
import random
from typing import Any

import ludus

GARUM_CONFIGS = [
    {"players": p, "board": b, "variant": v}
    for p, b, v in itertools.product(
        (2, 3, 4), ("troia", "baelo_claudia"), ("standard", "emperor", "haruspex")
    )
]


def config_id(config: dict) -> str:
    return "-".join(str(v) for v in config.values())


def random_position(game_name: str, options: dict, seed: int, steps: int) -> ludus.State:
    """A position reached by ``steps`` random actions (fewer if the game ends first)."""
    state = ludus.load_game(game_name, **options).new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def play_out(state: ludus.State, bots: list) -> ludus.State:
    """Play to the end, checking that every bot's choice is legal where it is made."""
    while not state.is_terminal():
        legal = state.legal_actions()
        action = bots[state.current_player()].step(state)
        assert action in legal, f"{action} is not among the legal actions {[str(a) for a in legal]}"
        state.apply_action(action)
    return state


class ReferenceGreedy:
    """The greedy bot as it was before its shortcuts: every legal action played on a clone and valued.

    The yardstick of ``test_fast_greedy``: the fast bot must choose exactly as this one does.
    """

    def __init__(self, seed: int | None = None, noise: float = 0.0, evaluate: Any = None) -> None:
        self.rng = random.Random(seed)
        self.noise = float(noise)
        self.evaluate = evaluate  # the game's own heuristic when None

    def step(self, state: ludus.State) -> ludus.Action:
        from ludus.bots.greedy import heuristic

        legal = state.legal_actions()
        seat = state.current_player()
        world = state.resample(seat, self.rng)
        if len(legal) == 1:
            return legal[0]
        evaluate = self.evaluate or heuristic(state.game.name)
        best: list = []
        best_value = float("-inf")
        for action in legal:
            child = world.clone()
            child.apply_action(action)
            value = evaluate(child, seat)
            if self.noise:
                value += self.rng.uniform(0, self.noise)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif value > best_value - 1e-9:
                best.append(action)
        return best[0] if len(best) == 1 else self.rng.choice(best)
