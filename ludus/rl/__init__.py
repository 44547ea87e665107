"""Research interfaces: PettingZoo and Gymnasium environments, OpenSpiel registration.

``pettingzoo_env(name, **options)`` and ``gym_env(name, opponents=[...], **options)`` build
environments for any game configuration; ``import ludus.rl.openspiel`` registers the games
with pyspiel. All share one action numbering (``game.all_actions()``) and one observation
encoding per game (:mod:`ludus.rl.encoding`). Needs the ``rl`` extra (numpy, gymnasium,
pettingzoo), and OpenSpiel the ``openspiel`` extra; importing this package does not import open_spiel,
and a missing extra is named in the ImportError of the adapter that needs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["gym_env", "pettingzoo_env"]

if TYPE_CHECKING:
    from .gym_env import gym_env
    from .pettingzoo_env import pettingzoo_env
else:
    try:
        # imported here, not on first call: importing a submodule binds its name on this package,
        # which would otherwise replace the function of the same name by the module
        from .gym_env import gym_env
        from .pettingzoo_env import pettingzoo_env
    except ImportError as _missing:  # the rl extra (numpy, gymnasium, pettingzoo) is not installed
        _reason = str(_missing)  # names the module missing and the extra that brings it

        def pettingzoo_env(name: str, **options: Any):
            """A PettingZoo AEC environment (needs the ``rl`` extra)."""
            raise ImportError(_reason)

        def gym_env(name: str, opponents: list | None = None, **options: Any):
            """A single-agent Gymnasium environment (needs the ``rl`` extra)."""
            raise ImportError(_reason)
