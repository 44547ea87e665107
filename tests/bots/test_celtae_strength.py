"""The Celtae heuristic sees only the seat's information, and the greedy bot it drives plays well."""

from __future__ import annotations

import random

import pytest

import ludus
from ludus import bots
from ludus.games.celtae import heuristic as h

from .helpers import play_out


def _positions(players: int, seed: int, every: int = 7):
    """Positions along a random game (one in ``every``), at every kind of decision."""
    state = ludus.load_game("celtae", players=players).new_initial_state(seed=seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            yield state
        state.apply_action(rng.choice(state.legal_actions()))
        step += 1
    yield state


@pytest.mark.parametrize("players", [1, 2, 3])
def test_heuristic_value_is_unchanged_when_hidden_parts_are_redealt(players: int) -> None:
    rng = random.Random(players)
    mid_turn = 0
    for state in _positions(players, seed=players):
        for seat in range(players):
            value = h.evaluate(state, seat)
            for _ in range(2):
                assert h.evaluate(state.resample(seat, rng), seat) == pytest.approx(value, abs=1e-9)
        mid_turn += state.phase > 2 and not state.is_terminal()
    assert mid_turn  # positions where the seat's turn is finished by the look-ahead were checked


def _rival_hidden(state) -> list[int]:
    """How many cards of each kind the rival of the seat to move holds unseen by that seat."""
    other = 1 - state.current_player()
    return [state.hands[other][k] - state.known[other][k] for k in range(12)]


def test_hidden_cards_of_a_rival_do_not_move_the_value() -> None:
    # the first position from step 40 on where the rival holds a card the seat to move has not seen
    state = next(
        s
        for i, s in enumerate(_positions(2, seed=9, every=1))
        if i >= 40 and not s.is_terminal() and any(_rival_hidden(s))
    )
    seat = state.current_player()
    other = 1 - seat
    world = state.clone()
    # move one of the rival's hidden cards to another colour: a change the seat cannot see
    k = next(k for k, n in enumerate(_rival_hidden(state)) if n)
    world.hands[other][k] -= 1
    world.hands[other][(k + 3) % 12] += 1
    assert world.hands[other] != state.hands[other]
    assert h.evaluate(world, seat) == pytest.approx(h.evaluate(state, seat), abs=1e-9)
    world.hands[seat][0] += 3  # own cards are seen, and count
    assert h.evaluate(world, seat) > h.evaluate(state, seat)


def test_evaluate_and_evaluate_all_leave_the_state_as_it_was() -> None:
    for state in _positions(2, seed=4, every=11):
        before = state.to_json()
        h.evaluate(state, 0)
        values = h.evaluate_all(state)
        assert state.to_json() == before
        assert values[0] == pytest.approx(-values[1])  # one position: each seat's margin over the other


def test_evaluate_all_values_every_seat_from_one_finished_turn() -> None:
    for state in _positions(3, seed=6, every=13):
        values = h.evaluate_all(state)
        first, second = sorted(values, reverse=True)[:2]
        assert first == pytest.approx(-second)  # the leader's margin is the runner-up's deficit
        if state.is_terminal():
            scores = state.scores()
            assert values == [scores[s] - max(scores[o] for o in range(3) if o != s) for s in range(3)]


def test_points_scored_raise_the_value() -> None:
    state = ludus.load_game("celtae", players=2).new_initial_state(seed=2)
    while state.phase != 2:  # play the leader and set-up discards
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    better = state.clone()
    better.roman_won[seat].append(better.roman[0].pop())  # a Roman Army tile won
    assert h.evaluate(better, seat) > h.evaluate(state, seat)
    assert h.evaluate(better, 1 - seat) < h.evaluate(state, 1 - seat)


def test_solo_value_is_measured_from_the_target() -> None:
    for difficulty, target in (("easy", 25), ("hard", 35)):
        state = ludus.load_game("celtae", players=1, difficulty=difficulty).new_initial_state(seed=3)
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        assert h.evaluate(state, 0) == state.scores()[0] - target


def test_greedy_beats_random_in_two_player_celtae() -> None:
    # measured over 200 games (ludus simulate celtae --players 2 --bots greedy,random): greedy won all 200
    game = ludus.load_game("celtae", players=2)
    wins = 0.0
    for seed in range(6):
        seats = [bots.make("greedy", seed=seed), bots.make("random", seed=seed)]
        if seed % 2:
            seats.reverse()
        state = play_out(game.new_initial_state(seed=100 + seed), seats)
        wins += state.returns()[seed % 2]
    assert wins >= 5


def test_greedy_outscores_random_in_the_solo_game() -> None:
    game = ludus.load_game("celtae", players=1, difficulty="easy")
    for seed in (1, 2):
        greedy = play_out(game.new_initial_state(seed=seed), [bots.make("greedy", seed=seed)])
        rand = play_out(game.new_initial_state(seed=seed), [bots.make("random", seed=seed)])
        assert greedy.scores()[0] > rand.scores()[0] + 5
