"""Bots: objects with ``step(state) -> Action`` that use only what their seat may see.

``make(name, **params)`` builds one by name; ``names()`` lists them; ``levels()`` lists the named
strength levels (``ludus.bots.levels``: beginner ... expert), accepted wherever a bot name is;
``hint(state)`` names the best moves for the seat to move, with their reasons.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from ..engine import Action, State
from .hint import hint  # noqa: F401  (``hint(state, n=3)``: the best moves with their reasons)
from .levels import LEVELS, level_class


class Bot(Protocol):
    def step(self, state: State) -> Action: ...


_BOTS = {
    "random": "ludus.bots.random_bot:RandomBot",
    "greedy": "ludus.bots.greedy:GreedyBot",
    "ismcts": "ludus.bots.ismcts:ISMCTSBot",
}


def _load(name: str) -> type[Bot] | None:
    if name in LEVELS:
        return level_class(name)
    module, _, attr = _BOTS[name].partition(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        return None


def names() -> list[str]:
    """The bots available."""
    return [name for name in _BOTS if _load(name) is not None]


def levels() -> list[str]:
    """The named strength levels, weakest first (each a bot spec with its budget)."""
    return list(LEVELS)


def _bot_class(name: str, spec: str | None = None) -> type[Bot]:
    """The class of bot ``name``; ValueError naming the known bots if there is none."""
    cls = _load(name) if name in LEVELS or name in _BOTS else None
    if cls is None:
        raise _unknown(name, spec)
    return cls


def _unknown(name: str, spec: str | None = None) -> ValueError:
    where = f" in {spec!r}" if spec is not None else ""
    return ValueError(
        f"unknown bot {name!r}{where}; known bots: {', '.join(names())}; levels: {', '.join(levels())}"
    )


def parameters(name: str) -> list[str]:
    """The parameters bot ``name`` takes (``seconds`` among them if it thinks against the clock)."""
    import inspect

    cls = _bot_class(name)
    return [p for p in inspect.signature(cls).parameters if p != "self"]


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """A bot spec, ``name`` or ``name:key=value:...``: ``"ismcts:iterations=100:cutoff=None"`` ->
    ``("ismcts", {"iterations": 100, "cutoff": None})``. A level's name is a bot name too
    (``"expert"`` -> ``("expert", {})``). Unknown bots raise ValueError."""
    name, *params = spec.strip().split(":")
    out: dict[str, Any] = {}
    for p in params:
        key, sep, text = p.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"bad bot spec {spec!r}: parameters are key=value, separated by ':'")
        out[key.strip()] = _value(text.strip())
    _check_params(name, _bot_class(name, spec), out)
    return name, out


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("none", "null"):
        return None
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def make(name: str, **params: Any) -> Bot:
    """A bot by name; ``seed`` fixes its choices where chance is involved."""
    cls = _bot_class(name)
    _check_params(name, cls, params)
    try:
        return cls(**params)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bad parameters for bot {name!r}: {exc}") from None


_KINDS = {int: "a whole number", float: "a number", bool: "true or false", str: "a word", type(None): "none"}


def _fits(value: Any, kind: Any) -> bool:
    if kind is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind) if isinstance(kind, type) else True


def _check_params(name: str, cls: type[Bot], params: dict[str, Any]) -> None:
    """Refuse a parameter the bot lacks, or a value of the wrong kind, naming it and what it takes."""
    import inspect
    import typing

    accepted = [p for p in inspect.signature(cls).parameters if p != "self"]
    hints = typing.get_type_hints(cls.__init__)
    for key, value in params.items():
        if key not in accepted:
            raise ValueError(f"bot {name!r} has no parameter {key!r}; its parameters: {', '.join(accepted)}")
        kinds = typing.get_args(hints.get(key)) or (hints.get(key, Any),)
        if not any(_fits(value, kind) for kind in kinds):
            takes = " or ".join(_KINDS.get(kind, str(kind)) for kind in kinds)
            raise ValueError(f"bot {name!r}: {key}={value} is not valid; {key} takes {takes}")
