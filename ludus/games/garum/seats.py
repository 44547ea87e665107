"""Who plays which colour: seats, colour seats in turn order, and the ghost.

Each player chooses a colour (set-up); by default seat i plays colour i. ``order`` lists
the colours of the colour seats in clockwise order. Four players: one colour each. Three
players: three colours play, the one nobody chose is the ghost, placed by the amphora
holder after everyone's turn (ruling 14). Two players: four colour seats A1, B1, A2, B2
in clockwise order, player A owning the first and third (ruling 15).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class Seating:
    players: int
    turn_colours: tuple[int, ...]  # colours that take turns, clockwise
    owner: tuple[int | None, ...]  # colour -> seat (None: the ghost)
    ghost: int | None

    def colours_of(self, seat: int) -> tuple[int, ...]:
        if 0 <= seat < self.players:
            return self._colours[seat]  # asked for every seat of every score and view: made once
        return tuple(c for c, s in enumerate(self.owner) if s == seat)

    @cached_property
    def _colours(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(c for c, s in enumerate(self.owner) if s == seat) for seat in range(self.players))


def colour_seats(players: int) -> int:
    """How many colour seats take turns: one a player, four with two players."""
    return 4 if players == 2 else players


def seating(players: int, order: tuple[int, ...] | None = None) -> Seating:
    if players not in (2, 3, 4):
        raise ValueError(f"Garum is for 2 to 4 players, not {players}")
    order = tuple(range(colour_seats(players))) if order is None else tuple(order)
    if len(order) != colour_seats(players) or len(set(order)) != len(order) or not set(order) <= {0, 1, 2, 3}:
        raise ValueError(f"{players} players need {colour_seats(players)} different colours, got {order}")
    owner: list[int | None] = [None] * 4
    for i, colour in enumerate(order):
        owner[colour] = i % players
    ghost = next(c for c in range(4) if owner[c] is None) if players == 3 else None
    return Seating(players, order, tuple(owner), ghost)
