"""Garum on the engine contract: options, errors, notation, copies, records, information."""

from __future__ import annotations

import json
import random

import pytest

import ludus
from ludus import bots
from ludus.games.garum.actions import Place

from .helpers import new, play_random


def test_terminal_is_minus_four_at_the_end():
    state = play_random(new(seed=1), seed=1)
    assert ludus.TERMINAL == -4
    assert state.current_player() == ludus.TERMINAL and state.is_terminal()
    assert state.legal_actions() == []


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(players=5), r"players=5 is not valid; choose one of 2, 3, 4"),
        (dict(board="pompeii"), r"choose one of 'troia', 'baelo_claudia'"),
        (dict(colour="blue"), r"no option 'colour'; valid options: players, board, variant, rotation"),
        (dict(rotation="yes"), r"rotation='yes' is not valid"),
        (dict(players=True), r"players=True is not valid"),
    ],
)
def test_unknown_option_names_or_values_are_refused_listing_the_valid_ones(kwargs, match):
    with pytest.raises(ludus.OptionError, match=match):
        ludus.load_game("garum", **kwargs)


def test_unknown_game_is_refused():
    with pytest.raises(ludus.OptionError, match=r"unknown game 'chess'; known games: (\w+, )*garum\b"):
        ludus.load_game("chess")


@pytest.mark.parametrize("text", ["", "hello", "c99.9 BBBB", "V h99", "place T7 c14.2 r90", "c14.2 BBB"])
def test_garbage_text_is_refused_and_changes_nothing(text):
    state = new(seed=2)
    before = state.to_json()
    with pytest.raises(ludus.IllegalActionError):
        state.apply_action(text)
    assert state.to_json() == before


def test_illegal_action_says_why_and_changes_nothing():
    state = new(seed=2)
    before = state.to_json()
    other = next(c for c in range(1, 17) if c != state.cetarium)
    with pytest.raises(ludus.IllegalActionError, match=f"go into cetarium {state.cetarium}"):
        state.apply_action(f"c{other}.1 BBBB")
    with pytest.raises(ludus.IllegalActionError, match="may only follow"):
        state.apply_action("pass")
    assert state.to_json() == before
    assert isinstance(ludus.IllegalActionError("x"), ValueError)


def test_notation_round_trips_for_every_action():
    for options in (dict(players=4), dict(players=3, board="baelo_claudia", variant="emperor")):
        game = ludus.load_game("garum", **options)
        actions = game.all_actions()
        assert len(set(actions)) == len(actions)
        for action in actions:
            assert game.parse_action(str(action)) is action


def test_all_actions_covers_every_legal_action():
    for options in (dict(players=2, variant="emperor"), dict(players=3, rotation=False)):
        game = ludus.load_game("garum", **options)
        universe = set(game.all_actions())
        state = game.new_initial_state(seed=3)
        rng = random.Random(3)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert set(legal) <= universe
            state.apply_action(rng.choice(legal))


def test_parse_accepts_loose_spacing_and_case():
    game = ludus.load_game("garum")
    assert str(game.parse_action("  C14.2   bbgy ")) == "c14.2 BBGY"
    assert str(game.parse_action("dominus  V12")) == "D v12"
    assert str(game.parse_action("PASS")) == "pass"


def test_apply_action_accepts_notation_or_action():
    a, b = new(seed=4), new(seed=4)
    action = a.legal_actions()[0]
    a.apply_action(action)
    b.apply_action(str(action))
    assert a.to_json() == b.to_json() and a.history() == [str(action)]


def test_clone_is_independent():
    state = new(seed=5)
    copy = state.clone()
    play_random(copy, upto=10)
    assert state.history() == [] and len(copy.history()) == 10
    assert state.to_json() != copy.to_json()


def test_save_and_resume_mid_game():
    state = play_random(new(seed=6, players=3), upto=30)
    game = state.game
    resumed = game.state_from_json(state.to_json())
    assert resumed.to_json() == state.to_json()
    play_random(state, seed=9)
    play_random(resumed, seed=9)
    assert resumed.history() == state.history() and resumed.scores() == state.scores()


