"""ISMCTS with the learned value model (the default preset but in 2-player Garum) and the classic preset kept beside it."""

from __future__ import annotations

import random

import pytest

import ludus
from ludus import bots
from ludus.bots import learned
from ludus.bots.ismcts import ISMCTSBot, _Node

from .helpers import GARUM_CONFIGS, config_id, play_out, random_position
from .test_learned import random_arrays

np = pytest.importorskip("numpy")

WIDTH = 8  # a cut of the root, as ``width`` asks


def test_the_learned_preset_uses_the_shipped_model_and_classic_is_named() -> None:
    game = ludus.load_game("garum", players=2)
    assert ISMCTSBot(preset="learned").model(game) is learned.load("garum", 2) is not None
    assert ISMCTSBot(preset="classic").model(game) is None
    name, params = bots.parse_spec("ismcts:preset=classic")
    assert bots.make(name, **params).preset == "classic"


def test_without_a_model_the_learned_preset_searches_as_classic() -> None:
    state = random_position("garum", {"players": 2}, seed=4, steps=9)
    game = state.game
    bot = ISMCTSBot(preset="learned", seed=2, iterations=12)
    bot.model = lambda _game: None  # as if no model were shipped for this configuration
    assert bot.step(state) == ISMCTSBot(seed=2, iterations=12, preset="classic").step(state)
    assert game.num_players == 2


@pytest.mark.parametrize("steps", [0, 30, 61])
def test_the_root_keeps_only_the_best_width_actions_by_the_model(steps: int) -> None:
    state = random_position("garum", {"players": 2}, seed=steps, steps=steps)
    bot = ISMCTSBot(preset="learned", seed=0, width=WIDTH)
    bot.net = bot.model(state.game)
    root = _Node(None, state.current_player())
    keep = bot._seed_root(root, state, bot._evaluator("garum"), True, WIDTH)
    legal = state.legal_actions()
    assert keep == set(root.children) and len(keep) == min(WIDTH, len(legal)) and keep <= set(legal)
    worst_kept = min(c.total for c in root.children.values())
    for action in set(legal) - keep:  # every action left out is rated no better than those kept
        child = state.clone()
        child.apply_action(action)
        if not child.is_terminal():
            assert bot.net.win_chances(child)[root.player] <= worst_kept + 1e-5


@pytest.mark.parametrize("steps", [0, 45])
@pytest.mark.parametrize("players", [2, 3])
def test_the_learned_search_is_deterministic_for_a_seed_and_budget(steps: int, players: int) -> None:
    state = random_position("garum", {"players": players}, seed=steps, steps=steps)
    a, b = (
        ISMCTSBot(preset="learned", seed=9, iterations=12),
        ISMCTSBot(preset="learned", seed=9, iterations=12),
    )
    game_a, game_b = state.clone(), state.clone()
    for _ in range(4):
        if game_a.is_terminal():
            break
        move_a, move_b = a.step(game_a), b.step(game_b)
        assert move_a == move_b
        game_a.apply_action(move_a)
        game_b.apply_action(move_b)


@pytest.mark.parametrize("config", GARUM_CONFIGS[1::3], ids=config_id)
def test_the_learned_search_plays_legal_garum_games(config: dict) -> None:
    game = ludus.load_game("garum", **config)
    seats = [ISMCTSBot(preset="learned", seed=s, iterations=3, width=3 * s) for s in range(game.num_players)]
    assert play_out(game.new_initial_state(seed=5), seats).is_terminal()


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_learned_search_plays_legal_celtae_games(players: int) -> None:
    options = {"players": players, **({"difficulty": "hard"} if players == 1 else {})}
    game = ludus.load_game("celtae", **options)
    seats = [
        ISMCTSBot(preset="learned", seed=s, iterations=2) if s == 0 else bots.make("random", seed=s)
        for s in range(players)
    ]
    assert play_out(game.new_initial_state(seed=3), seats).is_terminal()


def _first_world_values(state: ludus.State, model: learned.ValueModel) -> dict:
    """The mover's value of each action's result by ``model`` in the re-deal a bot seeded 0 draws first."""
    seat = state.current_player()
    world = state.resample(seat, random.Random(0))
    values = {}
    for action in state.legal_actions():
        child = world.clone()
        child.apply_action(action)
        values[action] = child.returns()[seat] if child.is_terminal() else model.win_chances(child)[seat]
    return values


def test_a_one_iteration_learned_search_plays_the_models_best_move() -> None:
    state = random_position("garum", {"players": 2}, seed=11, steps=20)
    values = _first_world_values(state, learned.load("garum", 2))
    assert (
        values[ISMCTSBot(preset="learned", seed=0, iterations=1).step(state)] >= max(values.values()) - 1e-5
    )


def _rich_model(game: str, players: int, seed: int) -> learned.ValueModel:
    """A model of random weights over the game's rich rows (as a file made with them would be)."""
    k = len(learned.feature_names(game, players, rich=True))
    return learned.ValueModel(random_arrays(k, players, np.random.default_rng(seed), rich=np.array(1)))


@pytest.mark.parametrize(("game", "steps"), [("garum", 20), ("celtae", 40)])
def test_a_one_iteration_search_with_a_rich_model_plays_its_best_move(game: str, steps: int) -> None:
    state = random_position(game, {"players": 2}, seed=5, steps=steps)
    model = _rich_model(game, 2, seed=steps)
    values = _first_world_values(state, model)
    bot = ISMCTSBot(preset="learned", seed=0, iterations=1)
    bot.model = lambda _game: model
    assert values[bot.step(state)] >= max(values.values()) - 1e-5


def test_a_search_with_a_rich_model_plays_legal_celtae_games() -> None:
    game = ludus.load_game("celtae", players=2)
    model = _rich_model("celtae", 2, seed=1)
    seat = ISMCTSBot(preset="learned", seed=0, iterations=3)
    seat.model = lambda _game: model
    assert play_out(game.new_initial_state(seed=2), [seat, bots.make("greedy", seed=1)]).is_terminal()
