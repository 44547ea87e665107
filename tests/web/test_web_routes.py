"""The client's helper endpoints: game metadata, the board SVG of a seat's own view, replays.

The server draws only views it made itself (a seat's by its token, the spectator's, a replay
step); bad input gets a message saying what is wrong.
"""

import random

import pytest
from fastapi.testclient import TestClient

import ludus
from ludus.web import STATIC_DIR


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
            (o.name, list(o.choices), o.default) for o in cls.options
        ]
    assert "random" in meta["bots"]


def test_no_route_draws_a_posted_observation(client):
    """A client never has an observation of its own making drawn (a 1400 x 1400 board was 467 MB of SVG)."""
    state = ludus.load_game("garum", players=2).new_initial_state(seed=3)
    answer = client.post("/api/render", json={"observation": state.observation(1)})
    assert answer.status_code in (404, 405)
    assert not any("render" in getattr(route, "path", "") for route in client.app.routes)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """An app over a real database, with the client's routes."""
    from ludus.server import create_app
    from ludus.server.settings import Settings

    db = tmp_path_factory.mktemp("routes") / "ludus.db"
    with TestClient(create_app(f"sqlite:///{db}", settings=Settings(bot_seconds=0.05))) as c:
        yield c


def _game(served, seats=("human", "human")):
    created = served.post(
        "/api/games", json={"game": "garum", "options": {"board": "baelo_claudia"}, "seats": list(seats)}
    ).json()
    return created["id"], {s["seat"]: s["token"] for s in created["seats"] if "token" in s}


def test_the_board_svg_is_the_servers_own_view_of_the_seat(served):
    from ludus.games.garum.render import render_svg

    gid, tokens = _game(served)
    for seat in (None, 0, 1):
        headers = {"Authorization": f"Bearer {tokens[seat]}"} if seat is not None else {}
        view = served.get(f"/api/games/{gid}", headers=headers).json()
        answer = served.get(f"/api/games/{gid}/svg", headers=headers, params={"version": view["version"]})
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/svg+xml")
        obs = view["observation"]
        expected = render_svg(obs, **({"highlight": obs["cetarium"]} if obs.get("cetarium") else {}))
        assert answer.text == expected


@pytest.mark.parametrize(
    ("headers", "params", "status"),
    [
        ({"Authorization": "Bearer not-a-seat"}, {}, 401),
        ({"Authorization": "Basic abc"}, {}, 401),
        ({}, {"version": 7}, 409),
        ({}, {"version": "x"}, 422),
        ({}, {"version": -1}, 422),
    ],
)
def test_the_board_svg_refuses_a_bad_token_or_a_stale_version(served, headers, params, status):
    gid, _ = _game(served)
    answer = served.get(f"/api/games/{gid}/svg", headers=headers, params=params)
    assert answer.status_code == status and answer.json()["detail"]


def test_a_board_update_is_the_lines_that_changed_since_the_board_the_seat_holds(served):
    gid, tokens = _game(served)
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    view = served.get(f"/api/games/{gid}", headers=auth).json()
    rng = random.Random(3)
    held = served.get(f"/api/games/{gid}/svg", headers=auth, params={"version": view["version"]})
    held_version, held_text = view["version"], held.text
    for _ in range(6):  # moves of both seats; seat 0 follows with line edits of its own board
        mover = view["current_player"]
        legal = served.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[mover]}"}).json()
        view = served.post(
            f"/api/games/{gid}/actions",
            json={"action": rng.choice(legal["legal_actions"]), "version": legal["version"]},
            headers={"Authorization": f"Bearer {tokens[mover]}"},
        ).json()
        view = served.get(f"/api/games/{gid}", headers=auth).json()
        answer = served.get(
            f"/api/games/{gid}/svg", headers=auth, params={"version": view["version"], "since": held_version}
        )
        assert answer.headers["content-type"].startswith("application/json")
        edits = answer.json()
        assert edits["base"] == held_version and edits["version"] == view["version"]
        lines = held_text.split("\n")
        for start, count, new in reversed(edits["splices"]):
            lines[start : start + count] = new
        held_version, held_text = view["version"], "\n".join(lines)
        assert len(answer.content) < len(held_text) / 2  # far less than the whole board
    whole = served.get(f"/api/games/{gid}/svg", headers=auth, params={"version": view["version"]})
    assert whole.headers["content-type"].startswith("image/svg+xml") and whole.text == held_text
    # a board the server no longer knows the seat holds: the whole board again
    again = served.get(f"/api/games/{gid}/svg", headers=auth, params={"version": view["version"], "since": 0})
    assert again.headers["content-type"].startswith("image/svg+xml") and again.text == held_text


def test_the_board_svg_of_an_unknown_game_is_404(served):
    assert served.get("/api/games/nothing/svg").status_code == 404


def test_a_finished_games_replay_by_id_is_the_servers_own(served):
    gid, tokens = _game(served)
    rng = random.Random(2)
    early = served.get(f"/api/games/{gid}/replay", params={"step": 0})
    assert early.status_code == 403  # the record (with its seed) only once the game is over
    while True:
        view = served.get(f"/api/games/{gid}").json()
        if view["terminal"]:
            break
        mover = view["current_player"]
        legal = served.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[mover]}"}).json()
        served.post(
            f"/api/games/{gid}/actions",
            json={"action": rng.choice(legal["legal_actions"]), "version": view["version"]},
            headers={"Authorization": f"Bearer {tokens[mover]}"},
        )
    record = served.get(f"/api/games/{gid}/record").json()
    n = len(record["actions"])
    end = served.get(f"/api/games/{gid}/replay", params={"step": n}).json()
    assert end["terminal"] and end["steps"] == n and end["svg"].startswith("<svg")
    assert served.get(f"/api/games/{gid}/replay", params={"step": n + 1}).status_code == 422


def test_a_posted_record_over_the_body_cap_is_refused(client):
    record = finished().record()
    record["actions"] = record["actions"] * 700
    answer = client.post("/api/replay", json={"record": record, "step": 0})
    assert answer.status_code in (413, 422)


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


@pytest.mark.parametrize(
    ("record", "step", "says"),
    [
        ({"game": "garum"}, 0, "lacks config, seed, actions"),
        ({"game": "garum", "config": {}, "seed": 1, "actions": ["nonsense"]}, 1, "cannot be replayed"),
        ({"game": "garum", "config": {"players": 9}, "seed": 1, "actions": []}, 0, "cannot be loaded"),
        ({"game": "garum", "config": {}, "seed": 1, "actions": []}, 3, "step must be 0..0"),
        ({"game": "garum", "config": {}, "seed": 1, "actions": []}, "x", "step must be an integer"),
    ],
)
def test_replay_refuses_a_bad_record_saying_why(client, record, step, says):
    answer = client.post("/api/replay", json={"record": record, "step": step})
    assert answer.status_code == 422
    assert says in answer.json()["detail"]


def test_celtae_replay_gives_the_score_by_category():
    from ludus.web.routes import replay_step

    state = ludus.load_game("celtae", players=2).new_initial_state(seed=1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    end = replay_step(state.record(), len(state.history()))
    assert [b["total"] for b in end["breakdown"]] == state.scores()
