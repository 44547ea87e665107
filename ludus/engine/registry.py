"""Games by name: every installed package that registers one under the entry-point group
``ludus.games`` (``name = "module:GameClass"``), garum and celtae included. Loaded lazily so
that importing ludus stays cheap."""

from __future__ import annotations

import importlib
from functools import cache
from importlib import metadata
from typing import Any

from .errors import OptionError
from .game import Game

GROUP = "ludus.games"
# ludus's own games, for a source checkout used without being installed (no entry points then)
_BUILT_IN = {"garum": "ludus.games.garum.game:GarumGame", "celtae": "ludus.games.celtae.game:CeltaeGame"}


@cache
def _targets() -> dict[str, str]:
    found = {ep.name: ep.value for ep in metadata.entry_points(group=GROUP)}
    if not found:
        return dict(_BUILT_IN)
    order = [name for name in _BUILT_IN if name in found] + sorted(set(found) - set(_BUILT_IN))
    return {name: found[name] for name in order}


def refresh() -> None:
    """Look for installed games again (after installing one into a running interpreter)."""
    _targets.cache_clear()
    game_class.cache_clear()


def registered(name: str) -> bool:
    """Whether an installed package registers a game under ``name`` (loaded or not)."""
    return name in _targets()


def game_names() -> list[str]:
    """Names of the installed games that load."""
    return [name for name in _targets() if _available(name)]


def _available(name: str) -> bool:
    try:
        game_class(name)
    except (ImportError, AttributeError):
        return False
    return True


@cache
def game_class(name: str) -> type[Game]:
    module, _, attr = _targets()[name].partition(":")
    cls: type[Game] = getattr(importlib.import_module(module), attr)
    return cls


def load_game(name: str, **options: Any) -> Game:
    """A game by name with options; unknown names or values are refused, listing the valid ones."""
    if not isinstance(name, str) or name not in _targets() or not _available(name):
        raise OptionError(f"unknown game {name!r}; known games: {', '.join(game_names())}")
    return game_class(name)(**options)
