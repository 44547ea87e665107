"""The OpenSpiel registration passes OpenSpiel's random simulation test and resamples soundly."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install 'ludus[openspiel]')"
)

import ludus.rl.openspiel as ludus_spiel  # noqa: E402


def test_garum_is_registered_with_its_options_as_parameters():
    assert "python_ludus_garum" in pyspiel.registered_names()
    game = pyspiel.load_game("python_ludus_garum", {"players": 3, "board": "baelo_claudia"})
    assert game.num_players() == 3
    params = game.get_parameters()
    assert params["board"] == "baelo_claudia" and params["variant"] == "standard"
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2},
        {"players": 3, "variant": "haruspex", "board": "baelo_claudia"},
        {"players": 4, "variant": "emperor", "deals": 10},
    ],
)
def test_random_sim_test_passes(params):
    pyspiel.random_sim_test(ludus_spiel.load("garum", **params), num_sims=1, serialize=True, verbose=False)


def test_the_deal_seeds_the_engine_and_actions_are_notation():
    game = ludus_spiel.load("garum", players=2, deals=50, seed=3)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 50
    state.apply_action(7)
    assert state.engine.state.seed == 3 * 50 + 7
    player = state.current_player()
    shown = {state.action_to_string(player, a) for a in state.legal_actions()}
    assert shown == {str(a) for a in state.engine.state.legal_actions()}


def test_resample_keeps_the_infostate_and_the_seats_view():
    game = ludus_spiel.load("garum", players=3)
    state = game.new_initial_state()
    state.apply_action(11)
    rng = random.Random(0)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    hands = set()
    for k in range(5):
        other = state.resample_from_infostate(seat, random.Random(k).random)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.observation_string(seat) == state.observation_string(seat)
        assert np.array_equal(other.observation_tensor(seat), state.observation_tensor(seat))
        assert other.legal_actions() == state.legal_actions()
        hands.add(str(other.engine.state.hands))
    assert len(hands) > 1  # the hidden hands really are re-dealt


def test_infostate_is_perfect_recall():
    """Two histories ending in the same view but reached differently get different infostates."""
    game = ludus_spiel.load("garum", players=2)
    a, b = game.new_initial_state(), game.new_initial_state()
    a.apply_action(1)
    b.apply_action(1)
    assert a.information_state_string(0) == b.information_state_string(0)
    a.apply_action(a.legal_actions()[0])
    b.apply_action(b.legal_actions()[-1])
    assert a.information_state_string(0) != b.information_state_string(0)


def test_openspiel_python_ismcts_plays_a_move():
    from open_spiel.python.algorithms import ismcts, mcts

    game = ludus_spiel.load("garum", players=2)
    state = game.new_initial_state()
    state.apply_action(0)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        2.0,
        3,
        random_state=np.random.RandomState(0),
    )
    assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize("params", [{"players": 1, "difficulty": "hard"}, {"players": 3}])
def test_celtae_random_sim_test_passes(params):
    assert "python_ludus_celtae" in ludus_spiel.REGISTERED
    pyspiel.random_sim_test(ludus_spiel.load("celtae", **params), num_sims=1, serialize=True, verbose=False)


def test_celtae_resample_keeps_the_seats_view():
    game = ludus_spiel.load("celtae", players=3)
    state = game.new_initial_state()
    state.apply_action(2)
    rng = random.Random(1)
    for _ in range(25):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    other = state.resample_from_infostate(seat, random.Random(3).random)
    assert other.observation_string(seat) == state.observation_string(seat)
    assert other.information_state_string(seat) == state.information_state_string(seat)


def test_infostate_computed_late_equals_infostate_followed_step_by_step():
    game = ludus_spiel.load("garum", players=3)
    eager, lazy = game.new_initial_state(), game.new_initial_state()
    eager.apply_action(4)
    lazy.apply_action(4)
    rng = random.Random(2)
    for _ in range(20):
        action = rng.choice(eager.legal_actions())
        eager.apply_action(action)
        lazy.apply_action(action)
        _ = [eager.information_state_string(p) for p in range(3)]
    copy = lazy.clone()
    assert [lazy.information_state_string(p) for p in range(3)] == [
        eager.information_state_string(p) for p in range(3)
    ]
    assert copy.information_state_string(1) == eager.information_state_string(1)


def test_registration_skips_a_game_that_is_not_installed(monkeypatch):
    """Importing the module must not fail in a checkout without Celtae (or its encoder)."""
    monkeypatch.setattr(ludus_spiel, "has_encoder", lambda name: False)
    assert ludus_spiel._register("celtae") is False
    assert ludus_spiel._register("garum") is False
    from ludus.rl.encoding import has_encoder

    assert not has_encoder("no_such_game")
