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
    values, points = board.line_values, board.points
    for line, worker in enumerate(workers):
        if worker is None:
            continue
        colour, kind = worker
        specimens = values[line](cells).count(colour)
        out.append([line, colour, kind, specimens, points(specimens, kind == "D")])
    return out


def projection(state: Any) -> dict[str, Any]:
    """What the score would be if the game ended now, from public facts only (fish and workers).

    The live score holds bonuses alone until the end, when the lines are added: that hid most of
    the points (6-5 at mid-game, 35-103 at the end). This recount uses ``score_lines``, the end
    scoring itself, on the board as it stands; ``open`` is how many empty cells each line still has
    and ``best`` what it would score were they all filled with its species.
    """
    from .actions import SPECIES
    from .state import EMPTY

    game = state.game
    board = game.board
    seating = game.seating
    lines = []
    per_colour = list(state.bonus)
    cells, values = state.cells, board.line_values
    for line, colour, kind, specimens, points in score_lines(board, cells, state.workers):
        open_cells = values[line](cells).count(EMPTY)
        lines.append(
            {
                "line": board.line_name(line),
                "colour": SPECIES[colour],
                "kind": kind,
                "specimens": specimens,
                "points": points,
                "open": open_cells,
                "best": board.points(specimens + open_cells, kind == "D"),
            }
        )
        per_colour[colour] += points
    colours = {
        SPECIES[c]: {"bonus": state.bonus[c], "lines": per_colour[c] - state.bonus[c], "total": per_colour[c]}
        for c in range(4)
        if seating.owner[c] is not None
    }
    seats = [sum(per_colour[c] for c in seating.colours_of(s)) for s in range(seating.players)]
    return {"lines": lines, "colours": colours, "seats": seats}
