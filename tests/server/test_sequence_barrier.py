"""A multi-action request stops at the undo barrier, and its refusal never describes a position the
seat has not reached: the same request is refused in the same words in every world the seat cannot
tell apart (its hidden information re-dealt)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ludus
from ludus.server.errors import Unprocessable
from ludus.server.moves import _played
from ludus.server.runtime import play_forced

GARUM = [
    {"players": p, "board": b, "variant": v}
    for p in (2, 3, 4)
    for b in ("troia", "baelo_claudia")
    for v in ("standard", "emperor", "haruspex")
]
CELTAE = [{"players": p} for p in (2, 3, 4)] + [{"players": 1, "difficulty": "normal"}]
CONFIGS = [("garum", c) for c in GARUM] + [("celtae", c) for c in CELTAE]
WORLDS = 4


def _refusal(state: ludus.State, seat: int, sequence: list[str]) -> str | None:
    """The refusal's text, or None when the request would be played."""
    try:
        _played(state, seat, sequence)
    except Unprocessable as exc:
        return exc.detail
    return None


def _position(name: str, config: dict, seed: int, plies: int) -> ludus.State | None:
    """A position reached by random play as the server plays (single-choice steps played for the seat)."""
    state = ludus.load_game(name, **config).new_initial_state(seed=seed)
    rng = random.Random(seed)
    play_forced(state)
    for _ in range(plies):
        if state.is_terminal():
            return None
        state.apply_action(rng.choice(state.legal_actions()))
        play_forced(state)
    return None if state.is_terminal() else state


def _request(state: ludus.State, seat: int, steps: int, last: str, rng: random.Random) -> list[str]:
    """``steps`` actions the seat could send in a row from ``state`` (each legal in the true world, as a
    cheat would choose them), then ``last``."""
    probe = state.clone()
    sequence = []
    for _ in range(steps):
        if probe.is_terminal() or probe.current_player() != seat:
            break
        legal = [str(a) for a in probe.legal_actions()]
        # half the time, a step that shows something or ends the turn (what a peek needs), if any
        revealing = [a for a in legal if _settles(probe, a)] if rng.random() < 0.5 else []
        action = rng.choice(revealing or legal)
        sequence.append(action)
        probe.apply_action(action)
        play_forced(probe)
    return [*sequence, last]


def _settles(state: ludus.State, action: str) -> bool:
    after = state.clone()
    after.apply_action(action)
    play_forced(after)
    return after.undo_barrier() > len(state.history())


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**31),
    plies=st.integers(0, 160),
    steps=st.integers(1, 4),
    last=st.sampled_from(["pass", "done", "no such move", "move 9", "refresh"]),
)
def test_a_refused_request_reads_the_same_in_every_world_the_seat_cannot_tell_apart(
    config, seed, plies, steps, last
):
    name, options = config
    state = _position(name, options, seed, plies)
    if state is None:
        return
    seat = state.current_player()
    rng = random.Random(seed + 1)
    sequence = _request(state, seat, steps, last, rng)
    told = _refusal(state, seat, sequence)
    for world in range(WORLDS):
        other = state.resample(seat, random.Random(world))
        assert _refusal(other, seat, sequence) == told, (name, options, sequence)


def _celtae_before_refresh(players: int) -> tuple[ludus.State, int]:
    """A Celtae position where the seat to move may refresh its area (which draws hidden workers)."""
    for seed in range(200):
        state = ludus.load_game("celtae", players=players).new_initial_state(seed=seed)
        rng = random.Random(seed)
        play_forced(state)
        for _ in range(400):
            if state.is_terminal():
                break
            legal = [str(a) for a in state.legal_actions()]
            if "refresh" in legal:
                return state, state.current_player()
            state.apply_action(rng.choice(legal))
            play_forced(state)
    raise AssertionError("no refresh offered")


@pytest.mark.parametrize("players", [1, 2])
def test_celtae_refresh_then_a_wrong_move_does_not_show_the_workers_drawn(players):
    """The probe's peek: ``{"action": "refresh", "then": ["move 1"]}`` answered with the drawn workers."""
    state, seat = _celtae_before_refresh(players)
    told = _refusal(state, seat, ["refresh", "move 1"])
    assert told is not None and "swap" not in told and "nothing was played" in told
    assert all(
        _refusal(state.resample(seat, random.Random(w)), seat, ["refresh", "move 1"]) == told
        for w in range(8)
    )


