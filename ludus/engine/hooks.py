"""What a game adds beyond the Game/State hooks, declared in one place: its Game class's ``hooks``.

Everything above the games (bots, arena, RL, CLI, server, browser) finds a game's extras
here, by what the game declares, never by a module-name convention; a game that declares
nothing gets each layer's generic version (score-margin heuristic, generic board view ...).
Targets are dotted strings, imported on first use, so a game package names its bot or RL
modules without importing anything above itself::

    class PigGame(Game):
        hooks = Hooks(renderer="ludus_pig.render", heuristic="ludus_pig.heuristic")

Each hook's shape (the functions it offers and the arguments they take) is in ``SHAPES``
(``ludus.engine.hookspec``);
``ludus.engine.conformance.check_hooks`` imports every declared hook and checks it.
"""

from __future__ import annotations

import importlib
import threading
from importlib import resources
from typing import Any

from .game import Game
from .hookspec import NONE, SHAPES, Hooks, Shape
from .registry import game_class, registered

__all__ = ["NONE", "SHAPES", "HookError", "Hooks", "Shape", "hook", "hooks_of"]


class HookError(ImportError):
    """A declared hook cannot be loaded (callers that treat ImportError as "not here" still may)."""


def hooks_of(game: type[Game] | Game | str) -> Hooks:
    """The hooks a game declares (by class, instance or registered name); none declared: ``NONE``.

    A name that no installed game registers (a game class used without its entry point)
    declares nothing: its layers use their generic versions."""
    if isinstance(game, str):
        if not registered(game):
            return NONE
        game = game_class(game)
    declared = getattr(game, "hooks", NONE)
    if not isinstance(declared, Hooks):
        name = getattr(game, "name", game)
        raise TypeError(f"{name!r}.hooks must be a ludus.engine.Hooks, got {declared!r}")
    return declared


def hook(game: type[Game] | Game | str, name: str) -> Any:
    """The declared hook ``name`` of ``game``, imported: a module, an object or a file path; None if
    the game declares none. A declared hook that cannot be imported raises ``HookError``."""
    if name not in SHAPES:
        raise ValueError(f"no hook {name!r}; hooks: {', '.join(SHAPES)}")
    target = getattr(hooks_of(game), name)
    return None if target is None else _load(name, target)


_loaded: dict[tuple[str, str], Any] = {}
_loading = threading.Lock()


def _load(name: str, target: str) -> Any:
    """The target imported, once: views and bots ask for hooks many times a move, so a loaded target
    is read from a dictionary of its own without a lock. The first loads take a lock: a module that
    another thread is still importing sits half-made in ``sys.modules`` (concurrent first hints after
    a start once read one and failed)."""
    key = (name, target)
    found = _loaded.get(key)
    if found is not None:
        return found
    with _loading:
        found = _loaded.get(key)
        if found is None:
            found = _loaded[key] = _import(name, target)
    return found


def _import(name: str, target: str) -> Any:
    module, _, attr = target.partition(":")
    try:
        if SHAPES[name].kind == "file":
            path = resources.files(module).joinpath(attr)
            if not path.is_file():
                raise FileNotFoundError(f"no file {attr} in package {module}")
            return path
        loaded = importlib.import_module(module)
        return getattr(loaded, attr) if attr else loaded
    except (ImportError, AttributeError, FileNotFoundError, TypeError) as exc:
        raise HookError(f"the declared hook {name}={target!r} cannot be loaded: {exc}") from exc
