"""A state's random stream (``State.rng``): a clone draws what the original would have drawn from the
moment of cloning, whoever draws first and in whatever order, and a generator shared by
``share_rng`` is never drawn from. Clones share the generator until one of them draws, and its
state is read once for all of them: these tests hold that sharing invisible."""

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import ludus

# each step: ("clone" | "draw" | "share", which state of those made so far, a number for the draw)
STEPS = st.lists(
    st.tuples(st.sampled_from(["clone", "draw", "draw", "share"]), st.integers(0, 99), st.integers(1, 1000)),
    min_size=1,
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(["garum", "celtae"]), seed=st.integers(0, 2**32), steps=STEPS)
def test_every_clone_draws_what_its_original_would_have_drawn(game, seed, steps):
    state = ludus.load_game(game, players=2).new_initial_state(seed=seed)
    start = random.Random(seed + 1)
    start_state = start.getstate()
    states = [state]
    models = [random.Random(seed)]  # each state's own stream, kept apart by hand
    models[0].setstate(state.rng.getstate())
    for kind, which, n in steps:
        i = which % len(states)
        if kind == "clone":
            states.append(states[i].clone())
            models.append(copy.deepcopy(models[i]))
        elif kind == "share":
            states[i].share_rng(start)
            models[i] = copy.deepcopy(start)
        else:
            assert states[i].rng.randrange(n) == models[i].randrange(n)
    for state, model in zip(states, models, strict=True):  # and each goes on as its own
        assert [state.rng.random() for _ in range(3)] == [model.random() for _ in range(3)]
    assert start.getstate() == start_state  # shared, so never drawn from


def test_two_clones_play_the_same_chance_after_their_original_drew():
    """Celtae refills the centre from the bag at random: two clones of one position, played on the same
    moves after the original drew, draw the same workers and end in the same state, stream included."""
    state = ludus.load_game("celtae", players=2).new_initial_state(seed=5)
    first, second = state.clone(), state.clone()
    stream = state.rng.getstate()
    state.rng.random()  # the original draws: its clones keep the stream as it was when they were made
    rng = random.Random(0)
    for _ in range(60):
        action = rng.choice(first.legal_actions())
        first.apply_action(action)
        second.apply_action(action)
    assert first.rng.getstate() != stream  # the moves drew
    assert first.to_json() == second.to_json()


def test_a_generator_once_shared_and_then_given_to_a_state_is_read_afresh_when_shared_again():
    start = random.Random(3)
    state = ludus.load_game("garum", players=2).new_initial_state(seed=1)
    state.share_rng(start)
    state.clone().rng.random()  # a copy of start's state is made (and its state read)
    other = ludus.load_game("garum", players=2).new_initial_state(seed=2)
    other.rng = start  # given to a state as its own: drawn from from now on
    other.rng.random()
    expected = copy.deepcopy(start)
    clone = other.clone()
    assert clone.rng.random() == expected.random()
