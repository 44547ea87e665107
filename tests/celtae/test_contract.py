"""Celtae on the engine contract: options, notation, the action space, views and rendering."""

from __future__ import annotations

import json
import random

import pytest

import ludus
from ludus.games.celtae.heuristic import evaluate
from ludus.games.celtae.render import render_svg, render_text

from .helpers import CONFIGS, play_random, started


@pytest.mark.parametrize("config", CONFIGS)
def test_load_every_configuration(config):
    game = ludus.load_game("celtae", **config)
    assert game.num_players == config["players"]
    state = game.new_initial_state(seed=1)
    assert state.current_player() in range(game.num_players)


@pytest.mark.parametrize(
    "options,message",
    [
        (dict(players=2, difficulty="easy"), "only valid with players=1"),
        (dict(players=4, solo_adjacent=True), "only valid with players=1"),
        (dict(players=5), "not valid"),
        (dict(players=1, difficulty="brutal"), "not valid"),
        (dict(players=2, token_moves_marker="yes"), "not valid"),
        (dict(players=2, colour="red"), "no option"),
    ],
)
def test_bad_options_are_refused(options, message):
    with pytest.raises(ludus.OptionError, match=message):
        ludus.load_game("celtae", **options)


def test_solo_default_difficulty_is_normal():
    assert ludus.load_game("celtae", players=1).config["difficulty"] == "normal"


def test_every_action_prints_and_parses_back_uniquely():
    game = ludus.load_game("celtae", players=4)
    acts = game.all_actions()
    texts = [str(a) for a in acts]
    assert len(set(t.lower() for t in texts)) == len(texts)
    for a in acts:
        assert game.parse_action(str(a)) is a
        assert game.parse_action("  " + str(a).upper() + " ") is a
        assert hash(a) == hash(game.parse_action(str(a)))
    with pytest.raises(AttributeError):
        acts[0].verb = "x"


@pytest.mark.parametrize(
    "text", ["", "move", "move 4", "jump 2", "take 7", "swap F", "swap X 1", "42", "build X"]
)
def test_garbage_notation_is_refused_with_a_clear_message(text):
    game = ludus.load_game("celtae", players=2)
    with pytest.raises(ludus.IllegalActionError, match="not Celtae notation"):
        game.parse_action(text)


def test_all_actions_is_stable_and_covers_every_legal_action():
    game = ludus.load_game("celtae", players=3)
    space = game.all_actions()
    assert space == ludus.load_game("celtae", players=3).all_actions()
    index = set(space)
    for config in ({"players": 1}, {"players": 3}, {"players": 2, "token_moves_marker": True}):
        g = ludus.load_game("celtae", **config)
        for seed in range(3):
            state = g.new_initial_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                legal = state.legal_actions()
                assert legal and set(legal) <= index and len(set(legal)) == len(legal)
                state.apply_action(rng.choice(legal))


def test_illegal_reasons_are_specific():
    s = started(2)
    with pytest.raises(ludus.IllegalActionError, match="costs 3 strength"):
        s.apply_action("move 3")
    s.apply_action("move 2")
    with pytest.raises(ludus.IllegalActionError, match="not beside the marker at NW"):
        s.apply_action("battle S")


@pytest.mark.parametrize("config", CONFIGS[:4] + [dict(players=4)])
def test_observations_are_json_and_hide_other_hands(config):
    game = ludus.load_game("celtae", **config)
    state = play_random(game.new_initial_state(seed=9), seed=9, upto=40)
    public = state.observation(None)
    json.dumps(public)
    assert all(p["hand"] is None for p in public["players_info"])
    assert "deck" not in public and "legal" not in public
    for seat in range(game.num_players):
        obs = state.observation(seat)
        json.dumps(obs)
        assert obs["players_info"][seat]["hand"] is not None
        assert all(p["hand"] is None for i, p in enumerate(obs["players_info"]) if i != seat)
    if config["players"] == 1:
        assert {"side", "quarter"} <= set(public["solitairix"])


@pytest.mark.parametrize("config", [dict(players=1), dict(players=4)])
def test_render_text_and_svg(config):
    game = ludus.load_game("celtae", **config)
    state = play_random(game.new_initial_state(seed=2), seed=2, upto=30)
    obs = state.observation(state.current_player())
    text = render_text(obs, color=False)
    assert "market N" in text and "seat 1" in text and "seat 0" not in text and "\x1b[" not in text
    assert "\x1b[" in render_text(obs, color=True)
    svg = render_svg(obs, width=450)
    assert svg.startswith("<svg") and svg.endswith("</svg>") and 'width="450"' in svg
    assert render_svg(obs) == render_svg(obs)  # pure


def test_heuristic_prefers_points_and_reads_only_the_seat_view():
    s = started(2)
    base = evaluate(s, 0)
    better = s.clone()
    better.strength[0] += 5
    assert evaluate(better, 0) > base
    other = s.clone()
    other.hands[1] = [0] * 12
    other.hands[1][0] = sum(s.hands[1])  # same size, other cards: the seat cannot tell
    assert evaluate(other, 0) == base


def test_greedy_beats_random_in_a_few_games():
    from ludus.bots import make

    game = ludus.load_game("celtae", players=2)
    wins = 0
    for seed in range(4):
        s = game.new_initial_state(seed=seed)
        bots = [make("greedy", seed=seed), make("random", seed=seed)]
        while not s.is_terminal():
            s.apply_action(bots[s.current_player()].step(s))
        wins += 0 in s.winners()
    assert wins >= 3


def test_heuristic_evaluate_all_matches_evaluate_in_the_solo_game():
    from ludus.games.celtae.heuristic import evaluate_all

    s = play_random(started(1, 4), seed=4, upto=50)
    assert evaluate_all(s) == [evaluate(s, 0)]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_resumed_state_clones_before_its_first_action(players):
    """A game the server loads from its database is cloned by a bot before anything is played on it."""
    state = play_random(started(players, seed=players), seed=players, upto=25)
    resumed = state.game.state_from_json(state.to_json())
    copy = resumed.clone()
    assert copy.to_json() == state.to_json()
    play_random(copy, seed=9)
    assert resumed.to_json() == state.to_json()
