"""Flat Monte Carlo with greedy playouts: the search of the ``rollout`` preset of ``ismcts``.

The rollout algorithm of Tesauro & Galperin (1996), "On-line policy improvement using Monte-Carlo
search", over determinizations as in ISMCTS: the root's best few actions by the game's heuristic
(greedy's one-ply ratings) are each played on in the same re-dealt world of the seat's view, every
seat then playing greedy's move for ``horizon`` decisions, and the position reached is scored by
the heuristic's win chance (a finished game by its result). Every candidate meets the same worlds
and the same tie-breaks (common random numbers), so their differences are not drowned by the
draws' luck, and the one with the best total is played. Where ISMCTS judges a position the moment
it reaches it, a playout lets the next ``horizon`` decisions (the game's plan: ten in Garum, twenty
in Celtae, whose turns are many small decisions) show what the position is worth, and greedy's moves
are a fair guess at a rival's: in Garum and 2-player Celtae this wins far more against greedy than
the tree search at equal time, and holds its own against the tree (docs/strength.md, "Greedy
playouts").
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ..engine import Action, State
from .greedy import greedy_choice, heuristic_owned, one_ply_values, score_margin
from .learned import win_chance

WIDTH = 3  # candidates searched when the bot's ``width`` is 0
HORIZON = 10  # greedy decisions played after a candidate before the heuristic scores the position


def search(
    state: State,
    deal: Callable[[], State],
    rng: random.Random,
    iterations: int,
    deadline: float | None = None,
    width: int = 0,
    horizon: int = HORIZON,
    scale: float = 8.0,
) -> tuple[Action, int]:
    """The best of the root's ``width`` best actions by greedy playouts, and the worlds played.

    ``deal()`` gives a re-dealt world of the seat's view; ``iterations`` worlds are played
    (with ``deadline``, as many as end before it, at least one).
    """
    legal = state.legal_actions()
    seat = state.current_player()
    values = one_ply_values(deal(), legal, seat)
    order = sorted(range(len(legal)), key=lambda i: (-values[i], i))
    candidates = [legal[i] for i in order[: width or WIDTH]]
    if len(candidates) == 1:
        return candidates[0], 0
    evaluate = heuristic_owned(state.game.name)
    totals = [0.0] * len(candidates)
    done = 0
    while True:
        world = deal()
        playout_seed = rng.getrandbits(32)
        for k, action in enumerate(candidates):
            after = world.clone()
            after.apply_action(action)
            totals[k] += _playout(after, seat, random.Random(playout_seed), horizon, evaluate, scale)
        done += 1
        if spent(done, iterations, deadline):
            break
    best = max(range(len(candidates)), key=lambda k: (totals[k], -k))
    return candidates[best], done


def spent(done: int, iterations: int, deadline: float | None) -> bool:
    """Whether a search that has run ``done`` iterations stops: at ``deadline`` if it has one, else at ``iterations``."""
    return done >= iterations if deadline is None else time.perf_counter() >= deadline


def _playout(
    world: State, seat: int, rng: random.Random, horizon: int, evaluate: Callable, scale: float
) -> float:
    """``seat``'s value after greedy play by every seat for ``horizon`` decisions: the heuristic's win
    chance (a finished game: its result), plus a thousandth of the margin to tell equal chances apart."""
    moves = 0
    while not world.is_terminal() and moves < horizon:
        world.apply_action(greedy_choice(world, rng))
        moves += 1
    if world.is_terminal():
        return world.returns()[seat] + 0.001 * score_margin(world, seat)
    margin = evaluate(world, seat)
    return win_chance(margin, scale) + 0.001 * margin
