"""Whether a value (a game's observation) is of a declared type: TypedDicts, lists, dicts, unions, scalars.

Shared by the games' observation-type tests (tests/<game>/test_observation_types.py); ``tests/`` is on
the import path of every test (pytest puts the folder of the top ``conftest.py`` there).
"""

from __future__ import annotations

import functools
import types
import typing
from typing import Any, NotRequired, Required


@functools.cache
def _key_hints(tp: Any) -> tuple[dict[str, Any], set[str]]:
    """A TypedDict's keys with their value types, and the keys it requires.

    Read from the annotations (``NotRequired[...]``) rather than ``__required_keys__``, which Python 3.11
    gets wrong under ``from __future__ import annotations``.
    """
    hints, required = {}, set()
    for key, hint in typing.get_type_hints(tp, include_extras=True).items():
        origin = typing.get_origin(hint)
        if origin is NotRequired or origin is Required:
            hint = typing.get_args(hint)[0]
        if origin is Required or (origin is not NotRequired and key in tp.__required_keys__):
            required.add(key)
        hints[key] = hint
    return hints, required


@functools.cache
def _parts(tp: Any) -> tuple[bool, Any, tuple[Any, ...]]:
    return typing.is_typeddict(tp), typing.get_origin(tp), typing.get_args(tp)


def problems(value: Any, tp: Any, where: str) -> list[str]:
    """Where ``value`` is not of type ``tp``; an empty list when it is.

    A TypedDict must have every required key and no key it does not declare (a missing or extra key is
    reported before any value); an ``int`` may not be a ``bool``.
    """
    if type(value) is tp or tp is Any:  # a scalar of exactly its type (a bool is not an int here)
        return []
    typed_dict, origin, args = _parts(tp)
    if typed_dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a dict"]
        hints, required = _key_hints(tp)
        if not required <= value.keys() <= hints.keys():
            return [
                f"{where}: keys {sorted(value)} instead of {sorted(required)}"
                + (f" (optional: {sorted(hints.keys() - required)})" if hints.keys() - required else "")
            ]
        return [p for key, item in value.items() for p in problems(item, hints[key], f"{where}.{key}")]
    if origin in (typing.Union, types.UnionType):
        if type(value) in args or any(not problems(value, arg, where) for arg in args):
            return []
        return [f"{where}: {value!r} is none of {args}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [p for i, item in enumerate(value) for p in problems(item, args[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a dict"]
        return [
            p
            for key, item in value.items()
            for p in problems(key, args[0], f"{where} key") + problems(item, args[1], f"{where}[{key!r}]")
        ]
    if tp is type(None):
        return [f"{where}: {value!r} is not None"]
    if tp is int and isinstance(value, bool):
        return [f"{where}: {value!r} is a bool, not an int"]
    return [] if isinstance(value, tp) else [f"{where}: {value!r} is not {tp.__name__}"]
