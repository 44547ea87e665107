"""The uniform random bot: the baseline of every ladder."""

from __future__ import annotations

import random

from ..engine import Action, State


class RandomBot:
    """Picks a legal action uniformly at random (seeded for reproducible games)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def step(self, state: State) -> Action:
        return self.rng.choice(state.legal_actions())
