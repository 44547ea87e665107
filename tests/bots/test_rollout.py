"""The rollout preset of ISMCTS: greedy playouts of the root's best few moves over re-dealt worlds,
the default in Garum and 2-player Celtae."""

from __future__ import annotations

import math
import random

import pytest

import ludus
from ludus import bots
from ludus.bots import rollout
from ludus.bots.greedy import GreedyBot, greedy_choice, one_ply_values
from ludus.bots.ismcts import ISMCTSBot

from .helpers import play_out, random_position


def test_the_default_preset_is_rollout_in_garum_and_2_player_celtae_and_learned_elsewhere() -> None:
    bot = ISMCTSBot()
    for name, players in (("garum", 2), ("garum", 3), ("garum", 4), ("celtae", 2)):
        assert bot.resolved(ludus.load_game(name, players=players)) == "rollout", (name, players)
    for players in (1, 3, 4):
        assert bot.resolved(ludus.load_game("celtae", players=players)) == "learned", players
    assert ISMCTSBot(preset="classic").resolved(ludus.load_game("garum", players=2)) == "classic"
    name, params = bots.parse_spec("ismcts:preset=rollout:horizon=4")
    made = bots.make(name, **params)
    assert (made.preset, made.horizon) == ("rollout", 4)


@pytest.mark.parametrize("bad", [{"horizon": -1}, {"iterations": 0}, {"preset": "flat"}])
def test_bad_rollout_parameters_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        ISMCTSBot(**bad)


@pytest.mark.parametrize(
    ("name", "players", "plan"),
    [("garum", 2, (16, 10)), ("garum", 3, (13, 10)), ("celtae", 2, (6, 20)), ("celtae", 3, (16, 10))],
)
def test_the_rollout_preset_plays_the_games_plan_unless_told_otherwise(
    name: str, players: int, plan: tuple
) -> None:
    """Worlds and horizon by game and player count (``ROLLOUT``): a Celtae turn is many small
    decisions, so its playouts look further; where a game plans none, 16 worlds of ten."""
    game = ludus.load_game(name, players=players)
    assert ISMCTSBot(preset="rollout").plan(game) == plan
    assert ISMCTSBot(preset="rollout", iterations=3).plan(game) == (3, plan[1])
    assert ISMCTSBot(preset="rollout", horizon=4).plan(game) == (plan[0], 4)


def test_each_preset_has_its_own_default_budget() -> None:
    state = random_position("garum", {"players": 2}, seed=1, steps=4)
    bot = ISMCTSBot(seed=0)
    bot.step(state)
    assert bot.last_iterations == 16  # worlds, each playing every candidate on
    tree = ISMCTSBot(seed=0, preset="classic")
    tree.step(state)
    assert tree.last_iterations == 300
    given = ISMCTSBot(seed=0, iterations=3)
    given.step(state)
    assert given.last_iterations == 3


def _rated_position(steps: int) -> tuple[ludus.State, list, list[float]]:
    """A 2-player Garum position after ``steps`` random moves, its legal moves and greedy's ratings of them."""
    state = random_position("garum", {"players": 2}, seed=steps, steps=steps)
    if state.is_terminal():
        pytest.skip("the game ended")
    legal = state.legal_actions()
    return state, legal, one_ply_values(state, legal, state.current_player())


@pytest.mark.parametrize("steps", [0, 21, 50, 80])
def test_the_rollout_search_plays_one_of_greedys_best_width_moves(steps: int) -> None:
    """Garum's heuristic reads only public facts, so greedy's ratings of the true state are those of every world."""
    state, legal, values = _rated_position(steps)
    for width in (1, 2, 3):
        choice = ISMCTSBot(seed=steps, iterations=4, preset="rollout", width=width, horizon=3).step(state)
        rank = sorted(values, reverse=True).index(values[legal.index(choice)])
        assert rank < width, (width, choice)


