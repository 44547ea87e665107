"""What a seat sees of a Garum position: ``GarumState.observation``, made as JSON-ready lists and
dicts. The parts that never change in a game (colours, line names, bonus cells) are worked out
once for each game; the cells are turned into letters by one byte table.
"""

from __future__ import annotations

import struct
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from .actions import SPECIES
from .data import JOKER

if TYPE_CHECKING:
    from .game import GarumGame
    from .state import GarumState

_CELL_CHARS = SPECIES + " ."  # [v] for v in 0..3 a species, [-1] EMPTY ".", [-2] HOLE " "
_SLOT_TEXT: tuple[str | None, ...] = (*SPECIES, None)  # [v] for v in 0..3 a species, [-1] EMPTY None
# a cell's value as a signed byte (255 is -1) -> its letter in _CELL_CHARS ("?" for no cell value)
_CELL_BYTES = bytes(ord(_CELL_CHARS[v]) if -2 <= v <= 3 else ord("?") for v in (*range(128), *range(-128, 0)))


def observation(state: GarumState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` sees of ``state`` (``None``: a spectator): ``GarumState.observation``."""
    game = state.game
    board = game.board
    seating = game.seating
    size = board.size
    fixed = _observed_fixed(game)
    # the cells as signed bytes, each turned into its letter by one table (EMPTY -1, HOLE -2 included)
    text = _cell_bytes(len(state.cells)).pack(*state.cells).translate(_CELL_BYTES).decode()
    fish = [text[r : r + size] for r in range(0, size * size, size)]
    mine = () if seat is None else seating.colours_of(seat)
    pools, hands, piles, bonus = state.pool, state.hands, state.piles, state.bonus
    colours = [
        {
            "colour": letter,
            "name": name,
            "species": species,
            "player": player,
            "ghost": ghost,
            "vilicus": pools[pool][0],
            "dominus": pools[pool][1],
            "shares_workers_with": partner,
            "hand": [game.fish_text(c, t) for t in hands[c]] if c in mine else None,
            "hand_size": len(hands[c]),
            "pile": len(piles[c]),
            "bonus": bonus[c],
        }
        for c, letter, name, species, player, ghost, pool, partner in fixed.colours
    ]
    line_names, keys, slot = fixed.line_names, fixed.slot_keys, _SLOT_TEXT  # slot: a slot's letter
    current = state.current_colour()
    variant = game.config["variant"]
    return {
        "game": "garum",
        "config": dict(game.config),
        "seat": seat,
        "board": board.name,
        "size": size,
        "grid": [list(row) for row in board.grid],
        "fish": fish,
        "slots": {keys[c]: [slot[w], slot[x], slot[y], slot[z]] for c, (w, x, y, z) in state.slots.items()},
        "bonuses": [{"cell": [r, c], "kind": kind} for (r, c), kind in _bonus_cells(game)],
        "workers": [
            {"line": line_names[line], "colour": SPECIES[w[0]], "kind": w[1]}
            for line, w in enumerate(state.workers)
            if w is not None
        ],
        "colours": colours,
        "scores": state.scores(),
        "round": min(state.round + 1, board.rounds),
        "rounds": board.rounds,
        "cetarium": state.cetarium or None,
        "closed": {"h": state.closed[0], "v": state.closed[1]} if state.cetarium else None,
        "aureus": {
            "revealed": list(state.revealed),
            "remaining": board.rounds - len(state.revealed),
            "order": list(state.aureus) if variant == "haruspex" else None,
        },
        "amphora": seating.owner[seating.turn_colours[state.amphora]],
        "phase": state.phase,
        "current_player": state.current_player(),
        "current_colour": None if current is None else SPECIES[current],
        "ghost_tile": game.fish_text(state._ghost(), state.ghost_tile) if state.ghost_tile else None,
        "placed": [
            {"colour": SPECIES[c], "cetarium": cet, "slot": slot, "fish": f}
            for c, _t, cet, slot, f in state.placed
        ],
        "lines": [
            {"line": line_names[line], "colour": SPECIES[c], "kind": k, "specimens": n, "points": p}
            for line, c, k, n, p in state.final
        ],
        "winners": state.winners(),
    }


@lru_cache(maxsize=256)
def _bonus_cells(game: GarumGame) -> tuple[tuple[tuple[int, int], str], ...]:
    """Each bonus cell of the game's board as (row, column) with its species letter (``*`` a joker), as
    observed; listed once for each game."""
    board = game.board
    size = board.size
    return tuple(
        ((cell // size, cell % size), "*" if kind == JOKER else SPECIES[kind])
        for cell, kind in board.bonus_cells.items()
    )


class _ObservedFixed(NamedTuple):
    """The parts of an observation that never change in a game, worked out once for each game."""

    # each colour: (colour, letter, colour name, species name, seat, ghost, its worker pool, the colour
    # whose workers it shares (ruling 15 option: one set for a player's two colours, said once))
    colours: tuple[tuple[int, str, str, str, int | None, bool, int, str | None], ...]
    line_names: tuple[str, ...]  # each line's name (h1.., v1..)
    slot_keys: dict[int, str]  # each cetarium's key in "slots"


@lru_cache(maxsize=256)
def _observed_fixed(game: GarumGame) -> _ObservedFixed:
    seating = game.seating
    species = game.tiles.species
    shared = game.config["two_player_workers"] == "shared"
    colours = []
    for c, sp in enumerate(species):
        owner = seating.owner[c] if shared else None
        partner = (
            None
            if owner is None
            else next((species[o].colour for o in seating.colours_of(owner) if o != c), None)
        )
        colours.append(
            (
                c,
                sp.letter,
                sp.colour,
                sp.name,
                seating.owner[c],
                c == seating.ghost,
                game.pool_owner(c),
                partner,
            )
        )
    board = game.board
    return _ObservedFixed(
        tuple(colours),
        tuple(board.line_name(line) for line in range(2 * board.size)),
        {cetarium: str(cetarium) for cetarium in board.cetaria},
    )


@lru_cache(maxsize=16)
def _cell_bytes(cells: int) -> struct.Struct:
    """Packs a board's cells as signed bytes (faster than an array made from the list)."""
    return struct.Struct(f"{cells}b")
