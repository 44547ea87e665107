"""The observation encoding holds exactly the seat's view, and the action numbering is stable."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludus
from ludus.games.garum.encoder import GarumEncoder
from ludus.rl.encoding import ActionMap, encoder_for

from .conftest import CELTAE_CONFIGS, GARUM_CONFIGS, random_states


def garum_facts(obs: dict) -> dict:
    """The facts a Garum observation states, read straight from the dict (not via the encoder)."""
    return {
        "fish": obs["fish"],
        "slots": obs["slots"],
        "workers": obs["workers"],
        "hands": {c["colour"]: sorted(c["hand"]) for c in obs["colours"] if c["hand"] is not None},
        "colours": [
            {k: c[k] for k in ("colour", "ghost", "vilicus", "dominus", "hand_size", "pile", "bonus")}
            for c in obs["colours"]
        ],
        "ghost_tile": obs["ghost_tile"],
        "scores": obs["scores"],
        "seat": obs["seat"],
        "round": obs["round"],
        "cetarium": obs["cetarium"],
        "closed": obs["closed"],
        "revealed": obs["aureus"]["revealed"],
        "order": obs["aureus"]["order"],
        "amphora": obs["amphora"],
        "phase": obs["phase"],
        "current_player": obs["current_player"] if obs["current_player"] >= 0 else None,
        "current_colour": obs["current_colour"],
    }


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), config=st.sampled_from(GARUM_CONFIGS))
def test_garum_decode_inverts_encode_over_random_states(seed, config):
    game = ludus.load_game("garum", **config)
    encoder = encoder_for(game)
    assert isinstance(encoder, GarumEncoder)
    low, high = encoder.low, encoder.high
    for state in random_states("garum", config, seed, every=11):
        for seat in [*range(game.num_players), None]:
            obs = state.observation(seat)
            vector = encoder.encode(obs)
            assert vector.shape == (encoder.size,) and vector.dtype == np.float32
            assert np.all(vector >= low) and np.all(vector <= high)
            assert encoder.decode(vector) == garum_facts(obs)


def test_garum_encoding_shows_own_hand_only():
    game = ludus.load_game("garum", players=4)
    encoder = encoder_for(game)
    state = game.new_initial_state(seed=5)
    hands = encoder.view(encoder.encode(state.observation(2)), "hands")
    assert hands[2].sum() > 0
    assert hands[[0, 1, 3]].sum() == 0


def test_garum_encoding_is_blind_to_what_the_seat_cannot_see():
    """Re-dealing everything seat 1 cannot see leaves its encoded view unchanged."""
    game = ludus.load_game("garum", players=3)
    encoder = encoder_for(game)
    for state in random_states("garum", {"players": 3}, seed=11, every=13):
        mine = encoder.encode(state.observation(1))
        for k in range(3):
            other = state.resample(1, k)
            assert np.array_equal(encoder.encode(other.observation(1)), mine)


def test_layout_blocks_tile_the_vector():
    encoder = encoder_for(ludus.load_game("garum", players=2))
    stops = [0]
    for block in encoder.blocks.values():
        assert block.start == stops[-1]
        stops.append(block.stop)
    assert stops[-1] == encoder.size
    assert "cells" in encoder.layout() and "aureus_order" in encoder.layout()


@pytest.mark.parametrize("config", GARUM_CONFIGS)
def test_action_mapping_round_trips(config):
    game = ludus.load_game("garum", **config)
    amap = ActionMap(game)
    for i in range(0, len(amap), 7):
        assert amap.to_index(amap.notation(i)) == i
        assert amap.to_index(game.parse_action(amap.notation(i))) == i
    assert ActionMap(ludus.load_game("garum", **config)).actions == amap.actions  # stable order


@pytest.mark.parametrize("config", GARUM_CONFIGS[:3])
def test_every_legal_action_has_an_index(config):
    game = ludus.load_game("garum", **config)
    amap = ActionMap(game)
    for state in random_states("garum", config, seed=3, every=1):
        mask = amap.mask(state)
        assert mask.sum() == len(state.legal_actions())
        for i in np.flatnonzero(mask):
            assert amap.to_action(i) in state.legal_actions()


def test_action_mapping_refuses_garbage():
    amap = ActionMap(ludus.load_game("garum", players=2))
    with pytest.raises(ludus.IllegalActionError, match="not Garum notation"):
        amap.to_index("hello")
    with pytest.raises(ludus.IllegalActionError, match="outside"):
        amap.to_action(len(amap))
    with pytest.raises(ludus.IllegalActionError, match="can never be legal"):
        ActionMap(ludus.load_game("garum", board="baelo_claudia")).to_index("c16.1 BBBB")  # 12 cetaria


def celtae_facts(obs: dict) -> dict:
    """The facts a Celtae observation states, read straight from the dict (not via the encoder)."""
    players = []
    for info in obs["players_info"]:
        fact = {
            k: info[k]
            for k in (
                "hand",
                "known_cards",
                "strength",
                "tokens",
                "discs_placed",
                "discs_left",
                "next_disc_cost",
                "cubes_placed",
                "bonus_tiles",
                "active",
                "tribe",
                "leader",
                "leader_side",
                "flip",
            )
        }
        fact["roman_tiles"] = sorted(info["roman_tiles"])
        fact["druid_tiles"] = sorted(info["druid_tiles"])
        players.append(fact)
    discard: dict[str, int] = {}
    for card in obs["discard"]:
        discard[card] = discard.get(card, 0) + 1
    return {
        "areas": obs["areas"],
        "centre": obs["centre"],
        "bag": obs["bag"],
        "markets": obs["markets"],
        "deck_size": obs["deck_size"],
        "discard": discard,
        "citadels": [{k: c[k] for k in ("spaces", "bonus", "bonus_owner")} for c in obs["citadels"]],
        "roman_top": [s["top"] for s in obs["roman"]],
        "druid_top": [s["top"] for s in obs["druid"]],
        "stacks": [s["size"] for s in obs["roman"]] + [s["size"] for s in obs["druid"]] + obs["druid_supply"],
        "garrison": obs["garrison"],
        "track": obs["track"],
        "progress": obs["progress"],
        "teutates": obs["teutates"],
        "offered_leaders": sorted(obs["offered_leaders"]),
        "players_info": players,
        "scores": obs["scores"],
        "seat": obs["seat"],
        "current_player": obs["current_player"] if obs["current_player"] >= 0 else None,
        "turn": obs["turn"],
        "phase": obs["phase"],
        "pending": obs["pending"],
        "final": obs["final"],
        "marker": obs["marker"],
        "action": obs["action"],
        "token_supply": obs["token_supply"],
        "solitairix": obs.get("solitairix"),
    }


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), config=st.sampled_from(CELTAE_CONFIGS))
def test_celtae_decode_inverts_encode_over_random_states(seed, config):
    game = ludus.load_game("celtae", **config)
    encoder = encoder_for(game)
    low, high = encoder.low, encoder.high
    for state in random_states("celtae", config, seed, every=9):
        for seat in [*range(game.num_players), None]:
            obs = state.observation(seat)
            vector = encoder.encode(obs)
            assert np.all(vector >= low) and np.all(vector <= high)
            assert encoder.decode(vector) == celtae_facts(obs)


@pytest.mark.parametrize("config", CELTAE_CONFIGS)
def test_celtae_legal_actions_have_indices_that_round_trip(config):
    game = ludus.load_game("celtae", **config)
    amap = ActionMap(game)
    for i in range(len(amap)):
        assert amap.to_index(amap.notation(i)) == i
    for state in random_states("celtae", config, seed=4, every=1):
        assert amap.mask(state).sum() == len(state.legal_actions())
