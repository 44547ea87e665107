"""Undo is the engine's: ``undo_barrier()`` never lets a seat take back a step that showed it
something new, always lets it take back a step within its turn that showed nothing, and gives
the same answer however often it is asked (the server and the terminal use nothing else)."""

from __future__ import annotations

import random

import pytest
from celtae.helpers import CONFIGS as CELTAE_CONFIGS
from garum.helpers import CONFIGS as GARUM_CONFIGS
from hypothesis import given, settings
from hypothesis import strategies as st

import ludus
from ludus.engine import IllegalActionError

CONFIGS = [("garum", c) for c in GARUM_CONFIGS] + [("celtae", c) for c in CELTAE_CONFIGS]
WORLDS = 6


def shows_the_mover_something(before, action: str, after, actor: int, seed: int) -> bool:
    """Whether ``action`` showed ``actor`` anything new: in worlds re-dealt from what the actor
    knew before it, the same action leads to another view (or is not even possible), or the
    game's own random draws were used."""
    if after.rng.getstate() != before.rng.getstate():
        return True
    seen = after.observation(actor)
    rng = random.Random(seed)
    for _ in range(WORLDS):
        world = before.resample(actor, rng)
        try:
            world.apply_action(action)
        except IllegalActionError:
            return True
        if world.observation(actor) != seen:
            return True
    return False


def same_turn(before, after) -> bool:
    """The action did not end the turn (nor hand a set-up or progress decision on)."""
    if after.game.name == "garum":
        return (after.round, after.turn) == (before.round, before.turn)
    return (after.turn, after.turns_left, after.phase <= 1) == (
        before.turn,
        before.turns_left,
        before.phase <= 1,
    )


def hidden_sources(state) -> tuple:
    """How much is left in each place that hides something: a step that leaves these as they were
    (and draws nothing at random) took nothing out of hiding."""
    if state.game.name == "garum":
        return tuple(len(p) for p in state.piles), state.ghost_tile, state.rng.getstate()
    return (
        len(state.deck),
        tuple(map(len, state.roman)),
        tuple(map(len, state.druid)),
        state.flip_revealed,
        state.rng.getstate(),
    )


def check_every_step(game_name: str, config: dict, seed: int) -> tuple[int, int]:
    state = ludus.load_game(game_name, **config).new_initial_state(seed=seed)
    rng = random.Random(seed)
    revealing = undoable = turn_began = 0
    while not state.is_terminal():
        actor = state.current_player()
        action = str(rng.choice(state.legal_actions()))
        before = state.clone()
        state.apply_action(action)
        n = len(state.history())
        barrier = state.undo_barrier()
        assert 0 <= barrier <= n
        assert barrier == state.undo_barrier(), "asking twice gave another answer"
        if state.current_player() != actor or not same_turn(before, state):
            turn_began = n
        assert barrier >= turn_began, f"step {n}: undo would reach back before the turn began"
        if shows_the_mover_something(before, action, state, actor, seed + n):
            revealing += 1
            assert barrier == n, f"step {n} ({action}) showed seat {actor} something new but may be undone"
        elif (
            state.current_player() == actor
            and same_turn(before, state)
            and hidden_sources(before) == hidden_sources(state)
        ):
            undoable += 1
            assert barrier < n, f"step {n} ({action}) showed nothing, within the turn, yet cannot be undone"
            assert barrier >= before.undo_barrier(), "the door reopened"
    return revealing, undoable


@settings(max_examples=8, derandomize=True)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31))
def test_no_revealing_step_is_undoable_and_every_quiet_step_within_the_turn_is(config, seed):
    check_every_step(*config, seed)


@pytest.mark.parametrize(
    "game_name,config",
    CONFIGS,
    ids=[g + "-" + "-".join(f"{k}={v}" for k, v in c.items()) for g, c in CONFIGS],
)
def test_undo_barrier_in_every_configuration(game_name, config):
    revealing, undoable = check_every_step(game_name, config, seed=11)
    assert revealing > 0 and undoable > 0, "the game should have both kinds of steps"


def test_the_celtae_leader_flip_cannot_be_taken_back_once_revealed():
    """Issue 11: the last seat to decide the flip must not see the others' choices and choose again."""
    rng = random.Random(5)
    state = ludus.load_game("celtae", players=2).new_initial_state(seed=5)
    while (state.observation(None)["pending"] or {}).get("kind") != "leader flip":
        state.apply_action(rng.choice(state.legal_actions()))
    first = state.current_player()
    state.apply_action("flip")
    last = state.current_player()
    assert last != first
    assert state.undo_barrier() == len(state.history())  # the first seat's choice is settled
    state.apply_action("keep")
    assert state.observation(last)["players_info"][first]["flip"] == "flip"  # revealed to the last seat
    assert state.undo_barrier() == len(state.history())


def test_celtae_refresh_draws_from_the_bag_and_closes_the_door():
    rng = random.Random(2)
    state = ludus.load_game("celtae", players=2).new_initial_state(seed=2)
    for _ in range(20000):
        legal = [str(a) for a in state.legal_actions()]
        if "refresh" in legal:
            break
        state.apply_action(rng.choice(legal))
    else:
        pytest.fail("no refresh offered")
    mover = state.current_player()
    state.apply_action("refresh")
    assert state.current_player() == mover
    assert state.undo_barrier() == len(state.history())


def test_a_quiet_celtae_step_may_be_taken_back():
    """Moving the marker shows nothing: the next decision may still take it back."""
    state = ludus.load_game("celtae", players=2).new_initial_state(seed=4)
    rng = random.Random(4)
    while "move 1" not in [str(a) for a in state.legal_actions()]:
        state.apply_action(rng.choice(state.legal_actions()))
    mover = state.current_player()
    state.apply_action("move 1")
    assert state.current_player() == mover
    assert state.undo_barrier() == len(state.history()) - 1


def test_saved_states_keep_the_barrier_and_old_saves_allow_no_undo():
    state = ludus.load_game("celtae", players=2).new_initial_state(seed=4)
    rng = random.Random(4)
    for _ in range(15):
        state.apply_action(rng.choice(state.legal_actions()))
    game = state.game
    assert game.state_from_json(state.to_json()).undo_barrier() == state.undo_barrier()
    import json

    old = json.loads(state.to_json())
    del old["barrier"]
    assert game.state_from_json(json.dumps(old)).undo_barrier() == len(state.history())
