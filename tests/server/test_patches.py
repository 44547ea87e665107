"""JSON patches of live views: each one turns the client's last view into the next, far smaller than it."""

from __future__ import annotations

import copy
import random

import jsonpatch
import orjson
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

import ludus
from ludus.server import create_app
from ludus.server.patches import diff
from ludus.server.settings import Settings

# JSON values as views hold them: no value turns from a number into a boolean in place (Python's
# 1 == True would hide it inside an unchanged-looking container; the diff documents it).
scalars = st.none() | st.integers(-5, 5) | st.text(alphabet="ab/~0", max_size=3)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(alphabet="ab/~1", max_size=3), inner, max_size=5)
    ),
    max_leaves=25,
)


@settings(max_examples=150, deadline=None)
@given(values, values)
def test_a_diff_applied_by_jsonpatch_gives_the_new_value(old, new):
    ops = diff(old, new)
    assert jsonpatch.apply_patch(copy.deepcopy(old), ops) == new


@settings(max_examples=50, deadline=None)
@given(values)
def test_a_value_unchanged_gives_an_empty_patch(value):
    assert diff(value, copy.deepcopy(value)) == []


def test_a_number_turned_into_a_boolean_is_replaced():
    assert diff({"a": 1}, {"a": True}) == [{"op": "replace", "path": "/a", "value": True}]


@pytest.mark.parametrize("game", ["garum", "celtae"])
def test_each_view_of_a_whole_game_is_the_last_one_patched_and_its_patch_is_smaller(game):
    state = ludus.load_game(game, players=2).new_initial_state(seed=7)
    rng = random.Random(7)
    views = []
    while True:
        views.append(
            orjson.loads(
                orjson.dumps(
                    {
                        "observation": state.observation(0),
                        "log": state.log(0),
                        "scores": list(state.scores()),
                    },
                    option=orjson.OPT_NON_STR_KEYS,
                )
            )
        )
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    for old, new in zip(views, views[1:], strict=False):
        ops = diff(old, new)
        assert jsonpatch.apply_patch(old, ops) == new
        assert len(orjson.dumps(ops)) < len(orjson.dumps(new))


@pytest.fixture
def client(tmp_path):
    """SQLite only: the patches are made above the database."""
    with TestClient(create_app(f"sqlite:///{tmp_path}/ludus.db", settings=Settings(bot_seconds=0.05))) as c:
        yield c


def test_a_socket_that_asks_for_patches_rebuilds_every_view_of_its_seat(client, table):
    t = table(game="garum", seats=["human", "human"])
    rng = random.Random(3)
    with client.websocket_connect(f"/api/games/{t.id}/ws?patches=1") as ws:
        assert ws.receive_json()["seat"] is None
        ws.send_json({"token": t.tokens[0]})
        live = ws.receive_json()
        assert live["seat"] == 0
        patches = 0
        for _ in range(6):
            mover = t.mover_view()
            assert (
                t.act(mover["seat"], rng.choice(mover["legal_actions"]), mover["version"]).status_code == 200
            )
            message = ws.receive_json()
            if "patch" in message:
                assert message["seat"] == 0 and message["base"] == live["version"]
                live = jsonpatch.apply_patch(live, message["patch"])
                patches += 1
            else:
                live = message
            expected = t.view(0)
            assert live["version"] == message["version"] == expected["version"]
            assert {**live, "server_time": 0} == {**expected, "server_time": 0}
        assert patches >= 5  # the first push after the token may come whole; every later one is a patch


def test_a_socket_that_does_not_ask_gets_whole_views(client, table):
    t = table(game="garum", seats=["human", "human"])
    with client.websocket_connect(f"/api/games/{t.id}/ws") as ws:
        ws.receive_json()
        for expected in (1, 2):
            mover = t.mover_view()
            t.act(mover["seat"], mover["legal_actions"][0], mover["version"])
            pushed = ws.receive_json()
            assert "patch" not in pushed and pushed["version"] == expected


def test_a_change_that_keeps_the_version_is_sent_whole(client):
    body = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"], "claim": [0]}).json()
    gid = body["id"]
    with client.websocket_connect(f"/api/games/{gid}/ws?patches=1") as ws:
        assert ws.receive_json()["seats"][1]["free"]
        client.post(f"/api/games/{gid}/join")
        joined = ws.receive_json()
        assert "patch" not in joined and not joined["seats"][1]["free"]


@settings(max_examples=80, deadline=None)
@given(st.lists(values, min_size=1, max_size=8), values, st.data())
def test_one_item_inserted_or_removed_in_a_list_is_one_operation(items, item, data):
    i = data.draw(st.integers(0, len(items)))
    grown = items[:i] + [item] + items[i:]
    for old, new in ((items, grown), (grown, items)):
        ops = diff({"l": old}, {"l": new})
        assert jsonpatch.apply_patch({"l": copy.deepcopy(old)}, ops) == {"l": new}
        assert len(ops) == 1
