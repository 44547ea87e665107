"""Celtae's learned value models: the ``<game>-<players>.npz`` weights beside this module (each with
its ``.json`` saying how it was made: ``python -m ludus.bots.learned.train celtae ...``), and the
game's own terms that a model made with ``rich`` rows reads after the common facts
(``ludus.bots.learned.features``): the heuristic's position terms and the means it weighs by hand, and the clock.

Everything read here is public (hand sizes, not hands), so that a row does not depend on
the determinization's hidden parts beyond what the heuristic itself reads.
"""

from __future__ import annotations

import random
from typing import Any

from .. import board as G
from ..heuristic_means import position


def training_options(players: int, rng: random.Random) -> dict[str, Any]:
    """A self-play game's options: the solo game at normal difficulty."""
    return {"players": 1, "difficulty": "normal"} if players == 1 else {"players": players}


CELTAE_SEAT = (
    "points but strength and cards, and leader",
    "Druid tile term",
    "tribe term",
    "open citadel term",
    "progress card terms",
    "hand size",
    "strength",
    "tokens",
    "discs built",
    "builders",
    "farmers",
    "soldiers",
    "nobles",
)
CELTAE_CLOCK = ("turns left share", "stage", "track")


def features(state: Any, seat: int, rival: int) -> list[float]:
    """Celtae: the heuristic's position terms (``heuristic_means``) and the means it
    weighs by hand, for ``seat`` then ``rival``; then the clock (the heuristic's share of
    the turns left, the stage, the track's markers)."""

    pos = position(state)
    cap = state.data.soldier_cap
    out: list[float] = []
    for o in (seat, rival):
        score, druid, tribe, open_, progress, _leaders = pos.seat_terms(state, o)
        act, tr = state.active[o], state.tribe[o]
        out += [
            float(score),
            druid,
            tribe or 0.0,
            open_,
            sum(progress),
            float(sum(state.hands[o])),
            float(state.strength[o]),
            float(state.tokens[o]),
            float(state.discs[o]),
            float(act[G.B] + tr[G.B] + tr[G.D]),
            float(act[G.F] + tr[G.F] + tr[G.D]),
            float(min(cap, act[G.S] + tr[G.S] + tr[G.D])),
            float(act[G.N] + tr[G.N]),
        ]
    out += [pos.g, float(state.stage), float(state.track)]
    return out


def _named(seat: tuple[str, ...], clock: tuple[str, ...]) -> tuple[str, ...]:
    return (*(f"{name} (seat)" for name in seat), *(f"{name} (best rival)" for name in seat), *clock)


NAMES = _named(CELTAE_SEAT, CELTAE_CLOCK)
