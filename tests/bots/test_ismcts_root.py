"""ISMCTS options tried for 2-player strength: the root prior's weight, whole-turn expansion, peek."""

from __future__ import annotations

import pytest

import ludus
from ludus import bots
from ludus.bots.ismcts import ISMCTSBot, _Node

from .helpers import play_out, random_position


@pytest.mark.parametrize("bad", [{"prior_visits": 0}, {"prior_visits": -3}, {"expand": "turns"}])
def test_bad_prior_weights_and_expansions_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        bots.make("ismcts", **bad)


def test_the_options_are_read_from_a_spec() -> None:
    name, params = bots.parse_spec("ismcts:prior_visits=20:expand=turn")
    bot = bots.make(name, **params)
    assert bot.prior_visits == 20 and bot.expand == "turn"


def _seeded_root(bot: ISMCTSBot, state: ludus.State) -> _Node:
    bot.net = bot.model(state.game)
    root = _Node(None, state.current_player())
    bot._seed_root(root, state.resample(root.player, bot.rng), bot._evaluator(state.game.name))
    return root


@pytest.mark.parametrize("preset", ["learned", "classic"])
def test_the_root_prior_counts_prior_visits_times_its_value(preset: str) -> None:
    state = random_position("garum", {"players": 2}, seed=3, steps=14)
    one = _seeded_root(ISMCTSBot(seed=0, preset=preset), state)
    five = _seeded_root(ISMCTSBot(seed=0, preset=preset, prior_visits=5), state)
    assert set(one.children) == set(five.children) == set(state.legal_actions())
    assert five.visits == 5 * len(five.children)
    for action, node in five.children.items():
        assert node.visits == node.avail == 5
        assert node.total == pytest.approx(5 * one.children[action].total)


@pytest.mark.parametrize("steps", [0, 20, 41])
def test_a_heavy_prior_keeps_the_prior_move_against_a_short_search(steps: int) -> None:
    state = random_position("garum", {"players": 2}, seed=steps, steps=steps)
    root = _seeded_root(ISMCTSBot(preset="learned", seed=0), state)
    best = max(c.total for c in root.children.values())
    chosen = ISMCTSBot(preset="learned", seed=0, iterations=30, prior_visits=10_000).step(state)
    assert root.children[chosen].total >= best - 1e-9


def _searched_root(expand: str, state: ludus.State, iterations: int) -> _Node:
    bot = ISMCTSBot(preset="learned", seed=1, expand=expand)
    root = _seeded_root(bot, state)
    evaluate = bot._evaluator(state.game.name)
    for _ in range(iterations):
        bot._iterate(root, state.resample(root.player, bot.rng), evaluate)
    return root


@pytest.mark.parametrize("steps", [0, 8, 24])
def test_turn_expansion_rates_every_follow_up_of_the_movers_own_turn(steps: int) -> None:
    """A root action after which the same seat moves again is expanded at its first visit with all
    its follow-ups (random expansion adds one a visit); the node learns the best one's value."""
    state = random_position("garum", {"players": 2}, seed=steps, steps=steps)
    seat = state.current_player()
    turn, plain = _searched_root("turn", state, 150), _searched_root("random", state, 150)
    checked = 0
    for action, node in turn.children.items():
        after = state.clone()
        after.apply_action(action)
        if after.is_terminal() or after.current_player() != seat or len(after.legal_actions()) < 2:
            continue
        if node.visits < 2:  # only the prior's visit: never searched
            continue
        assert set(node.children) == set(after.legal_actions())
        assert all(c.player == seat and c.visits >= 1 for c in node.children.values())
        checked += 1
    assert checked
    swept = [n for n in turn.children.values() if len(n.children) > n.visits - 1]
    assert swept  # more follow-ups than real visits (the prior's visit is not one)
    assert all(len(n.children) <= n.visits - 1 for n in plain.children.values())  # one a visit at most


@pytest.mark.parametrize("players", [2, 3])
def test_turn_expansion_plays_legal_reproducible_garum_games(players: int) -> None:
    game = ludus.load_game("garum", players=players, board="baelo_claudia")
    ends = [
        play_out(
            game.new_initial_state(seed=4),
            [ISMCTSBot(preset="learned", seed=s, iterations=6, expand="turn") for s in range(players)],
        )
        for _ in range(2)
    ]
    end, again = ends
    assert end.is_terminal() and end.returns() == again.returns()


def test_turn_expansion_plays_legal_celtae_games() -> None:
    game = ludus.load_game("celtae", players=2)
    seats = [ISMCTSBot(preset="learned", seed=0, iterations=3, expand="turn"), bots.make("random", seed=1)]
    assert play_out(game.new_initial_state(seed=2), seats).is_terminal()


def _future(state: ludus.State, plies: int = 40) -> dict:
    """The public view after ``plies`` first-legal moves: it shows the draws to come."""
    state = state.clone()
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[0])
    return state.observation(None)


@pytest.mark.parametrize("game", ["garum", "celtae"])
def test_peek_searches_the_true_state_with_its_coming_draws(game: str) -> None:
    state = random_position(game, {"players": 2}, seed=5, steps=6)
    truth = _future(state)
    worlds: dict[bool, list] = {}
    for peek in (False, True):
        bot = ISMCTSBot(seed=0, iterations=8, peek=peek, preset="classic")
        seen: list = []

        def record(root: _Node, world: ludus.State, *rest: object, seen: list = seen) -> None:
            seen.append(world.clone())

        bot._iterate = bot._iterate_heuristic = record
        bot.step(state)
        worlds[peek] = seen
    assert len(worlds[True]) == len(worlds[False]) == 8
    assert all(_future(world) == truth for world in worlds[True])
    assert any(_future(world) != truth for world in worlds[False])  # re-dealt: other draws to come
