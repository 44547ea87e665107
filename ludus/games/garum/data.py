"""Garum's components, read once from ``data/*.json`` (or a folder of one's own: ``DataFiles``) and
checked; geometry precomputed.

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
from typing import Any, NamedTuple, cast

from ludus.engine.data import DataFiles, fields_reduced, load_data, require
from ludus.engine.errors import DataFileError

DATA = Path(__file__).parent / "data"
PACKAGE = "ludus.games.garum:data"
BOARDS = ("troia", "baelo_claudia")
JOKER = 4  # bonus kind for a joker; species are 0..3
LETTERS = "BGYR"  # the species' letters, as the notation writes them


@dataclass(frozen=True)
class Species:
    letter: str
    colour: str
    name: str

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return fields_reduced(self)


@dataclass(frozen=True)
class Tiles:
    species: tuple[Species, ...]
    patterns: tuple[str, ...]  # X/a/b/c patterns of tiles 1..16
    vilicus: int
    dominus: int

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return fields_reduced(self)

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

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return fields_reduced(self)

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


def _read(files: DataFiles | None, name: str) -> tuple[Path, dict[str, Any]]:
    """A data file's path (for messages) and values: ``files``' (a folder's), else the package's."""
    if files is None:
        return DATA / name, load_data(DATA / name)
    return files.where(name), files.values(name)


def _count(path: Path, data: dict[str, Any], key: str, lo: int, hi: int) -> int:
    value = require(path, data, key, int)
    if not lo <= value <= hi:
        raise _fail(path, f"{key!r} must be from {lo} to {hi}, got {value}")
    return value


@cache
def load_tiles(files: DataFiles | None = None) -> Tiles:
    """The tiles (cached by ``files``, which hash by their values; None: the package's)."""
    path, data = _read(files, "tiles.json")
    try:
        species = tuple(
            Species(str(s["letter"]), str(s["colour"]), str(s["name"]))
            for s in require(path, data, "species", list)
        )
    except (KeyError, TypeError):
        raise _fail(path, "'species' must list objects with a letter, a colour and a name") from None
    if "".join(s.letter for s in species) != LETTERS:
        raise _fail(
            path, f"'species' must have the letters {', '.join(LETTERS)} in this order (the notation's)"
        )
    patterns = tuple(require(path, data, "patterns", list))
    if len(patterns) != 16:
        raise _fail(path, f"'patterns' must list 16 tiles, found {len(patterns)}")
    for i, pat in enumerate(patterns, 1):
        if not isinstance(pat, str) or len(pat) != 4 or set(pat) - set("Xabc"):
            raise _fail(path, f"'patterns': tile {i} pattern {pat!r} must be 4 letters of X, a, b, c")
    return Tiles(
        species, patterns, _count(path, data, "vilicus", 0, 64), _count(path, data, "dominus", 0, 64)
    )


def _tiles_used(path: Path, data: dict[str, Any], rounds: int) -> tuple[tuple[int, ...], int]:
    """The tiles a board takes out of each colour's 16, and the hand size."""
    removed = tuple(require(path, data, "removed_tiles", list))
    if any(not isinstance(t, int) or not 1 <= t <= 16 for t in removed) or len(set(removed)) != len(removed):
        raise _fail(
            path, f"'removed_tiles' must list distinct tile numbers from 1 to 16, got {list(removed)}"
        )
    if 16 - len(removed) < rounds:
        raise _fail(path, f"'removed_tiles' leaves {16 - len(removed)} tiles a colour for {rounds} rounds")
    return removed, _count(path, data, "hand_size", 1, 16 - len(removed))


def _chart(path: Path, data: dict[str, Any]) -> tuple[ChartRow, ...]:
    chart_rows = require(path, data, "chart", list)
    try:
        chart = tuple(ChartRow(int(r["specimens"]), int(r["vilicus"]), int(r["dominus"])) for r in chart_rows)
    except (KeyError, TypeError, ValueError):
        raise _fail(path, "'chart' rows need integer specimens, vilicus, dominus") from None
    if not chart or [r.specimens for r in chart] != list(
        range(chart[0].specimens, chart[0].specimens + len(chart))
    ):
        raise _fail(path, "'chart' rows must run over consecutive specimen counts")
    return chart


def _bonus_points(path: Path, data: dict[str, Any]) -> dict[str, int]:
    points = require(path, data, "bonus_points", dict)
    if sorted(points) != ["joker", "species"] or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in points.values()
    ):
        raise _fail(path, f"'bonus_points' must give integer 'species' and 'joker' points, got {points!r}")
    return points


def _bonus_cells(
    path: Path, data: dict[str, Any], position: dict[int, tuple[int, int]], letters: list[str], size: int
) -> dict[int, int]:
    """Fish cell index -> species 0..3 or JOKER, for each bonus space."""
    cells: dict[int, int] = {}
    for b in require(path, data, "bonuses", list):
        if not isinstance(b, dict):
            raise _fail(path, f"'bonuses': {b!r} must be an object with cetarium, row, col and kind")
        cet, row, col, kind = b.get("cetarium"), b.get("row"), b.get("col"), b.get("kind")
        if cet not in position or not all(type(v) is int and 0 <= v < 4 for v in (row, col)):
            raise _fail(path, f"'bonuses': bonus {b} must name a cetarium of the grid and a cell 0..3, 0..3")
        if kind != "*" and kind not in letters:
            raise _fail(path, f"'bonuses': bonus {b}: kind must be '*' or one of {letters}")
        gr, gc = position[cet]
        cells[(gr * 4 + cast(int, row)) * size + gc * 4 + cast(int, col)] = (
            JOKER if kind == "*" else letters.index(kind)
        )
    return cells


@cache
def load_board(name: str, files: DataFiles | None = None) -> Board:
    """A board (cached by name and ``files``, which hash by their values; None: the package's)."""
    path, data = _read(files, f"{name}.json")
    species_letters = [s.letter for s in load_tiles(files).species]
    grid = require(path, data, "grid", list)
    if len(grid) != 4 or any(not isinstance(row, list) or len(row) != 4 for row in grid):
        raise _fail(path, "'grid' must be 4 rows of 4 cetarium numbers")
    numbers = [n for row in grid for n in row if n]
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        raise _fail(path, "'grid' must number its cetaria 1..N once each (0 for no cetarium)")
    aureus = tuple(require(path, data, "aureus", list))
    if sorted(aureus, key=str) != sorted(numbers, key=str):
        raise _fail(path, "'aureus' must hold one coin per cetarium, numbered as in 'grid'")
    removed, hand_size = _tiles_used(path, data, len(numbers))
    chart = _chart(path, data)
    bonus_points = _bonus_points(path, data)
    size = 16
    position = {n: (r, c) for r, row in enumerate(grid) for c, n in enumerate(row) if n}
    bonus_cells = _bonus_cells(path, data, position, species_letters, size)
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
    if require(path, data, "name", str) != name:
        raise _fail(path, f"'name' must be {name!r}, the file's name")
    return Board(
        name=name,
        grid=tuple(tuple(r) for r in grid),
        size=size,
        hand_size=hand_size,
        aureus=aureus,
        removed_tiles=removed,
        chart=chart,
        species_bonus=bonus_points["species"],
        joker_bonus=bonus_points["joker"],
        bonus_cells=bonus_cells,
        position=position,
        slot_cells=slot_cells,
        lines=lines,
        line_cells=line_cells,
        area_of=area_of,
    )
