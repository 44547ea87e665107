"""Research interfaces: PettingZoo and Gymnasium environments, OpenSpiel registration.

``pettingzoo_env(name, **options)`` and ``gym_env(name, opponents=[...], **options)`` build
environments for any game configuration; ``import ludus.rl.openspiel`` registers the games
with pyspiel. All share one action numbering (``game.all_actions()``) and one observation
encoding per game (:mod:`ludus.rl.encoding`). Needs the ``rl`` extra (numpy, gymnasium,
pettingzoo, open_spiel); importing this package does not import open_spiel.
"""

from __future__ import annotations

from typing import Any

__all__ = ["gym_env", "pettingzoo_env"]


def pettingzoo_env(name: str = "garum", **options: Any):
    """A PettingZoo AEC environment (see :mod:`ludus.rl.pettingzoo_env`)."""
    from .pettingzoo_env import pettingzoo_env as make

    return make(name, **options)


def gym_env(name: str = "garum", opponents: list | None = None, **options: Any):
    """A single-agent Gymnasium environment against bots (see :mod:`ludus.rl.gym_env`)."""
    from .gym_env import gym_env as make

    return make(name, opponents, **options)
