"""A whole replay in one answer: the first public view, then a JSON patch (and board line edits) per step."""

import random

import jsonpatch
import pytest

import ludus

fastapi = pytest.importorskip("fastapi", reason="the server extra is not installed")


def finished(game, seed, **options):
    state = ludus.load_game(game, **options).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def splice(lines, edits):
    for start, count, new in reversed(edits):
        lines[start : start + count] = new
    return lines


def test_every_step_of_a_garum_replay_is_the_first_view_patched_and_its_board_the_servers(client):
    record = finished("garum", 4, players=2).record()
    whole = client.post("/api/replay", json={"record": record, "step": "all"}).json()
    n = len(record["actions"])
    assert whole["steps"] == n and len(whole["patches"]) == n == len(whole["svg_patches"])
    view, lines = whole["first"], whole["svg"].split("\n")
    for step in range(n + 1):
        if step:
            view = jsonpatch.apply_patch(view, whole["patches"][step - 1])
            lines = splice(lines, whole["svg_patches"][step - 1])
        if step % 9 == 0 or step == n:
            one = client.post("/api/replay", json={"record": record, "step": step}).json()
            assert {k: one[k] for k in view} == view
            assert "\n".join(lines) == one["svg"]


def test_a_celtae_replay_without_boards_rebuilds_every_public_observation(client):
    record = finished("celtae", 2, players=2).record()
    whole = client.post("/api/replay", json={"record": record, "step": "all", "svg": False}).json()
    assert whole["svg"] is None and whole["svg_patches"] is None
    view = whole["first"]
    for step in range(len(record["actions"]) + 1):
        if step:
            view = jsonpatch.apply_patch(view, whole["patches"][step - 1])
        assert view["step"] == step
        assert view["observation"] == ludus.replay(record, upto=step).observation(None)


def test_the_whole_replay_comes_compressed_to_a_client_that_takes_gzip(client):
    record = finished("garum", 5, players=2).record()
    answer = client.post(
        "/api/replay", json={"record": record, "step": "all"}, headers={"Accept-Encoding": "gzip"}
    )
    assert answer.headers["content-encoding"] == "gzip"
    assert int(answer.headers["content-length"]) < len(answer.content) / 3


@pytest.mark.parametrize(
    ("record", "says"),
    [
        ({"game": "garum"}, "lacks config, seed, actions"),
        ({"game": "garum", "config": {}, "seed": 1, "actions": ["nonsense"]}, "cannot be replayed"),
    ],
)
def test_a_bad_record_is_refused_whole_saying_why(client, record, says):
    answer = client.post("/api/replay", json={"record": record, "step": "all"})
    assert answer.status_code == 422 and says in answer.json()["detail"]
