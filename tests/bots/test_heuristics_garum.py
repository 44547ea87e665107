"""The Garum heuristic: exact at the end, blind to hidden information, fond of own fish on own lines."""

from __future__ import annotations

import random

import pytest

import ludus
from ludus import bots
from ludus.games.garum import heuristic as h
from ludus.games.garum.actions import Place

from .helpers import GARUM_CONFIGS, config_id, play_out, random_position


@pytest.mark.parametrize("config", GARUM_CONFIGS[::4], ids=config_id)
def test_evaluation_at_the_end_is_the_score_difference_to_the_best_rival(config: dict) -> None:
    game = ludus.load_game("garum", **config)
    state = play_out(
        game.new_initial_state(seed=4), [bots.make("random", seed=s) for s in range(game.num_players)]
    )
    scores = state.scores()
    for seat in range(game.num_players):
        best_rival = max(x for s, x in enumerate(scores) if s != seat)
        assert h.evaluate(state, seat) == pytest.approx(scores[seat] - best_rival)
        assert h.evaluate_all(state)[seat] == pytest.approx(h.evaluate(state, seat))


@pytest.mark.parametrize("steps", [5, 30, 60])
def test_evaluation_ignores_what_the_seat_cannot_see(steps: int) -> None:
    state = random_position("garum", {"players": 3}, seed=steps, steps=steps)
    for seat in range(3):
        value = h.evaluate(state, seat)
        for k in range(3):
            assert h.evaluate(state.resample(seat, random.Random(k)), seat) == pytest.approx(value)


def test_own_fish_on_a_line_held_by_own_dominus_raise_its_value() -> None:
    """The same position with the dominus line's new fish turned to another species is worth less."""
    state = ludus.load_game("garum", players=4).new_initial_state(seed=3)
    seat = state.current_player()
    own = "BGYR".index("BGYR"[seat])
    place = max(
        (a for a in state.legal_actions() if isinstance(a, Place)), key=lambda a: a.fish.count("BGYR"[own])
    )
    state.apply_action(place)
    dominus = next(a for a in state.legal_actions() if str(a).startswith("D "))
    state.apply_action(dominus)
    board = state.game.board
    on_line = [c for c in board.line_cells[dominus.line] if state.cells[c] == own]
    assert on_line, "the dominus line crosses the placed tile"
    before = h.evaluate(state, seat)
    other = state.clone()
    for cell in on_line:
        other.cells[cell] = (own + 1) % 4
    assert h.evaluate(other, seat) < before
