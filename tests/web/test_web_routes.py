"""The client's helper endpoints: game metadata, SVG of a posted observation, replay of a record.

Rendering draws only the observation it is given (the seat's own view); bad input gets a
message saying what is wrong.
"""

import random

import pytest

import ludus

fastapi = pytest.importorskip("fastapi", reason="the server extra is not installed")
from fastapi.testclient import TestClient  # noqa: E402

from ludus.web import STATIC_DIR, mount  # noqa: E402


@pytest.fixture(scope="module")
def client():
    app = fastapi.FastAPI()
    mount(app)
    return TestClient(app)


def finished(players=2, seed=5):
    state = ludus.load_game("garum", players=players, board="baelo_claudia").new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_pages_are_the_static_files(client):
    assert client.get("/").text == (STATIC_DIR / "index.html").read_text()
    assert client.get("/games/abc").text == (STATIC_DIR / "game.html").read_text()
    assert client.get("/replay").text == (STATIC_DIR / "replay.html").read_text()
    assert client.get("/static/js/game.js").status_code == 200


def test_meta_lists_every_option_of_every_game_and_the_bots(client):
    meta = client.get("/api/meta").json()
    assert [g["name"] for g in meta["games"]] == ludus.game_names()
    for g in meta["games"]:
        cls = ludus.engine.registry.game_class(g["name"])
        assert [(o["name"], o["choices"], o["default"]) for o in g["options"]] == [
            (o.name, list(o.choices), o.default) for o in cls.options]
    assert "random" in meta["bots"]


def test_render_draws_the_posted_observation(client):
    from ludus.garum.render import render_svg

    state = ludus.load_game("garum", players=2).new_initial_state(seed=3)
    obs = state.observation(1)
    answer = client.post("/api/render", json={"observation": obs, "options": {"highlight": obs["cetarium"]}})
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert answer.text == render_svg(obs, highlight=obs["cetarium"])


@pytest.mark.parametrize(("body", "says"), [
    ({"observation": {"game": "chess"}}, "'game' is one of"),
    ({"observation": [1, 2]}, "'game' is one of"),
    ({"observation": {"game": "garum"}}, "cannot draw this observation"),
    ({"observation": {"game": "garum"}, "options": {"size": [1]}}, "render options"),
])
def test_render_refuses_what_it_cannot_draw(client, body, says):
    answer = client.post("/api/render", json=body)
    assert answer.status_code == 422
    assert says in answer.json()["detail"]


def test_replay_steps_through_a_record_in_public_views(client):
    state = finished()
    record = state.record()
    n = len(record["actions"])
    start = client.post("/api/replay", json={"record": record, "step": 0}).json()
    assert start["steps"] == n and start["action"] is None and start["observation"]["placed"] == []
    middle = client.post("/api/replay", json={"record": record, "step": 7}).json()
    assert middle["action"] == record["actions"][6]
    assert middle["observation"] == ludus.replay(record, upto=7).observation(None)
    assert all(c["hand"] is None for c in middle["observation"]["colours"])  # public view only
    end = client.post("/api/replay", json={"record": record, "step": n}).json()
    assert end["terminal"] and end["scores"] == state.scores() and end["winners"] == state.winners()
    assert end["svg"].startswith("<svg")


def test_replay_keeps_a_63_bit_seed_exact(client):
    state = ludus.load_game("garum", players=2).new_initial_state(seed=2**62 + 12345)
    state.apply_action(state.legal_actions()[0])
    answer = client.post("/api/replay", json={"record": state.record(), "step": 1}).json()
    assert answer["observation"] == state.observation(None)


@pytest.mark.parametrize(("record", "step", "says"), [
    ({"game": "garum"}, 0, "lacks config, seed, actions"),
    ({"game": "garum", "config": {}, "seed": 1, "actions": ["nonsense"]}, 1, "cannot be replayed"),
    ({"game": "garum", "config": {"players": 9}, "seed": 1, "actions": []}, 0, "cannot be loaded"),
    ({"game": "garum", "config": {}, "seed": 1, "actions": []}, 3, "step must be 0..0"),
    ({"game": "garum", "config": {}, "seed": 1, "actions": []}, "x", "step must be an integer"),
])
def test_replay_refuses_a_bad_record_saying_why(client, record, step, says):
    answer = client.post("/api/replay", json={"record": record, "step": step})
    assert answer.status_code == 422
    assert says in answer.json()["detail"]


def test_celtae_replay_gives_the_score_by_category():
    if "celtae" not in ludus.game_names():
        pytest.skip("Celtae's engine is not in this tree")
    from ludus.web.routes import replay_step

    state = ludus.load_game("celtae", players=2).new_initial_state(seed=1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    end = replay_step(state.record(), len(state.history()))
    assert [b["total"] for b in end["breakdown"]] == state.scores()
