"""The shape of Garum's observation (``GarumState.observation(seat)``), as TypedDicts.

The observation is public API that outside tools read; these types say what each key
holds, so that its consumers (``ludus.games.garum.render`` first) are checked against it by mypy,
and tests/garum/test_observation_types.py checks real observations against them.
``observation(None)`` has the same keys: what a seat may not see is ``None`` there (``hand``).
"""

from __future__ import annotations

from typing import Any, TypeAlias, TypedDict


class BonusSpace(TypedDict):
    cell: list[int]  # [row, column]
    kind: str  # a species letter, or "*" for a joker space


class WorkerOnLine(TypedDict):
    line: str  # "h3", "v7"
    colour: str  # species letter
    kind: str  # "V" vilicus, "D" dominus


class ColourView(TypedDict):
    colour: str  # species letter: B G Y R
    name: str  # blue, green, yellow, red
    species: str  # tuna, mackerel, mollusc, shellfish
    player: int | None  # seat playing this colour; None for the ghost
    ghost: bool
    vilicus: int  # in the colour's pool
    dominus: int
    shares_workers_with: str | None  # the colour whose worker set this one shares (two-player option)
    hand: list[str] | None  # fish of each tile in hand; None unless the seat plays this colour
    hand_size: int
    pile: int
    bonus: int  # bonus points scored so far


class Closed(TypedDict):
    h: bool  # no worker may go on the current cetarium's rows
    v: bool  # ... nor on its columns


class Aureus(TypedDict):
    revealed: list[int]
    remaining: int
    order: list[int] | None  # the whole order, known from the start in the haruspex variant


class Placement(TypedDict):
    colour: str
    cetarium: int
    slot: int  # 1 2 / 3 4
    fish: str  # the tile's four fish, reading order


class LineScore(TypedDict):
    line: str
    colour: str
    kind: str
    specimens: int
    points: int


class GarumObservation(TypedDict):
    game: str  # "garum"
    config: dict[str, Any]
    seat: int | None
    board: str
    size: int  # fish cells per side
    grid: list[list[int]]  # cetarium numbers, 0 for a hole
    fish: list[str]  # a row of letters per row of cells: species, "." empty, " " hole
    slots: dict[str, list[str | None]]  # cetarium -> the colour that filled each slot
    bonuses: list[BonusSpace]
    workers: list[WorkerOnLine]
    colours: list[ColourView]
    scores: list[int]
    round: int
    rounds: int
    cetarium: int | None  # this round's cetarium
    closed: Closed | None
    aureus: Aureus
    amphora: int | None
    phase: str  # "choose", "place", "worker", "ghost", "over"
    current_player: int
    current_colour: str | None
    ghost_tile: str | None
    placed: list[Placement]  # every placement so far, in order
    lines: list[LineScore]  # the final scoring, once the game is over
    winners: list[int]


# What the renderers accept: the engine's observation, or a dict of the same shape (decoded JSON, a test's own).
GarumObservationLike: TypeAlias = GarumObservation | dict[str, Any]
