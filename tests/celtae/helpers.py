"""Constructed Celtae positions for rule and example tests, and random play."""

from __future__ import annotations

import copy
import random

import ludus
from ludus.games.celtae import board as G
from ludus.games.celtae.actions import COLOUR_LETTERS, ICON_LETTERS
from ludus.games.celtae.core import START
from ludus.games.celtae.state import CeltaeState

CONFIGS = [
    dict(players=1, difficulty="easy"),
    dict(players=1, difficulty="normal"),
    dict(players=1, difficulty="hard", solo_adjacent=True),
    dict(players=2),
    dict(players=3),
    dict(players=4),
    dict(players=2, token_moves_marker=True),
    dict(players=4, token_moves_marker=True),
]
WORKERS = "FBSND"
ORANGE, PINK, PURPLE, TEAL = range(4)
WARRIOR, TRAP, FORTRESS = range(3)


def card(name: str) -> int:
    """Card kind from notation, e.g. 'Ow' = orange warrior."""
    return COLOUR_LETTERS.index(name[0].upper()) * 3 + ICON_LETTERS.index(name[1].lower())


def cards(text: str) -> list[int]:
    """Hand counts from 'Ow Ow Tf'."""
    counts = [0] * 12
    for name in text.split():
        counts[card(name)] += 1
    return counts


def workers(text: str, size: int = 4) -> list[int]:
    """Worker counts from 'F F N' (size 4 for an active pool, 5 for a tribe)."""
    counts = [0] * size
    for w in text.split():
        counts[WORKERS.index(w)] += 1
    return counts


def row(text: str) -> list[int]:
    """Three area slots from 'F B .'."""
    return [-1 if w == "." else WORKERS.index(w) for w in text.split()]


def started(players: int = 2, seed: int = 0, **options) -> CeltaeState:
    """A new game with the set-up decisions taken (first leader offered, first cards discarded)."""
    state = ludus.load_game("celtae", players=players, **options).new_initial_state(seed=seed)
    while state.phase != START:
        state.apply_action(state.legal_actions()[0])
    return state


def put(state: CeltaeState, **fields) -> CeltaeState:
    """Set fields of a state (copied), for a constructed position; returns the state."""
    for name, value in fields.items():
        if not hasattr(state, name):
            raise AttributeError(f"CeltaeState has no field {name!r}")
        setattr(state, name, copy.deepcopy(value))
    state._legal = None
    return state


def set_hand(state: CeltaeState, seat: int, text: str) -> None:
    state.hands[seat] = cards(text)
    state.known[seat] = [0] * 12
    state._legal = None


def roman_tile(state: CeltaeState, strength: int) -> int:
    return next(i for i, t in enumerate(state.data.roman_tiles) if t.strength == strength)


def druid_tile(state: CeltaeState, needs: str) -> int:
    want = workers(needs)
    return next(i for i, t in enumerate(state.data.druid_tiles) if list(t.needs) == want and not t.wild)


def progress_card(state: CeltaeState, kind: str, arg: int = -1, slots: int | None = None) -> int:
    return next(
        i
        for i, c in enumerate(state.data.progress_cards)
        if c[0] == kind and c[1] == arg and (slots is None or c[3] == slots)
    )


def legal(state: CeltaeState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def play(state: CeltaeState, *moves: str) -> CeltaeState:
    for m in moves:
        state.apply_action(m)
    return state


def play_random(state: CeltaeState, seed: int = 0, upto: int | None = None, check=None) -> CeltaeState:
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal() and (upto is None or n < upto):
        state.apply_action(rng.choice(state.legal_actions()))
        n += 1
        if check is not None:
            check(state)
        assert n < 5000, "a random game did not end"
    return state


CORNERS = {"NE": G.NE, "SE": G.SE, "SW": G.SW, "NW": G.NW}
