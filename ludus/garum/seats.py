"""Who plays which colour: seats, colour seats in turn order, and the ghost.

Four players: one colour each. Three players: colours 0-2 play, colour 3 is the ghost,
placed by the amphora holder after everyone's turn. Two players: four colour seats
A1, B1, A2, B2 in clockwise order, player A owning colours 0 and 2 (rulings 14, 15).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Seating:
    players: int
    turn_colours: tuple[int, ...]  # colours that take turns, clockwise
    owner: tuple[int | None, ...]  # colour -> seat (None: the ghost)
    ghost: int | None

    def colours_of(self, seat: int) -> tuple[int, ...]:
        return tuple(c for c, s in enumerate(self.owner) if s == seat)


def seating(players: int) -> Seating:
    if players == 4:
        return Seating(4, (0, 1, 2, 3), (0, 1, 2, 3), None)
    if players == 3:
        return Seating(3, (0, 1, 2), (0, 1, 2, None), 3)
    if players == 2:
        return Seating(2, (0, 1, 2, 3), (0, 1, 0, 1), None)
    raise ValueError(f"Garum is for 2 to 4 players, not {players}")
