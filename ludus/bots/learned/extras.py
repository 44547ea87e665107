"""The richer part of a learned model's rows: a game's own terms for a seat and its best rival.

``features`` gives every game the same few facts (the heuristic's value, points, progress,
turn). A model trained with ``rich`` rows reads after them what the game's heuristic adds
up, term by term, for the row's seat and for its best rival, and how far the game has gone
in the game's own clock, so that the network can weigh each term by itself instead of
taking the heuristic's hand-set sum. ``EXTRAS[game]`` gives these columns:
``extras(state, seat, rival) -> list[float]``; ``NAMES[game]`` names them.

Everything read here is public (hand sizes, not hands), so that a row does not depend on
the determinization's hidden parts beyond what the heuristic itself reads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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


def celtae(state: Any, seat: int, rival: int) -> list[float]:
    """Celtae: the heuristic's position terms (``heuristics_celtae_means``) and the means it
    weighs by hand, for ``seat`` then ``rival``; then the clock (the heuristic's share of
    the turns left, the stage, the track's markers)."""
    from ...celtae import board as G
    from ..heuristics_celtae_means import position

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


def garum(state: Any, seat: int, rival: int) -> list[float]:
    """Garum: the heuristic's parts (``heuristics_garum``) summed over each seat's colours, for
    ``seat`` then ``rival`` (bonuses scored, the expected points of the lines its workers hold,
    the options of its workers still in the pool, then the workers by kind in the pool and on
    the board); then the round, the rounds left and the share of cetarium slots still free."""
    from ...garum.state import EMPTY
    from ..heuristics_garum import colour_values, line_values

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


def _names(seat: tuple[str, ...], clock: tuple[str, ...]) -> tuple[str, ...]:
    return (*(f"{name} (seat)" for name in seat), *(f"{name} (best rival)" for name in seat), *clock)


EXTRAS: dict[str, Callable[[Any, int, int], list[float]]] = {"celtae": celtae, "garum": garum}
NAMES: dict[str, tuple[str, ...]] = {
    "celtae": _names(CELTAE_SEAT, CELTAE_CLOCK),
    "garum": _names(GARUM_SEAT, GARUM_CLOCK),
}