class _SeatView:
    """A state that answers only what its seat may ask: the game, the mover, the legal moves, a re-deal."""

    PUBLIC = ("game", "current_player", "legal_actions", "resample", "is_terminal")

    def __init__(self, state: ludus.State) -> None:
        self._state = state

    def __getattr__(self, name: str):
        if name not in self.PUBLIC:
            raise AssertionError(f"the search read {name!r} of the true state")
        return getattr(self._state, name)


@pytest.mark.parametrize(
    ("name", "options", "steps"),
    [
        ("garum", {"players": 2, "board": "baelo_claudia"}, 0),
        ("garum", {"players": 2, "board": "baelo_claudia"}, 30),
        ("garum", {"players": 2, "board": "baelo_claudia"}, 63),
        ("celtae", {"players": 2}, 25),
    ],
)
def test_the_rollout_search_uses_only_what_its_seat_sees(name: str, options: dict, steps: int) -> None:
    """It reads the true state only for its legal moves and re-deals of the seat's view; every world it
    plays on is a re-deal, so the others' hands and the piles' order never steer it."""
    state = random_position(name, options, seed=steps + 1, steps=steps)
    if state.is_terminal():
        pytest.skip("the game ended")
    choice = ISMCTSBot(seed=5, iterations=3, preset="rollout", horizon=6).step(_SeatView(state))
    assert choice == ISMCTSBot(seed=5, iterations=3, preset="rollout", horizon=6).step(state)
    with pytest.raises(AssertionError, match="clone"):  # peek reads the true state: the view refuses it
        ISMCTSBot(seed=5, iterations=3, preset="rollout", peek=True).step(_SeatView(state))


@pytest.mark.parametrize(("name", "players"), [("garum", 2), ("garum", 3), ("celtae", 2)])
def test_the_rollout_search_is_deterministic_and_plays_legal_games(name: str, players: int) -> None:
    game = ludus.load_game(name, players=players)
    seats = [ISMCTSBot(seed=1, iterations=2, preset="rollout", horizon=2)] + [
        bots.make("greedy", seed=s) for s in range(players - 1)
    ]
    first = play_out(game.new_initial_state(seed=7), seats)
    again = [ISMCTSBot(seed=1, iterations=2, preset="rollout", horizon=2)] + [
        bots.make("greedy", seed=s) for s in range(players - 1)
    ]
    second = play_out(game.new_initial_state(seed=7), again)
    assert first.is_terminal() and first.history() == second.history()


@pytest.mark.parametrize("steps", [3, 40, 77])
def test_a_playout_plays_greedys_moves(steps: int) -> None:
    state, legal, values = _rated_position(steps)
    move = greedy_choice(state, random.Random(0))
    assert values[legal.index(move)] == pytest.approx(max(values))
    chosen = GreedyBot(seed=0).step(state)
    assert values[legal.index(chosen)] == pytest.approx(max(values))


def test_a_playout_to_the_end_scores_the_result_and_margin() -> None:
    game = ludus.load_game("garum", players=2)
    state = game.new_initial_state(seed=3)
    seat = state.current_player()
    evaluate = lambda world, s: 0.0  # noqa: E731 - never called: the playout reaches the end
    value = rollout._playout(state.clone(), seat, random.Random(1), 10_000, evaluate, 8.0)
    final = state.clone()
    rng = random.Random(1)
    while not final.is_terminal():
        final.apply_action(greedy_choice(final, rng))
    scores = final.scores()
    assert value == pytest.approx(final.returns()[seat] + 0.001 * (scores[seat] - scores[1 - seat]))


def test_a_cut_playout_scores_the_heuristics_win_chance() -> None:
    state = random_position("garum", {"players": 2}, seed=2, steps=10)
    seat = state.current_player()
    value = rollout._playout(state.clone(), seat, random.Random(1), 0, lambda world, s: 8.0, 8.0)
    assert value == pytest.approx(1 / (1 + math.exp(-1.0)) + 0.008)


def test_against_the_clock_the_rollout_search_plays_at_least_one_world() -> None:
    state = random_position("garum", {"players": 2}, seed=6, steps=12)
    bot = ISMCTSBot(seed=0, seconds=1e-6, preset="rollout")
    assert bot.step(state) in state.legal_actions()
    assert bot.last_iterations == 1
