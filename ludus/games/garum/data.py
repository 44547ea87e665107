"""Garum's components, read once from ``data/*.json`` and checked; geometry precomputed.

The board is a square of fish cells. A cetarium is 4x4 fish (2x2 tiles of 2x2 fish);
influence lines are fish rows (``h1``..) and fish columns (``v1``..); an influence area is
a row (or column) of cetaria and holds 4 lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from operator import itemgetter
from pathlib import Path
from typing import NamedTuple

from ludus.engine.data import load_data, require
from ludus.engine.errors import DataFileError

DATA = Path(__file__).parent / "data"
BOARDS = ("troia", "baelo_claudia")
JOKER = 4  # bonus kind for a joker; species are 0..3


@dataclass(frozen=True)
class Species:
    letter: str
    colour: str
    name: str


@dataclass(frozen=True)
class Tiles:
    species: tuple[Species, ...]
    patterns: tuple[str, ...]  # X/a/b/c patterns of tiles 1..16
    vilicus: int
    dominus: int

    def tile_fish(self, colour: int, tile: int) -> tuple[int, int, int, int]:
        """The species of the four fish of tile ``tile`` (1-based) of ``colour``."""
        others = [s for s in range(len(self.species)) if s != colour]
        code = {"X": colour, "a": others[0], "b": others[1], "c": others[2]}
        return tuple(code[ch] for ch in self.patterns[tile - 1])  # type: ignore[return-value]


class ChartRow(NamedTuple):
    """A row of a board's scoring chart: a line of ``specimens`` fish scores ``vilicus`` points to a
    vilicus, ``dominus`` to a dominus."""

    specimens: int
    vilicus: int
    dominus: int


@dataclass(frozen=True)
class Board:
    name: str
    grid: tuple[tuple[int, ...], ...]  # cetarium numbers, 0 = none
    size: int  # fish per side
    hand_size: int
    aureus: tuple[int, ...]
    removed_tiles: tuple[int, ...]
    chart: tuple[ChartRow, ...]
    species_bonus: int
    joker_bonus: int
    bonus_cells: dict[int, int]  # fish cell index -> species 0..3 or JOKER
    position: dict[int, tuple[int, int]]  # cetarium -> (grid row, grid col)
    slot_cells: dict[tuple[int, int], tuple[int, int, int, int]]  # (cetarium, slot) -> cells
    lines: dict[int, tuple[int, ...]]  # cetarium -> its 8 line ids (0..size-1 rows, size.. cols)
    line_cells: tuple[tuple[int, ...], ...]  # line id -> fish cells of real cetaria
    area_of: dict[tuple[int, str], tuple[int, ...]]  # (cetarium, "h"|"v") -> cetaria of that area

    @property
    def cetaria(self) -> tuple[int, ...]:
        return tuple(sorted(self.position))

    @property
    def rounds(self) -> int:
        return len(self.position)

    def points(self, specimens: int, dominus: bool) -> int:
        """What a worker's line scores by the board's chart."""
        if 0 <= specimens <= self.size:
            return self._points[specimens][dominus]
        return self._chart_points(specimens, dominus)

    def _chart_points(self, specimens: int, dominus: bool) -> int:
        row = self.chart[0]
        for entry in self.chart:
            if specimens >= entry.specimens:
                row = entry
        return row.dominus if dominus else row.vilicus

    @cached_property
    def _points(self) -> tuple[tuple[int, int], ...]:
        """The chart read once for every count a line can hold: [specimens][dominus]."""
        return tuple(
            (self._chart_points(n, False), self._chart_points(n, True)) for n in range(self.size + 1)
        )

    def line_name(self, line: int) -> str:
        if 0 <= line < 2 * self.size:
            return self._line_names[line]
        return _line_name(line, self.size)

    @cached_property
    def _line_names(self) -> tuple[str, ...]:
        return tuple(_line_name(line, self.size) for line in range(2 * self.size))

    @cached_property
    def line_values(self) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]:
        """Each line's fish cells read from a board's cell list in one call: scoring reads every
        worker's line for every view of a game."""
        return tuple(_cells_reader(cells) for cells in self.line_cells)


def _line_name(line: int, size: int) -> str:
    """Rows h1.., then columns v1.."""
    return f"h{line + 1}" if line < size else f"v{line - size + 1}"


