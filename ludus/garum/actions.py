"""Garum's actions and their notation.

======================  =====================================================
``c14.2 BBGY``          place a tile in cetarium 14, slot 2 (1 top-left, 2 top-right,
                        3 bottom-left, 4 bottom-right), its fish as placed, in reading
                        order (B tuna, G mackerel, Y mollusc, R shellfish)
``V h5`` / ``D v12``    put a vilicus (V) or the dominus (D) on fish row 5 / column 12
``pass``                place no worker this turn
``choose c14``          Emperor: the first player names the round's cetarium
======================  =====================================================

Actions are interned: equal actions are the same object, so equality and hashing are
identity and legality checks stay cheap.
"""

from __future__ import annotations

import re
from typing import Any

from ..engine.action import Action
from ..engine.errors import IllegalActionError

SPECIES = "BGYR"


class _Interned(Action):
    __slots__ = ("_text",)
    _cache: dict[tuple, Any]

    def __init_subclass__(cls) -> None:
        cls._cache = {}

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._text}>"

    def __reduce__(self):
        return type(self), self._args()

    def _args(self) -> tuple:
        raise NotImplementedError


class Place(_Interned):
    """Put a tile from the hand (or the ghost's tile) into a slot, fish as placed."""

    __slots__ = ("cetarium", "slot", "fish")

    def __new__(cls, cetarium: int, slot: int, fish: str) -> Place:
        key = (cetarium, slot, fish)
        self = cls._cache.get(key)
        if self is None:
            self = object.__new__(cls)
            for name, value in zip(cls.__slots__, key, strict=True):
                object.__setattr__(self, name, value)
            object.__setattr__(self, "_text", f"c{cetarium}.{slot} {fish}")
            cls._cache[key] = self
        return self

    def _args(self) -> tuple:
        return (self.cetarium, self.slot, self.fish)


class Worker(_Interned):
    """Put a vilicus (``kind="V"``) or the dominus (``"D"``) on an influence line."""

    __slots__ = ("kind", "line", "name")

    def __new__(cls, kind: str, line: int, name: str) -> Worker:
        key = (kind, line)
        self = cls._cache.get(key)
        if self is None:
            self = object.__new__(cls)
            object.__setattr__(self, "kind", kind)
            object.__setattr__(self, "line", line)
            object.__setattr__(self, "name", name)
            object.__setattr__(self, "_text", f"{kind} {name}")
            cls._cache[key] = self
        return self

    @property
    def dominus(self) -> bool:
        return self.kind == "D"

    def _args(self) -> tuple:
        return (self.kind, self.line, self.name)


class Pass(_Interned):
    """Place no worker this turn."""

    __slots__ = ()

    def __new__(cls) -> Pass:
        self = cls._cache.get(())
        if self is None:
            self = object.__new__(cls)
            object.__setattr__(self, "_text", "pass")
            cls._cache[()] = self
        return self

    def _args(self) -> tuple:
        return ()


class Choose(_Interned):
    """Emperor variant: the first player names the cetarium of the round."""

    __slots__ = ("cetarium",)

    def __new__(cls, cetarium: int) -> Choose:
        self = cls._cache.get((cetarium,))
        if self is None:
            self = object.__new__(cls)
            object.__setattr__(self, "cetarium", cetarium)
            object.__setattr__(self, "_text", f"choose c{cetarium}")
            cls._cache[(cetarium,)] = self
        return self

    def _args(self) -> tuple:
        return (self.cetarium,)


PASS = Pass()

_PLACE = re.compile(r"c(\d{1,2})\.([1-4])\s+([BGYR]{4})")
_WORKER = re.compile(r"(v|d|vilicus|dominus)\s+([hv])(\d{1,2})")
_CHOOSE = re.compile(r"choose\s+c?(\d{1,2})")


def line_id(axis: str, number: int, size: int = 16) -> int:
    """Line ids: fish rows 0..size-1, fish columns size..2*size-1."""
    return number - 1 if axis == "h" else size + number - 1


def parse(text: str, size: int = 16) -> Action:
    """Notation to an Action; anything else raises IllegalActionError saying what was expected."""
    if not isinstance(text, str):
        raise IllegalActionError(f"an action must be notation text, got {type(text).__name__}")
    raw = " ".join(text.split())
    low = raw.lower()
    if low == "pass":
        return PASS
    if m := _PLACE.fullmatch(raw.upper().replace("C", "c", 1)):
        return Place(int(m[1]), int(m[2]), m[3])
    if m := _WORKER.fullmatch(low):
        number = int(m[3])
        if not 1 <= number <= size:
            raise IllegalActionError(f"{text!r}: lines are numbered 1..{size}")
        kind = "V" if m[1].startswith("v") else "D"
        return Worker(kind, line_id(m[2], number, size), f"{m[2]}{number}")
    if m := _CHOOSE.fullmatch(low):
        return Choose(int(m[1]))
    raise IllegalActionError(
        f"{text!r} is not Garum notation; expected e.g. 'c14.2 BBGY' (place), "
        "'V h5' or 'D v12' (worker), 'pass', or 'choose c14' (Emperor)"
    )