def test_celtae_an_action_after_a_refresh_is_refused_even_when_legal():
    """Playing past a draw in one request would let the seat choose knowing what the draw showed, then
    have the request refused unseen: the barrier ends every request."""
    state, seat = _celtae_before_refresh(2)
    after = state.clone()
    after.apply_action("refresh")
    play_forced(after)
    legal = [str(a) for a in after.legal_actions()] if after.current_player() == seat else []
    if legal:
        told = _refusal(state, seat, ["refresh", legal[0]])
        assert told is not None and "shows something new or ends the turn" in told
    assert _refusal(state, seat, ["refresh"]) is None  # alone, it plays


def _garum_round_end() -> tuple[ludus.State, int, list[str]]:
    """A 2-player standard Garum position where a placement then ``pass`` ends the round."""
    for seed in range(100):
        state = ludus.load_game("garum", players=2).new_initial_state(seed=seed)
        rng = random.Random(seed)
        play_forced(state)
        for _ in range(600):
            if state.is_terminal():
                break
            seat = state.current_player()
            probe = state.clone()
            first = str(rng.choice(probe.legal_actions()))
            probe.apply_action(first)
            play_forced(probe)
            if (
                not probe.is_terminal()
                and probe.current_player() == seat
                and "pass" in map(str, probe.legal_actions())
            ):
                ended = probe.clone()
                ended.apply_action("pass")
                play_forced(ended)
                if not ended.is_terminal() and ended.observation(None).get("round") != probe.observation(
                    None
                ).get("round"):
                    return state, seat, [first, "pass"]
            state.apply_action(rng.choice(state.legal_actions()))
            play_forced(state)
    raise AssertionError("no round end met")


def test_garum_place_pass_then_a_wrong_move_does_not_name_the_next_cetarium():
    """The probe's peek: ``[<place>, "pass", <illegal>]`` at a round's end named the hidden cetarium."""
    state, seat, sequence = _garum_round_end()
    told = _refusal(state, seat, [*sequence, "c1.1 BBBB"])
    assert told is not None and "cetarium" not in told
    assert all(
        _refusal(state.resample(seat, random.Random(w)), seat, [*sequence, "c1.1 BBBB"]) == told
        for w in range(8)
    )


def test_the_first_actions_refusal_still_says_why():
    """Only later actions are refused without the engine's reason: the first one's position is the seat's own."""
    state = ludus.load_game("garum", players=2).new_initial_state(seed=1)
    play_forced(state)
    told = _refusal(state, state.current_player(), ["no such move"])
    assert told is not None and "no such move" in told and len(told) > 40


def _table_before_refresh(table):
    """A 2-player Celtae table through the API, played at random until the seat to move may refresh."""
    for seed in range(40):
        t = table(game="celtae", seats=["human", "human"])
        rng = random.Random(seed)
        for _ in range(300):
            spectator = t.view()
            if spectator["terminal"]:
                break
            seat = spectator["current_player"]
            view = t.view(seat)
            if "refresh" in view["legal_actions"]:
                return t, seat, view
            assert t.act(seat, rng.choice(view["legal_actions"]), view["version"]).status_code == 200
    raise AssertionError("no refresh offered")


def test_the_actions_route_and_the_websocket_refuse_refresh_then_a_wrong_move_without_a_peek(table, client):
    t, seat, view = _table_before_refresh(table)
    body = {"action": "refresh", "version": view["version"], "then": ["move 1"]}
    r = client.post(f"/api/games/{t.id}/actions", json=body, headers=t.auth(seat))
    assert r.status_code == 422 and "swap" not in r.json()["detail"]
    with client.websocket_connect(f"/api/games/{t.id}/ws") as ws:
        assert ws.receive_json()["seat"] is None
        ws.send_json({"token": t.tokens[seat]})
        assert ws.receive_json()["seat"] == seat
        ws.send_json(body)
        refusal = ws.receive_json()["error"]
        assert refusal["status"] == 422 and refusal["detail"] == r.json()["detail"]
    assert t.view(seat)["version"] == view["version"]  # nothing was played
