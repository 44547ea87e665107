"""``ludus.engine.rand`` draws exactly what ``random.Random``'s methods draw: the same results from the
same generator state, which it leaves where the method leaves it (games call either, and a saved
game or a seeded study replays the same whichever the code calls)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludus.engine.rand import below, shuffle


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**64), items=st.lists(st.integers(), max_size=120))
def test_shuffle_orders_a_list_as_random_shuffle_does(seed, items):
    ours, theirs = random.Random(seed), random.Random(seed)
    mine, expected = list(items), list(items)
    shuffle(ours, mine)
    theirs.shuffle(expected)
    assert mine == expected
    assert ours.getstate() == theirs.getstate()


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**64), bounds=st.lists(st.integers(1, 2**70), min_size=1, max_size=20))
def test_below_draws_what_randrange_draws(seed, bounds):
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [below(ours, n) for n in bounds] == [theirs.randrange(n) for n in bounds]
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("n", [0, -3])
def test_below_refuses_a_bound_with_nothing_below_it(n):
    rng = random.Random(1)
    before = rng.getstate()
    with pytest.raises(ValueError, match=f"below {n}"):
        below(rng, n)
    assert rng.getstate() == before
