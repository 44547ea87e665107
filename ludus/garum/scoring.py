"""End scoring: each worker's line by its board's chart (a pure recount from board and workers)."""

from __future__ import annotations

from typing import Any

from .data import Board


def score_lines(board: Board, cells: list[int], workers: list[Any]) -> list[list[Any]]:
    """``[line, colour, kind, specimens, points]`` for every worker on the board.

    A line counts every fish of the worker's colour's species on it, whoever placed it
    (rulings 2 and 16).
    """
    out = []
    for line, worker in enumerate(workers):
        if worker is None:
            continue
        colour, kind = worker
        specimens = sum(1 for cell in board.line_cells[line] if cells[cell] == colour)
        out.append([line, colour, kind, specimens, board.points(specimens, kind == "D")])
    return out
