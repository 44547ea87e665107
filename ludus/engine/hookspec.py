"""The hooks a game may declare (``Hooks``) and the shape each must have (``SHAPES``).

Kept apart from their look-up (``ludus.engine.hooks``) so that the Game class can declare hooks
without the engine's modules importing each other in a circle.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Shape:
    """What a hook must be: a module (with functions), an object (``module:attr``) or a file."""

    kind: str  # "module", "object" or "file"
    needs: tuple[tuple[str, int], ...] = ()  # (function, positional arguments) it must offer
    may: tuple[tuple[str, int], ...] = ()  # optional functions, checked where present
    doc: str = ""


SHAPES: dict[str, Shape] = {
    "renderer": Shape(
        "module",
        (("render_text", 1),),
        (
            ("render_svg", 1),
            ("panels", 2),
            ("rules_help", 0),
            ("log_detail", 2),
            ("board_options", 1),
            ("automaton_turns", 1),
        ),
        "boards for the CLI and the browser; panels, rules help, move-log details, the board's "
        "options for an observation (what to outline) and the turns the game plays for a seat of its "
        "own (a solo automaton) for the browser",
    ),
    "heuristic": Shape(
        "module",
        (("evaluate", 2),),
        (("evaluate_all", 1), ("evaluate_actions", 2)),
        "position values for greedy, ISMCTS and hints",
    ),
    "explainer": Shape("module", (("explain", 5),), (("canonical", 2),), "the reason a hint gives"),
    "encoder": Shape("object", (("", 1),), (), "an Encoder class of ludus.rl, built with the game"),
    "report_facts": Shape(
        "object",
        (("", 1),),
        (),
        "facts of one final state for the balance report; per seat in {'seats': [...]}, a text or a list "
        "of texts groups seats and a truth or a number is a figure, for ludus compare",
    ),
    "report_sections": Shape(
        "object",
        (("", 7),),
        (),
        "the report's own sections, from every game's facts (and the keyword data, the DataFiles played "
        "with, when not the package's)",
    ),
    "optional_skip": Shape("object", (("", 1),), (), "the action passing over an optional step, or None"),
    "browser": Shape("file", (), (), "the browser client's board module (package:path of a .js file)"),
    "styles": Shape(
        "file", (), (), "the browser's style sheet for the game's board (package:path of a .css file)"
    ),
    "rules": Shape(
        "file", (), (), "the rules summary one click away in the browser (package:path of an HTML fragment)"
    ),
    "learned": Shape(
        "module",
        (("features", 3),),
        (("training_options", 2),),
        "learned value models (<game>-<players>.npz beside the module), the game's own terms of their "
        "rows (features(state, seat, rival), NAMES) and the options of self-play games",
    ),
}


@dataclass(frozen=True)
class Hooks:
    """A game's declared extras; each is optional (None: the generic version is used).

    ``renderer``, ``heuristic``, ``explainer`` and ``learned`` name modules (``pkg.render``); ``encoder``,
    ``report_facts``, ``report_sections`` and ``optional_skip`` name ``module:attr``;
    ``browser``, ``styles`` and ``rules`` name files shipped in a package (``package:path/to/board.js``);
    the browser fetches every file of the folders they are in under ``/plugins/<game>/``.
    """

    renderer: str | None = None
    heuristic: str | None = None
    explainer: str | None = None
    encoder: str | None = None
    report_facts: str | None = None
    report_sections: str | None = None
    optional_skip: str | None = None
    browser: str | None = None
    styles: str | None = None
    rules: str | None = None
    learned: str | None = None

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
