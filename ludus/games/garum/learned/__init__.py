"""Garum's learned value models: the ``<game>-<players>.npz`` weights beside this module (each with
its ``.json`` saying how it was made: ``python -m ludus.bots.learned.train garum ...``), and the
game's own terms that a model made with ``rich`` rows reads after the common facts
(``ludus.bots.learned.features``): the parts of the heuristic summed over each seat's colours, and the round.

Everything read here is public (hand sizes, not hands), so that a row does not depend on
the determinization's hidden parts beyond what the heuristic itself reads.
"""

from __future__ import annotations

import random
from typing import Any

from ..heuristic import colour_values, line_values
from ..state import EMPTY

BOARDS = ("troia", "baelo_claudia")
VARIANTS = ("standard", "emperor", "haruspex")


def training_options(players: int, rng: random.Random) -> dict[str, Any]:
    """A self-play game's options: the board and variant drawn at random."""
    return {"players": players, "board": rng.choice(BOARDS), "variant": rng.choice(VARIANTS)}


GARUM_SEAT = (
    "bonuses scored",
    "placed workers' lines",
    "unplaced workers' options",
    "vilici in the pool",
    "domini in the pool",
    "vilici placed",
    "domini placed",
)
GARUM_CLOCK = ("round", "rounds left", "free slots share")


def features(state: Any, seat: int, rival: int) -> list[float]:
    """Garum: the heuristic's parts (``heuristic``) summed over each seat's colours, for
    ``seat`` then ``rival`` (bonuses scored, the expected points of the lines its workers hold,
    the options of its workers still in the pool, then the workers by kind in the pool and on
    the board); then the round, the rounds left and the share of cetarium slots still free."""
    game = state.game
    lines = line_values(state)
    per_colour = colour_values(state)
    placed = [0.0] * 4
    placed_kinds = [[0, 0] for _ in range(4)]
    for w, entry in zip(state.workers, lines, strict=True):
        if w is not None and entry is not None:
            c, dominus = w[0], w[1] == "D"
            placed[c] += entry[c][1 if dominus else 0]
            placed_kinds[c][dominus] += 1
    seating = game.seating
    out: list[float] = []
    for o in (seat, rival):
        colours = seating.colours_of(o)
        pools = {game.pool_owner(c) for c in colours}
        bonus = float(sum(state.bonus[c] for c in colours))
        held = sum(placed[c] for c in colours)
        out += [
            bonus,
            held,
            sum(per_colour[c] for c in colours) - bonus - held,
            float(sum(state.pool[p][0] for p in pools)),
            float(sum(state.pool[p][1] for p in pools)),
            float(sum(placed_kinds[c][0] for c in colours)),
            float(sum(placed_kinds[c][1] for c in colours)),
        ]
    slots = [x for fill in state.slots.values() for x in fill]
    free = sum(1 for x in slots if x == EMPTY)
    rounds = game.board.rounds
    return [*out, float(state.round), float(rounds - state.round), free / max(1, len(slots))]


def _named(seat: tuple[str, ...], clock: tuple[str, ...]) -> tuple[str, ...]:
    return (*(f"{name} (seat)" for name in seat), *(f"{name} (best rival)" for name in seat), *clock)


NAMES = _named(GARUM_SEAT, GARUM_CLOCK)
