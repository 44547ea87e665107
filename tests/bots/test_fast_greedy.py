"""The fast paths of the greedy bot choose exactly as the plain one-clone-per-action greedy does."""

from __future__ import annotations

import random
from typing import Any

import pytest

import ludus
from ludus.bots.greedy import GreedyBot
from ludus.games.garum import heuristic as heuristics_garum

from .helpers import GARUM_CONFIGS, ReferenceGreedy, config_id


def _positions(game_name: str, options: dict, count: int, seed: int) -> list[ludus.State]:
    """Positions along games where seats alternate greedy and random moves (varied, yet realistic)."""
    game = ludus.load_game(game_name, **options)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state(seed=rng.getrandbits(32))
        bot = GreedyBot(seed=rng.getrandbits(16))
        while not state.is_terminal() and len(out) < count:
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.3:
                out.append(state.clone())
            state.apply_action(bot.step(state) if rng.random() < 0.5 else rng.choice(legal))
    return out


@pytest.mark.parametrize("config", GARUM_CONFIGS[::2], ids=config_id)
def test_garum_action_values_equal_the_played_positions_values(config: dict) -> None:
    """``evaluate_actions`` gives, to the last bit, ``evaluate_all`` of each action's played result."""
    checked = 0
    for state in _positions("garum", config, 12, seed=len(config_id(config))):
        legal = state.legal_actions()
        for action, values in zip(legal, heuristics_garum.evaluate_actions(state, legal), strict=True):
            if values is None:
                continue
            child = state.clone()
            child.apply_action(action)
            assert values == heuristics_garum.evaluate_all(child), str(action)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("config", GARUM_CONFIGS, ids=config_id)
def test_fast_greedy_chooses_as_the_reference_greedy_in_garum(config: dict) -> None:
    for i, state in enumerate(_positions("garum", config, 15, seed=3)):
        for noise in (0.0, 2.0):
            assert GreedyBot(seed=i, noise=noise).step(state) == ReferenceGreedy(seed=i, noise=noise).step(
                state
            )


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_fast_greedy_chooses_as_the_reference_greedy_in_celtae(players: int) -> None:
    """The reference plays on the frozen copy of the heuristic as it was before its speed-ups."""
    from . import reference_heuristics_celtae as reference

    for i, state in enumerate(_positions("celtae", {"players": players}, 8, seed=players)):
        assert GreedyBot(seed=i).step(state) == ReferenceGreedy(seed=i, evaluate=reference.evaluate).step(
            state
        )


def _stats_counted_one_owner_at_a_time(state: Any, o: int) -> dict[str, Any]:
    """What progress cards and leaders read, counted plainly for one owner (the rules' figures)."""
    colour, region = [0, 0, 0, 0], [0, 0]
    for idx, cit in enumerate(state.citadels):
        colour[idx % 4] += cit.count(o)
        region[idx // 4] += cit.count(o)
    roman = [state.data.roman_tiles[t][0] for t in state.roman_won[o]]
    druid = [state.data.druid_tiles[t][0] for t in state.druid_won[o]]
    tribe = state.tribe[o]
    return {
        "colour": tuple(colour),
        "region": tuple(region),
        "bonus": state.bonus_owner.count(o),
        "types": tuple(tribe[:4]),
        "workers": sum(tribe[:4]),
        "druids": tribe[4],
        "druid_tiles": len(druid),
        "roman": len(roman),
        "roman_by_points": (roman.count(1), roman.count(2)),
        "druid_by_points": (druid.count(1), druid.count(2)),
        "garrison": (state.garrison[0].count(o), state.garrison[1].count(o)),
        "cubes": state.cubes[o],
        "discs": state.discs[o],
    }


@pytest.mark.parametrize("players", [1, 2, 4])
def test_celtae_stats_of_every_owner_at_once_equal_those_counted_one_owner_at_a_time(players: int) -> None:
    from ludus.games.celtae.scoring import all_owner_stats

    for state in _positions("celtae", {"players": players}, 20, seed=players):
        assert all_owner_stats(state) == [
            _stats_counted_one_owner_at_a_time(state, o) for o in range(state.np)
        ]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_celtae_heuristic_equals_the_reference_heuristic_to_the_bit(players: int) -> None:
    from ludus.games.celtae import heuristic as heuristics_celtae

    from . import reference_heuristics_celtae as reference

    for state in _positions("celtae", {"players": players}, 30, seed=10 + players):
        for seat in range(players):
            assert heuristics_celtae.evaluate(state, seat) == reference.evaluate(state, seat)
        assert heuristics_celtae.evaluate_all(state) == reference.evaluate_all(state)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_celtae_canonical_deal_from_the_table_of_shuffles_equals_shuffling(players: int) -> None:
    """The canonical re-deal takes its orders from shuffles drawn once per sequence of lengths:
    the very deal (deck, hands, tile stacks, random stream) that shuffling each time gives."""
    from ludus.games.celtae import heuristic as heuristics_celtae

    from . import reference_heuristics_celtae as reference

    for state in _positions("celtae", {"players": players}, 20, seed=20 + players):
        for seat in range(players):
            fast, slow = heuristics_celtae.canonical(state, seat), reference._canonical(state, seat)
            assert (fast.deck, fast.hands, fast.roman, fast.druid) == (
                slow.deck,
                slow.hands,
                slow.roman,
                slow.druid,
            )
            assert fast.rng.getstate() == slow.rng.getstate()
