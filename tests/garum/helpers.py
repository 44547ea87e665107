"""Constructed Garum positions for rule and example tests."""

from __future__ import annotations

import random

import ludus
from ludus.games.garum.actions import SPECIES
from ludus.games.garum.state import GarumState

CONFIGS = [
    dict(players=p, board=b, variant=v)
    for p in (2, 3, 4)
    for b in ("troia", "baelo_claudia")
    for v in ("standard", "emperor", "haruspex")
]


def play_random(state: GarumState, seed: int = 0, upto: int | None = None) -> GarumState:
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal() and (upto is None or n < upto):
        state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    return state


def fill(state: GarumState, cetarium: int, species: str = "B") -> None:
    """Fill every slot of a cetarium with fish of one species (a constructed position)."""
    board = state.game.board
    for slot in range(1, 5):
        for cell in board.slot_cells[cetarium, slot]:
            state.cells[cell] = SPECIES.index(species)
        state.slots[cetarium][slot - 1] = SPECIES.index(species)
    state._legal = None


def start_round_on(state: GarumState, cetarium: int) -> None:
    """Make ``cetarium`` the current round's cetarium (its areas checked as at a round start)."""
    r = state.round
    i = state.aureus.index(cetarium)
    state.aureus[r], state.aureus[i] = state.aureus[i], state.aureus[r]  # keep the aureus order whole
    if state.revealed:
        state.revealed[-1] = cetarium
    state.phase = "place"
    state.turn = 0
    state._set_cetarium(cetarium)
    state._legal = None


def give_hand(state: GarumState, colour: int, tiles: list[int]) -> None:
    """Put exactly ``tiles`` in a colour's hand (taken from wherever they were)."""
    for t in tiles:
        if t in state.hands[colour]:
            state.hands[colour].remove(t)
        else:
            state.piles[colour].remove(t)
    state.piles[colour].extend(state.hands[colour])
    state.hands[colour] = list(tiles)
    state._legal = None


def new(seed: int = 1, **options) -> GarumState:
    return ludus.load_game("garum", **options).new_initial_state(seed=seed)
