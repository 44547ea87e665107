"""Celtae position value for one seat: points now, plus what strength, cards and workers promise.

It reads only what the seat may see (its own hand, public boards, tribes, stacks and
progress cards), so a greedy bot using it leaks nothing. The score so far already counts
A..K on the current board; on top it values the means of future points: strength toward
the next Roman tile, cards toward builds and battles, tribe workers toward their point
spaces, nobles and soldiers, tokens. In multi-player games the best rival's score is
subtracted at half weight, so denying points matters but less than scoring them.
"""

from __future__ import annotations

from typing import Any

STRENGTH = 0.18   # a point of strength is about a fifth of a point (score I and battles)
CARD = 0.3        # a card in hand: a share of a disc, a battle or a druid worker
WORKER = 0.35     # a tribe worker: point spaces, majorities, druid tiles
TOKEN = 0.6       # a bonus token: an extra worker or a free location
DISC_LEFT = 0.25  # per disc still to build while the game goes on
RIVAL = 0.5       # weight of the best rival's score


def evaluate(state: Any, seat: int) -> float:
    """Heuristic value of ``state`` for ``seat`` (higher is better)."""
    return _value(state, seat, state.scores())


def evaluate_all(state: Any) -> list[float]:
    """``evaluate`` for every seat, scoring the position once."""
    scores = state.scores()
    return [_value(state, seat, scores) for seat in range(len(scores))]


def _value(state: Any, seat: int, scores: list[int]) -> float:
    own = scores[seat]
    if state.is_terminal():
        if state.solo:
            target = state.data.targets[state.game.config["difficulty"]]
            return own + (50.0 if own >= target else 0.0)
        best = max((s for i, s in enumerate(scores) if i != seat), default=0)
        return own - RIVAL * best + (20.0 if own >= best else 0.0)
    hand = sum(state.hands[seat])
    tribe = state.tribe[seat]
    active = state.active[seat]
    value = float(own)
    value += STRENGTH * state.strength[seat] + CARD * hand + TOKEN * state.tokens[seat]
    value += WORKER * (tribe[0] + tribe[1] + tribe[2] + tribe[3]) + 0.5 * tribe[4]
    value += 0.15 * (active[3] + tribe[3])  # nobles: more recruits
    value += 0.1 * (active[2] + tribe[2] + active[1] + tribe[1])
    if state.track > 0:
        value -= DISC_LEFT * (len(state.data.disc_costs) - state.discs[seat]) * 0.2
    if not state.solo:
        value -= RIVAL * max(s for i, s in enumerate(scores) if i != seat)
    return value