def _cells_reader(cells: tuple[int, ...]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    if len(cells) > 1:
        return itemgetter(*cells)  # type: ignore[return-value]  # a tuple for two or more cells
    return lambda values: tuple(values[cell] for cell in cells)


def _fail(path: Path, why: str) -> DataFileError:
    return DataFileError(f"{path}: {why}")


@cache
def load_tiles() -> Tiles:
    path = DATA / "tiles.json"
    data = load_data(path)
    species = tuple(
        Species(s["letter"], s["colour"], s["name"]) for s in require(path, data, "species", list)
    )
    if len(species) != 4 or len({s.letter for s in species}) != 4:
        raise _fail(path, "'species' must list 4 species with distinct letters")
    patterns = tuple(require(path, data, "patterns", list))
    if len(patterns) != 16:
        raise _fail(path, f"'patterns' must list 16 tiles, found {len(patterns)}")
    for i, pat in enumerate(patterns, 1):
        if not isinstance(pat, str) or len(pat) != 4 or set(pat) - set("Xabc"):
            raise _fail(path, f"tile {i} pattern {pat!r} must be 4 letters of X, a, b, c")
    return Tiles(species, patterns, require(path, data, "vilicus", int), require(path, data, "dominus", int))


@cache
def load_board(name: str) -> Board:
    path = DATA / f"{name}.json"
    data = load_data(path)
    species_letters = [s.letter for s in load_tiles().species]
    grid = require(path, data, "grid", list)
    if len(grid) != 4 or any(not isinstance(row, list) or len(row) != 4 for row in grid):
        raise _fail(path, "'grid' must be 4 rows of 4 cetarium numbers")
    numbers = [n for row in grid for n in row if n]
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        raise _fail(path, "'grid' must number its cetaria 1..N once each (0 for no cetarium)")
    aureus = tuple(require(path, data, "aureus", list))
    if sorted(aureus) != sorted(numbers):
        raise _fail(path, "'aureus' must hold one coin per cetarium")
    chart_rows = require(path, data, "chart", list)
    try:
        chart = tuple(ChartRow(int(r["specimens"]), int(r["vilicus"]), int(r["dominus"])) for r in chart_rows)
    except (KeyError, TypeError, ValueError):
        raise _fail(path, "'chart' rows need integer specimens, vilicus, dominus") from None
    if not chart or [r.specimens for r in chart] != list(
        range(chart[0].specimens, chart[0].specimens + len(chart))
    ):
        raise _fail(path, "'chart' rows must run over consecutive specimen counts")
    bonus_points = require(path, data, "bonus_points", dict)
    size = 16
    position = {n: (r, c) for r, row in enumerate(grid) for c, n in enumerate(row) if n}
    bonus_cells: dict[int, int] = {}
    for b in require(path, data, "bonuses", list):
        cet, row, col, kind = b.get("cetarium"), b.get("row"), b.get("col"), b.get("kind")
        if cet not in position or not (0 <= row < 4 and 0 <= col < 4):
            raise _fail(path, f"bonus {b} must name a cetarium of the grid and a cell 0..3, 0..3")
        if kind != "*" and kind not in species_letters:
            raise _fail(path, f"bonus {b}: kind must be '*' or one of {species_letters}")
        gr, gc = position[cet]
        bonus_cells[(gr * 4 + row) * size + gc * 4 + col] = (
            JOKER if kind == "*" else species_letters.index(kind)
        )
    slot_cells = {}
    lines = {}
    for cet, (gr, gc) in position.items():
        for slot in range(1, 5):
            r0, c0 = gr * 4 + 2 * ((slot - 1) // 2), gc * 4 + 2 * ((slot - 1) % 2)
            slot_cells[cet, slot] = (
                r0 * size + c0,
                r0 * size + c0 + 1,
                (r0 + 1) * size + c0,
                (r0 + 1) * size + c0 + 1,
            )
        lines[cet] = tuple(range(gr * 4, gr * 4 + 4)) + tuple(size + c for c in range(gc * 4, gc * 4 + 4))
    real = {cell for cells in slot_cells.values() for cell in cells}
    line_cells = tuple(
        tuple(
            cell
            for cell in ((line * size + i) if line < size else (i * size + line - size) for i in range(size))
            if cell in real
        )
        for line in range(2 * size)
    )
    area_of = {}
    for cet, (gr, gc) in position.items():
        area_of[cet, "h"] = tuple(n for n in grid[gr] if n)
        area_of[cet, "v"] = tuple(grid[r][gc] for r in range(4) if grid[r][gc])
    return Board(
        name=require(path, data, "name", str),
        grid=tuple(tuple(r) for r in grid),
        size=size,
        hand_size=require(path, data, "hand_size", int),
        aureus=aureus,
        removed_tiles=tuple(require(path, data, "removed_tiles", list)),
        chart=chart,
        species_bonus=int(bonus_points["species"]),
        joker_bonus=int(bonus_points["joker"]),
        bonus_cells=bonus_cells,
        position=position,
        slot_cells=slot_cells,
        lines=lines,
        line_cells=line_cells,
        area_of=area_of,
    )
