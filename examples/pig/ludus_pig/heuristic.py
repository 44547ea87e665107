"""Pig's position value for greedy, ISMCTS and hints (declared as the game's ``heuristic`` hook).

Points at risk count at half their value: a turn total is lost on a 1, so a greedy bot holds
once the risk of the next roll outweighs its gain instead of rolling until it busts.
"""

from __future__ import annotations

from typing import Any


def evaluate(state: Any, seat: int) -> float:
    """The seat's banked points (and half its unbanked ones) less the best rival's."""
    mine = state.banked[seat] + (state.turn_total / 2 if state.turn == seat else 0.0)
    rivals = [points for other, points in enumerate(state.banked) if other != seat]
    return mine - max(rivals, default=0)
