"""Garum's actions and their notation.

======================  =====================================================
``c14.2 BBGY``          place a tile in cetarium 14, slot 2 (1 top-left, 2 top-right,
                        3 bottom-left, 4 bottom-right), its fish as placed, in reading
                        order (B tuna, G mackerel, Y mollusc, R shellfish)
``V h5`` / ``D v12``    put a vilicus (V) or the dominus (D) on fish row 5 / column 12
``pass``                place no worker this turn
``choose c14``          Emperor: the first player names the round's cetarium
======================  =====================================================

Actions are frozen dataclasses: equal values are equal actions. The game hands out the same
objects again (its placement lists and workers are made once), so legality checks mostly
meet the very object offered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from ludus.engine.action import Action
from ludus.engine.errors import IllegalActionError

SPECIES = "BGYR"


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Put a tile from the hand (or the ghost's tile) into a slot, fish as placed."""

    cetarium: int
    slot: int
    fish: str
    _text: str = field(init=False, repr=False, compare=False)  # the notation, made once

    def __post_init__(self) -> None:
        object.__setattr__(self, "_text", f"c{self.cetarium}.{self.slot} {self.fish}")

    def __hash__(self) -> int:  # the notation's (made of the compared fields), which the string keeps
        return hash(self._text)

    def __str__(self) -> str:
        return self._text


@cache
def place(cetarium: int, slot: int, fish: str) -> Place:
    """The one ``Place`` of these values: the game lists placements often, and an action it offers
    again is then the very object offered before (legality checks meet it at once)."""
    return Place(cetarium, slot, fish)


class _SlotPlaces(dict[str, Place]):
    """The ``Place`` of each fish layout in one slot, made on first use (``place``'s objects)."""

    def __init__(self, cetarium: int, slot: int) -> None:
        super().__init__()
        self.cetarium = cetarium
        self.slot = slot

    def __missing__(self, fish: str) -> Place:
        found = self[fish] = place(self.cetarium, self.slot, fish)
        return found


@cache
def places_at(cetarium: int, slot: int) -> dict[str, Place]:
    """Fish layout -> its ``Place`` in this slot: listing a slot's placements is then one look-up
    a layout (``map(places_at(c, s).__getitem__, layouts)``) instead of a call each."""
    return _SlotPlaces(cetarium, slot)


@cache
def cetarium_places(cetarium: int) -> tuple[dict[str, Place], ...]:
    """``places_at`` of the cetarium's four slots, in order (one look-up for all four)."""
    return tuple(places_at(cetarium, slot) for slot in range(1, 5))


@dataclass(frozen=True, slots=True)
class Worker(Action):
    """Put a vilicus (``kind="V"``) or the dominus (``"D"``) on an influence line.

    ``line`` is the line's id (``line_id``); ``name`` its notation (``h5``), given by the
    board's size, so it takes no part in equality."""

    kind: str
    line: int
    name: str = field(compare=False)
    _text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_text", f"{self.kind} {self.name}")

    @property
    def dominus(self) -> bool:
        return self.kind == "D"

    def __str__(self) -> str:
        return self._text


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Place no worker this turn."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """Emperor variant: the first player names the cetarium of the round."""

    cetarium: int

    def __str__(self) -> str:
        return f"choose c{self.cetarium}"


@cache
def choose(cetarium: int) -> Choose:
    """The one ``Choose`` of this cetarium (as ``place``)."""
    return Choose(cetarium)


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
        return place(int(m[1]), int(m[2]), m[3])
    if m := _WORKER.fullmatch(low):
        number = int(m[3])
        if not 1 <= number <= size:
            raise IllegalActionError(f"{text!r}: lines are numbered 1..{size}")
        kind = "V" if m[1].startswith("v") else "D"
        return Worker(kind, line_id(m[2], number, size), f"{m[2]}{number}")
    if m := _CHOOSE.fullmatch(low):
        return choose(int(m[1]))
    raise IllegalActionError(
        f"{text!r} is not Garum notation; expected e.g. 'c14.2 BBGY' (place), "
        "'V h5' or 'D v12' (worker), 'pass', or 'choose c14' (Emperor)"
    )
