"""Bots: objects with ``step(state) -> Action`` that use only what their seat may see.

``make(name, **params)`` builds one by name; ``names()`` lists them.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from ..engine import Action, State


class Bot(Protocol):
    def step(self, state: State) -> Action: ...


_BOTS = {
    "random": "ludus.bots.random_bot:RandomBot",
    "greedy": "ludus.bots.greedy:GreedyBot",
    "ismcts": "ludus.bots.ismcts:ISMCTSBot",
}


def _load(name: str) -> type | None:
    module, _, attr = _BOTS[name].partition(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        return None


def names() -> list[str]:
    """The bots available."""
    return [name for name in _BOTS if _load(name) is not None]


def make(name: str, **params: Any) -> Bot:
    """A bot by name; ``seed`` fixes its choices where chance is involved."""
    cls = _load(name) if name in _BOTS else None
    if cls is None:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(names())}")
    try:
        return cls(**params)
    except TypeError as exc:
        raise ValueError(f"bad parameters for bot {name!r}: {exc}") from None
