"""Games by name, loaded lazily so that importing ludus stays cheap."""

from __future__ import annotations

import importlib
from typing import Any

from .errors import OptionError
from .game import Game

_GAMES = {
    "garum": "ludus.garum.game:GarumGame",
    "celtae": "ludus.celtae.game:CeltaeGame",
}


def game_names() -> list[str]:
    """Names of the games ludus knows."""
    return [name for name in _GAMES if _available(name)]


def _available(name: str) -> bool:
    try:
        game_class(name)
    except ImportError:
        return False
    return True


def game_class(name: str) -> type[Game]:
    module, _, attr = _GAMES[name].partition(":")
    return getattr(importlib.import_module(module), attr)


def load_game(name: str, **options: Any) -> Game:
    """A game by name with options; unknown names or values are refused, listing the valid ones."""
    if name not in _GAMES or not _available(name):
        raise OptionError(f"unknown game {name!r}; known games: {', '.join(game_names())}")
    return game_class(name)(**options)
