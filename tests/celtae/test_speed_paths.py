"""The engine's quick paths give what the plain ones give: memoised scores, clones, action equality."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import ludus
from ludus.games.celtae import scoring
from ludus.games.celtae.actions import ACT, ALL, Act, parse

from .helpers import CONFIGS

configs = st.sampled_from(CONFIGS)
seeds = st.integers(0, 2**32)


@settings(max_examples=15, deadline=None)
@given(configs, seeds)
def test_memoised_scores_equal_the_sum_of_the_categories(config: dict, seed: int) -> None:
    """``state.scores()`` (categories but I memoised by layout) == each seat's breakdown total, at every step."""
    scoring._TOTALS.clear()
    state = ludus.load_game("celtae", **config).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while True:
        fresh = [
            scoring.breakdown_from_stats(state, s, [scoring.stats(state, o) for o in range(state.np)])[
                "total"
            ]
            for s in range(state.n)
        ]
        assert state.scores() == fresh
        assert state.scores() == fresh  # a memo hit too
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


@settings(max_examples=10, deadline=None)
@given(configs, seeds, st.integers(0, 150))
def test_a_clone_shares_nothing_that_play_changes(config: dict, seed: int, steps: int) -> None:
    """Playing a clone to the end leaves the original exactly as it was (clones share only set-up lists)."""
    state = ludus.load_game("celtae", **config).new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    before = state.to_json()
    other = state.clone()
    while not other.is_terminal():
        other.apply_action(rng.choice(other.legal_actions()))
    assert state.to_json() == before


def test_actions_equal_hash_and_print_as_their_fields_say() -> None:
    ludus.load_game("celtae", players=2)  # builds the action universe
    for action in ALL:
        twin = Act(action.verb, action.a, action.b)  # a new object, not the cached one
        assert twin == action and hash(twin) == hash(action) and twin is not action
        assert str(twin) == str(action) == action._notation()
        assert parse(str(action)) is action is ACT[(action.verb, action.a, action.b)]
    assert Act("move", 1) != Act("move", 2) and Act("move", 1) != Act("take", 1)
    assert Act("move", 1) != ("move", 1, -1)
    assert len({*ALL, *(Act(a.verb, a.a, a.b) for a in ALL)}) == len(ALL)
