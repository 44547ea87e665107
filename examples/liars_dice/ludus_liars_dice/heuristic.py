"""Liar's Dice's position value for greedy, ISMCTS and hints (declared as the game's ``heuristic`` hook).

It reads only what the seat sees: the dice counts, the bids and its own dice. A bot values a
re-dealt world (``state.resample``) whose other cups were rolled at random, and their faces must
not sway it. The value is in dice, the game's points: the seat's dice less the rivals' average
(every die a rival loses is good news), less the chance that the seat's own standing bid is
false, a die it loses if someone calls.
"""

from __future__ import annotations

from math import comb
from typing import Any

FACE_CHANCE = 1 / 6


def evaluate(state: Any, seat: int) -> float:
    """The seat's dice less its rivals' average, less the die its standing bid risks."""
    left = state.scores()
    rivals = [n for other, n in enumerate(left) if other != seat]
    value = left[seat] - sum(rivals) / max(1, len(rivals))
    if state.bids and state.bids[-1][0] == seat and not state.is_terminal():
        _, quantity, face = state.bids[-1]
        value -= 1.0 - chance_at_least(state, seat, quantity, face)
    return value


def chance_at_least(state: Any, seat: int, quantity: int, face: int) -> float:
    """The chance, as ``seat`` sees the table, that at least ``quantity`` dice show ``face``: its
    own dice counted, each unseen die a 1 in 6."""
    need = quantity - state.dice[seat].count(face)
    unseen = sum(len(d) for d in state.dice) - len(state.dice[seat])
    if need <= 0:
        return 1.0
    if need > unseen:
        return 0.0
    return sum(
        comb(unseen, k) * FACE_CHANCE**k * (1 - FACE_CHANCE) ** (unseen - k) for k in range(need, unseen + 1)
    )
