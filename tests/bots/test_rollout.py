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
from ludus.bots.learned import load, win_chance
from ludus.bots.rollout import Plan

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


@pytest.mark.parametrize("bad", [{"horizon": -1}, {"iterations": 0}, {"preset": "flat"}, {"leaf": "net"}])
def test_bad_rollout_parameters_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        ISMCTSBot(**bad)


@pytest.mark.parametrize(
    ("name", "players", "plan"),
    [
        ("garum", 2, Plan(16, 10, 6, True, "heuristic")),
        ("garum", 3, Plan(13, 10, 3, False, "heuristic")),
        ("garum", 4, Plan(13, 10)),
        ("celtae", 2, Plan(6, 20, 3, False, "learned")),
        ("celtae", 3, Plan()),
    ],
)
def test_the_rollout_preset_plays_the_games_plan_unless_told_otherwise(
    name: str, players: int, plan: Plan
) -> None:
    """Worlds, horizon, candidates, halving and leaves by game and player count (``ROLLOUT``): a Celtae
    turn is many small decisions, so its playouts look further, and 2-player Celtae scores them by its
    learned model; where a game plans none, ``Plan()``."""
    game = ludus.load_game(name, players=players)
    assert ISMCTSBot(preset="rollout").plan(game) == plan
    assert ISMCTSBot(preset="rollout", iterations=3).plan(game) == plan._replace(worlds=3)
    assert ISMCTSBot(preset="rollout", horizon=4).plan(game) == plan._replace(horizon=4)
    assert ISMCTSBot(preset="rollout", width=2, halving=False).plan(game) == plan._replace(
        width=2, halving=False
    )
    assert ISMCTSBot(preset="rollout", leaf="heuristic").plan(game) == plan._replace(leaf="heuristic")


def test_each_preset_has_its_own_default_budget() -> None:
    state = random_position("garum", {"players": 2}, seed=1, steps=4)
    bot = ISMCTSBot(seed=0)
    bot.step(state)
    assert bot.last_iterations == 15  # worlds of 16 x 3 playouts, six candidates halved: 2 + 5 + 8
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
    bot = ISMCTSBot(seed=0, seconds=1e-6, preset="rollout", halving=False)
    assert bot.step(state) in state.legal_actions()
    assert bot.last_iterations == 1


def _scripted(monkeypatch: pytest.MonkeyPatch, worth: dict) -> list:
    """Every playout of a candidate worth ``worth[notation]`` (0 if absent); returns the candidates
    played (their notation), one entry a playout."""
    played: list = []

    def playout(world, seat, rng, horizon, evaluate, scale, model=None):  # noqa: ANN001, ANN202, ARG001
        action = world.history()[-1]
        played.append(action)
        return worth.get(action, 0.0)

    monkeypatch.setattr(rollout, "_playout", playout)
    return played


def test_sequential_halving_finds_a_better_move_far_down_greedys_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Six candidates, the budget of three in 16 worlds (48 playouts) over three rounds of 16: all six
    in 2 worlds, the best three in 5 more, the best two in 8 more; the sixth by greedy's ratings, best
    in every playout, is played, and the last two are weighed on 15 worlds each."""
    state, legal, values = _rated_position(20)
    order = [str(legal[i]) for i in sorted(range(len(legal)), key=lambda i: (-values[i], i))]
    assert len(order) >= 6
    played = _scripted(monkeypatch, {order[5]: 1.0, order[0]: 0.5, order[1]: 0.4})
    bot = ISMCTSBot(seed=0, preset="rollout", iterations=16, width=6, halving=True)
    assert str(bot.step(state)) == order[5]
    assert sorted(played.count(a) for a in set(played)) == [2, 2, 2, 7, 15, 15] and len(played) <= 48
    assert bot.last_iterations == 15
    assert played.count(order[0]) == 15  # the runner-up, kept to the last round


@pytest.mark.parametrize("halving", [True, False])
def test_equal_candidates_leave_greedys_best(monkeypatch: pytest.MonkeyPatch, halving: bool) -> None:
    state, legal, values = _rated_position(50)
    _scripted(monkeypatch, {})
    choice = ISMCTSBot(seed=3, preset="rollout", iterations=4, width=6, halving=halving).step(state)
    assert values[legal.index(choice)] == pytest.approx(max(values))


def test_against_the_clock_halving_plays_a_world_each_round() -> None:
    state = random_position("garum", {"players": 2}, seed=6, steps=12)
    bot = ISMCTSBot(seed=0, seconds=1e-6, preset="rollout", width=6, halving=True)
    assert bot.step(state) in state.legal_actions()
    assert bot.last_iterations == 3  # six candidates, three rounds


def test_a_cut_playout_with_a_model_scores_the_models_win_chance() -> None:
    """2-player Celtae's plan scores a playout cut short by its learned model: the model's margin for
    the seat on the model's own curve, plus a thousandth of it."""
    model = load("celtae", 2)
    if model is None:
        pytest.skip("NumPy is missing")
    state = random_position("celtae", {"players": 2}, seed=4, steps=30)
    seat = state.current_player()
    margin = model.margins(state)[seat]
    never = lambda world, s: pytest.fail("the heuristic scored a playout the model scores")  # noqa: E731
    value = rollout._playout(state.clone(), seat, random.Random(1), 0, never, 8.0, model)
    assert value == pytest.approx(win_chance(margin, model.win_scale) + 0.001 * margin)
    assert value != pytest.approx(win_chance(margin, 8.0) + 0.001 * margin)
