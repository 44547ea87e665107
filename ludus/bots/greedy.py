"""The greedy bot: one ply of look-ahead scored by the game's own heuristic.

It sees only what its seat may see: it plays on a determinization
(``state.resample(seat, rng)``), never on the true state, so hidden hands, piles and
orders cannot steer it. The heuristic is ``evaluate(state, seat) -> float`` in the
module the game declares as its ``hooks.heuristic``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

from ..engine import Action, State
from ..engine.hooks import hook

Evaluator = Callable[[State, int], float]


def score_margin(state: State, seat: int) -> float:
    """The heuristic of a game that brings none: the seat's points minus the best rival's."""
    scores = state.scores()
    rivals = [x for s, x in enumerate(scores) if s != seat]
    return float(scores[seat] - (max(rivals) if rivals else 0))


@cache
def _module(game_name: str) -> Any:
    """The heuristic module the game declares (``Hooks.heuristic``), or None for a game without one."""
    return hook(game_name, "heuristic")


@cache
def heuristic(game_name: str) -> Evaluator:
    """The game's ``evaluate(state, seat)``; games without a heuristic are rated by score margin."""
    module = _module(game_name)
    return score_margin if module is None else module.evaluate


@cache
def heuristic_owned(game_name: str) -> Evaluator:
    """The game's optional ``evaluate_owned(state, seat)``: ``evaluate`` allowed to change ``state``
    (a copy the caller throws away), which saves the heuristic a copy of its own; else ``heuristic``."""
    return getattr(_module(game_name), "evaluate_owned", None) or heuristic(game_name)


@cache
def heuristic_all(game_name: str) -> Callable[[State], list[float]] | None:
    """The optional ``evaluate_all(state) -> [value per seat]`` of the game's heuristic module."""
    return getattr(_module(game_name), "evaluate_all", None)


@cache
def heuristic_actions(game_name: str) -> Callable[[State, list], list] | None:
    """The optional ``evaluate_actions(state, actions) -> [evaluate_all of each action's result or None]``.

    A game's shortcut for valuing many actions of one position without playing each on a
    clone; ``None`` entries are actions the caller plays out itself. Its figures must equal
    ``evaluate_all`` on the played positions exactly, so that bots choose as they would without it.
    """
    return getattr(_module(game_name), "evaluate_actions", None)


@cache
def heuristic_expansion_players(game_name: str) -> tuple[int, ...]:
    """Player counts for which ISMCTS grows its tree by the heuristic (``HEURISTIC_EXPANSION_PLAYERS``)."""
    return tuple(getattr(_module(game_name), "HEURISTIC_EXPANSION_PLAYERS", ()))


def rollout_plan(game_name: str, players: int) -> dict[str, Any]:
    """The settings of ISMCTS's rollout preset that the game's heuristic module gives for ``players``
    (``ROLLOUT``: player count -> ``ludus.bots.rollout.Plan`` fields); where it gives none, {} and
    ISMCTS's "auto" preset is its tree."""
    return dict(getattr(_module(game_name), "ROLLOUT", {}).get(players, {}))


@cache
def margin_finish_players(game_name: str) -> tuple[int, ...]:
    """Player counts for which ISMCTS values a finished game by its margin, not only by its result
    (``MARGIN_FINISH_PLAYERS``)."""
    return tuple(getattr(_module(game_name), "MARGIN_FINISH_PLAYERS", ()))


@cache
def search_world(game_name: str) -> Callable[[State], State] | None:
    """The game's optional ``search_world(world)``: the position ISMCTS values in place of a
    determinization (a solo game played for its hardest target, say)."""
    return getattr(_module(game_name), "search_world", None)


def one_ply_values(world: State, legal: list[Action], seat: int) -> list[float]:
    """The heuristic's value for ``seat`` after each of ``legal`` in ``world``: greedy's ratings."""
    name = world.game.name
    evaluate = heuristic_owned(name)  # each child below is a copy thrown away once valued
    world.legal_actions()  # listed once; every clone below inherits the list
    shortcut = heuristic_actions(name)
    known = shortcut(world, legal) if shortcut is not None else [None] * len(legal)
    values = []
    for action, margins in zip(legal, known, strict=True):
        if margins is None:
            child = world.clone()
            child.apply_action(action)
            values.append(evaluate(child, seat))
        else:
            values.append(margins[seat])
    return values


def pick_best(legal: list[Action], values: list[float], rng: random.Random) -> Action:
    """The action of the best value, a tie (within 1e-9 of the best so far) broken by ``rng``."""
    best: list[Action] = []
    best_value = float("-inf")
    for action, value in zip(legal, values, strict=True):
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif value > best_value - 1e-9:
            best.append(action)
    return best[0] if len(best) == 1 else rng.choice(best)


def greedy_choice(world: State, rng: random.Random) -> Action:
    """The move greedy plays in ``world`` as it stands, without re-dealing (``world`` is one already)."""
    legal = world.legal_actions()
    if len(legal) == 1:
        return legal[0]
    return pick_best(legal, one_ply_values(world, legal, world.current_player()), rng)


class GreedyBot:
    """Plays the legal action whose result the heuristic rates best for its seat.

    Parameters: ``seed`` fixes determinizations and tie-breaks; ``noise`` (default 0)
    adds uniform noise of that size to each rating, for varied but still sensible play.
    """

    def __init__(self, seed: int | None = None, noise: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.noise = float(noise)

    def step(self, state: State) -> Action:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("the game is over: there is no action to choose")
        seat = state.current_player()
        world = state.resample(seat, self.rng)
        if len(legal) == 1:
            return legal[0]
        values = one_ply_values(world, legal, seat)
        if self.noise:
            values = [v + self.rng.uniform(0, self.noise) for v in values]
        return pick_best(legal, values, self.rng)
