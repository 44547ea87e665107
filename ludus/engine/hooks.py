"""What a game adds beyond the Game/State hooks, declared in one place: its Game class's ``hooks``.

Everything above the games (bots, arena, RL, CLI, server, browser) finds a game's extras
here, by what the game declares, never by a module-name convention; a game that declares
nothing gets each layer's generic version (score-margin heuristic, generic board view ...).
Targets are dotted strings, imported on first use, so a game package names its bot or RL
modules without importing anything above itself::

    class PigGame(Game):
        hooks = Hooks(renderer="ludus_pig.render", heuristic="ludus_pig.heuristic")

Each hook's shape (the functions it offers and the arguments they take) is in ``SHAPES``;
``ludus.engine.conformance.check_hooks`` imports every declared hook and checks it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, fields
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class Shape:
    """What a hook must be: a module (with functions), an object (``module:attr``) or a file."""

    kind: str  # "module", "object" or "file"
    needs: tuple[tuple[str, int], ...] = ()  # (function, positional arguments) it must offer
    may: tuple[tuple[str, int], ...] = ()  # optional functions, checked where present
    doc: str = ""


SHAPES: dict[str, Shape] = {
    "renderer": Shape("module", (("render_text", 1),), (("render_svg", 1), ("panels", 2), ("rules_help", 0)),
                      "boards for the CLI and the browser; panels and rules help for the browser"),
    "heuristic": Shape("module", (("evaluate", 2),), (("evaluate_all", 1), ("evaluate_actions", 2)),
                       "position values for greedy, ISMCTS and hints"),
    "explainer": Shape("module", (("explain", 5),), (("canonical", 2),), "the reason a hint gives"),
    "encoder": Shape("object", (("", 1),), (), "an Encoder class of ludus.rl, built with the game"),
    "report_facts": Shape("object", (("", 1),), (), "facts of one final state for the balance report"),
    "report_sections": Shape("object", (("", 7),), (), "the report's own sections, from every game's facts"),
    "optional_skip": Shape("object", (("", 1),), (), "the action passing over an optional step, or None"),
    "browser": Shape("file", (), (), "the browser client's board module (package:path of a .js file)"),
}


@dataclass(frozen=True)
class Hooks:
    """A game's declared extras; each is optional (None: the generic version is used).

    ``renderer``, ``heuristic`` and ``explainer`` name modules (``pkg.render``); ``encoder``,
    ``report_facts``, ``report_sections`` and ``optional_skip`` name ``module:attr``;
    ``browser`` names ``package:path/to/board.js``, a file shipped in that package.
    """

    renderer: str | None = None
    heuristic: str | None = None
    explainer: str | None = None
    encoder: str | None = None
    report_facts: str | None = None
    report_sections: str | None = None
    optional_skip: str | None = None
    browser: str | None = None

    def __post_init__(self) -> None:
        for name, target in self.declared().items():
            if not isinstance(target, str) or not target.strip(" .:"):
                raise TypeError(f"hook {name} must name a target as text, got {target!r}")
            module, colon, attr = target.partition(":")
            wants_colon = SHAPES[name].kind != "module"
            if bool(colon and attr and module) != wants_colon:
                form = "a module path, e.g. pkg.render" if not wants_colon else "'module:attr'"
                raise ValueError(f"hook {name}={target!r} must be {form}")

    def declared(self) -> dict[str, str]:
        """The hooks declared, by name."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}


NONE = Hooks()


class HookError(ImportError):
    """A declared hook cannot be loaded (callers that treat ImportError as "not here" still may)."""


def hooks_of(game: type[Game] | Game | str) -> Hooks:
    """The hooks a game declares (by class, instance or registered name); none declared: ``NONE``.

    A name that no installed game registers (a game class used without its entry point)
    declares nothing: its layers use their generic versions."""
    if isinstance(game, str):
        from .registry import _targets, game_class

        if game not in _targets():
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


@cache
def _load(name: str, target: str) -> Any:
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


def clear_cache() -> None:
    """Forget the hooks loaded so far (``ludus.engine.registry.refresh`` calls it)."""
    _load.cache_clear()
