"""Games by name: every installed package that registers one under the entry-point group
``ludus.games`` (``name = "module:GameClass"``), ludus's own games included: they are entry points of
the ``ludus`` distribution, so a source checkout is used installed (``pip install -e .``, as
scripts/setup does). Loaded lazily so that importing ludus stays cheap.

A game that fails to load is never quietly left out: ``failures()`` gives its name, entry point and
error, for ``ludus games``, the server's log at start-up and the test suite's first check.
"""

from __future__ import annotations

import importlib
import os
import traceback
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from typing import Any

from .data import DATA_ENV, PRINTED, DataSource, game_data
from .errors import OptionError
from .game import Game

GROUP = "ludus.games"
DISTRIBUTION = "ludus"
NOTHING_INSTALLED = (
    "no game is installed: games are entry points of the 'ludus.games' group, ludus's own among them, "
    "so ludus itself must be installed (in a source checkout: pip install -e .)"
)


@dataclass(frozen=True)
class LoadFailure:
    """An installed game that cannot be loaded: its name, its entry point and the error."""

    name: str
    entry_point: str  # "module:GameClass"
    error: str  # the exception's type and message, on one line

    def __str__(self) -> str:
        return f"the game {self.name!r} ({self.entry_point}) failed to load: {self.error}"


class GameLoadError(ImportError):
    """An installed game that failed to load was asked for (callers treating ImportError as "not
    here" still may)."""


@cache
def built_in() -> tuple[str, ...]:
    """ludus's own games: the ``ludus.games`` entry points of the ludus distribution's metadata."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return ()
    return tuple(sorted(ep.name for ep in dist.entry_points if ep.group == GROUP))


@cache
def _targets() -> dict[str, str]:
    """Entry points by game name: ludus's own first, then the others, each part by name."""
    found: dict[str, str] = {}
    for ep in metadata.entry_points(group=GROUP):
        found.setdefault(ep.name, ep.value)
    own = [name for name in built_in() if name in found]
    return {name: found[name] for name in own + sorted(set(found) - set(own))}


def refresh() -> None:
    """Look for installed games again (after installing one into a running interpreter)."""
    built_in.cache_clear()
    _targets.cache_clear()
    _load.cache_clear()


def registered(name: str) -> bool:
    """Whether an installed package registers a game under ``name`` (loaded or not)."""
    return name in _targets()


def game_names() -> list[str]:
    """Names of the installed games that load (see ``failures()`` for the others)."""
    return [name for name in _targets() if isinstance(_load(name), type)]


def failures() -> list[LoadFailure]:
    """The installed games that fail to load, each with its entry point and error."""
    return [found for name in _targets() if isinstance(found := _load(name), LoadFailure)]


def failure(name: str) -> LoadFailure | None:
    """Why the registered game ``name`` does not load; None if it loads or is not registered."""
    if not registered(name):
        return None
    found = _load(name)
    return found if isinstance(found, LoadFailure) else None


@cache
def _load(name: str) -> type[Game] | LoadFailure:
    """The game's class, or why it cannot be had (anything its import raises, or a target that is
    not a Game class of that name); tried once per ``refresh()``."""
    target = _targets()[name]
    module, _, attr = target.partition(":")
    try:
        found = getattr(importlib.import_module(module), attr) if attr else None
    except Exception as exc:  # a game's import may fail in any way: each is reported, none fatal
        text = " ".join("".join(traceback.format_exception_only(exc)).split())
        return LoadFailure(name, target, text)
    if not (isinstance(found, type) and issubclass(found, Game)):
        return LoadFailure(name, target, f"{target} is not a subclass of ludus.engine.Game")
    if getattr(found, "name", None) != name:
        return LoadFailure(
            name, target, f"its Game class is named {getattr(found, 'name', None)!r}, not {name!r}"
        )
    return found


def game_class(name: str) -> type[Game]:
    """The Game class of an installed game; KeyError if none is registered under ``name``,
    ``GameLoadError`` if it fails to load."""
    found = _load(name)
    if isinstance(found, LoadFailure):
        raise GameLoadError(str(found))
    return found


def unknown(name: object) -> str:
    """Why ``name`` names no game that can be played, with the games that can."""
    if isinstance(name, str) and (broken := failure(name)) is not None:
        return str(broken)
    known = game_names()
    if not known:
        return f"unknown game {name!r}; {NOTHING_INSTALLED}"
    return f"unknown game {name!r}; known games: {', '.join(known)}"


def load_game(name: str, *, data: DataSource = None, **options: Any) -> Game:
    """A game by name with options; unknown names or values are refused, listing the valid ones (a
    game that is installed but fails to load is refused with its error).

    ``data``: a folder whose files replace the game's data files of the same name (or a
    ``DataFiles``); None plays with the package's (or ``LUDUS_DATA``'s: ``ludus.engine.data``)."""
    if not isinstance(name, str) or name not in game_names():
        raise OptionError(unknown(name))
    return game_class(name)(**options, **({"data": data} if data is not None else {}))


def data_label(name: str) -> str | None:
    """The data the games ``name`` play with when none is named, for the server's views: None unless
    ``LUDUS_DATA`` names a folder (``ludus serve --data``); then that data's hash, or the printed
    components for a game whose values the folder leaves as they are."""
    if not os.environ.get(DATA_ENV):
        return None
    try:
        files = game_data(name, game_class(name).data_package)
    except (KeyError, ImportError):  # a game no longer installed: its old tables say nothing of data
        return None
    return None if files is None else files.tag or PRINTED