def test_a_resumed_state_clones_before_its_first_action():
    """A game the server loads from its database is cloned by a bot before anything is played on it."""
    state = play_random(new(seed=6, players=3), upto=30)
    resumed = state.game.state_from_json(state.to_json())
    copy = resumed.clone()
    assert copy.to_json() == state.to_json()
    play_random(copy, seed=9)
    assert resumed.to_json() == state.to_json()


@pytest.mark.parametrize("text", ["not json", "[]", '{"game": "celtae"}', json.dumps({"game": "garum"})])
def test_state_from_json_refuses_garbage(text):
    with pytest.raises(ValueError):
        ludus.load_game("garum").state_from_json(text)


def test_record_replays_to_the_same_state():
    state = play_random(new(seed=7, players=2, variant="emperor"), seed=7)
    record = json.loads(json.dumps(state.record()))
    assert set(record) == {"game", "config", "seed", "actions"}
    again = ludus.replay(record)
    assert again.to_json() == state.to_json()


@pytest.mark.parametrize(
    "record,match",
    [
        ("nope", "JSON object"),
        ({"game": "garum"}, "lacks config, seed, actions"),
        ({"game": "garum", "config": {"players": 9}, "seed": 1, "actions": []}, "cannot be loaded"),
        ({"game": "garum", "config": {}, "seed": "x", "actions": []}, "seed must be an integer"),
        (
            {"game": "garum", "config": {}, "seed": 1, "actions": ["pass"]},
            "action 1 .'pass'. cannot be replayed",
        ),
    ],
)
def test_malformed_records_are_refused_with_a_reason(record, match):
    with pytest.raises(ludus.RecordError, match=match):
        ludus.replay(record)


def test_observation_shows_own_hand_only():
    state = new(seed=8, players=4)
    seat = state.current_player()
    obs = state.observation(seat)
    hands = [c["hand"] for c in obs["colours"]]
    assert hands[seat] is not None and len(hands[seat]) == 4
    assert all(h is None for i, h in enumerate(hands) if i != seat)
    assert all(c["hand"] is None for c in state.observation(None)["colours"])
    assert [c["pile"] for c in obs["colours"]] == [12] * 4
    json.dumps(obs)


def test_two_player_seat_sees_both_its_hands():
    state = new(seed=8, players=2)
    obs = state.observation(1)
    assert [c["hand"] is not None for c in obs["colours"]] == [False, True, False, True]


def test_observation_refuses_a_bad_seat():
    with pytest.raises(ValueError, match="seat must be None or 0..3"):
        new().observation(4)


def test_resample_keeps_what_the_seat_sees_and_redeals_the_rest():
    state = play_random(new(seed=9, players=4), upto=13)
    seat = state.current_player()
    rng = random.Random(1)
    others = [state.resample(seat, rng) for _ in range(5)]
    for other in others:
        assert other.observation(seat) == state.observation(seat)
        for c in range(4):
            assert sorted(other.hands[c] + other.piles[c]) == sorted(state.hands[c] + state.piles[c])
    assert any(o.hands != state.hands for o in others)
    assert any(o.aureus != state.aureus for o in others)


def test_bots_make_and_step():
    state = new(seed=10)
    bot = bots.make("random", seed=1)
    assert bot.step(state) in state.legal_actions()
    with pytest.raises(ValueError, match="unknown bot 'oracle'"):
        bots.make("oracle")


def test_place_actions_are_small_immutable_values():
    action = Place(14, 2, "BBGY")
    assert action == Place(14, 2, "BBGY") and hash(action) == hash(Place(14, 2, "BBGY"))
    with pytest.raises(AttributeError):
        action.slot = 3


def test_log_names_the_seat_of_every_action_and_survives_save_and_clone():
    state = new(seed=12, players=2)
    seats = []
    while len(seats) < 12:
        seats.append(state.current_player())
        play_random(state, upto=1)
    log = state.log(None)
    assert [e["seat"] for e in log] == seats and [e["action"] for e in log] == state.history()
    assert state.log(0) == log  # every Garum move is public
    assert state.clone().log(1) == log
    assert state.game.state_from_json(state.to_json()).log(None) == log
