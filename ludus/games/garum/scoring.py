"""End scoring: each worker's line by its board's chart (a pure recount from board and workers)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .actions import SPECIES
from .data import Board


def _worker_lines(
    board: Board, cells: list[int], workers: list[Any]
) -> Iterator[tuple[int, int, str, tuple[int, ...]]]:
    """Each worker on the board: its line, colour, kind and the line's cells as they stand."""
    values = board.line_values
    for line, worker in enumerate(workers):
        if worker is not None:
            yield line, worker[0], worker[1], values[line](cells)


def score_lines(board: Board, cells: list[int], workers: list[Any]) -> list[list[Any]]:
    """``[line, colour, kind, specimens, points]`` for every worker on the board.

    A line counts every fish of the worker's colour's species on it, whoever placed it
    (rulings 2 and 16).
    """
    points = board.points
    out = []
    for line, colour, kind, fish in _worker_lines(board, cells, workers):
        specimens = fish.count(colour)
        out.append([line, colour, kind, specimens, points(specimens, kind == "D")])
    return out


def projection(state: Any) -> dict[str, Any]:
    """What the score would be if the game ended now, from public facts only (fish and workers).

    The live score holds bonuses alone until the end, when the lines are added: that hid most of
    the points (6-5 at mid-game, 35-103 at the end). This recount reads the lines as the end
    scoring does (``score_lines``), on the board as it stands; ``open`` is how many empty cells
    each line still has and ``best`` what it would score were they all filled with its species.
    """
    from .state import EMPTY

    game = state.game
    board = game.board
    seating = game.seating
    points, line_name = board.points, board.line_name
    lines = []
    per_colour = list(state.bonus)
    for line, colour, kind, fish in _worker_lines(board, state.cells, state.workers):
        specimens, open_cells, dominus = fish.count(colour), fish.count(EMPTY), kind == "D"
        scored = points(specimens, dominus)
        lines.append(
            {
                "line": line_name(line),
                "colour": SPECIES[colour],
                "kind": kind,
                "specimens": specimens,
                "points": scored,
                "open": open_cells,
                "best": points(specimens + open_cells, dominus),
            }
        )
        per_colour[colour] += scored
    colours = {
        SPECIES[c]: {"bonus": state.bonus[c], "lines": per_colour[c] - state.bonus[c], "total": per_colour[c]}
        for c in range(4)
        if seating.owner[c] is not None
    }
    seats = [sum(per_colour[c] for c in seating.colours_of(s)) for s in range(seating.players)]
    return {"lines": lines, "colours": colours, "seats": seats}
