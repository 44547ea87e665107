"""Bots as seats: they move server-side by themselves, within a time budget; the turn timer."""

from __future__ import annotations

import threading
import time

import pytest
from server_helpers import wait_for

import ludus
import ludus.bots
from ludus.server import create_app
from ludus.server.limits import ServerLimits

BOT_SECONDS = 0.05


@pytest.fixture
def quick_timer_client(database_url):
    """A server that allows turn timers far below the default minimum (10 s), to see one run out."""
    from fastapi.testclient import TestClient

    with TestClient(
        create_app(database_url, bot_seconds=BOT_SECONDS, limits=ServerLimits(min_turn_seconds=0.1))
    ) as c:
        yield c


@pytest.mark.parametrize("bot", ludus.bots.names())
def test_every_bot_can_hold_a_seat_and_finish_a_game(client, bot):
    body = client.post("/api/games", json={"game": "garum", "seats": [bot, "random"]}).json()
    final = wait_for(client, body["id"], lambda v: v["terminal"], seconds=60)
    record = client.get(f"/api/games/{body['id']}/record").json()
    assert ludus.replay(record).scores() == final["scores"]


@pytest.mark.slow
def test_a_seat_bot_strength_is_its_time_a_move(client):
    body = client.post("/api/games", json={"game": "garum", "seats": ["ismcts:seconds=0.1", "random"]}).json()
    assert body["seats"][0]["kind"] == "ismcts:seconds=0.1"
    final = wait_for(client, body["id"], lambda v: v["terminal"], seconds=60)
    record = client.get(f"/api/games/{body['id']}/record").json()
    assert ludus.replay(record).scores() == final["scores"]


def test_a_bot_moves_right_after_a_human(client):
    body = client.post("/api/games", json={"game": "garum", "seats": ["human", "random"]}).json()
    gid, auth = body["id"], {"Authorization": f"Bearer {body['seats'][0]['token']}"}
    view = wait_for(client, gid, lambda v: v["current_player"] == 0)
    while view["current_player"] == 0:
        mine = client.get(f"/api/games/{gid}", headers=auth).json()
        view = client.post(
            f"/api/games/{gid}/actions",
            json={"action": mine["legal_actions"][0], "version": mine["version"]},
            headers=auth,
        ).json()
    wait_for(client, gid, lambda v: v["current_player"] == 0 or v["terminal"])


def test_the_turn_timer_lets_a_bot_play_an_idle_seats_turn(quick_timer_client):
    client = quick_timer_client
    body = client.post(
        "/api/games", json={"game": "garum", "seats": ["human", "human"], "options": {"turn_seconds": 0.3}}
    ).json()
    assert body["options"]["turn_seconds"] == 0.3
    gid = body["id"]
    first = client.get(f"/api/games/{gid}").json()
    moved = wait_for(client, gid, lambda v: v["current_player"] != first["current_player"], seconds=10)
    assert moved["ply"] >= 1
    record_config = ludus.load_game("garum", players=2).config  # turn_seconds is not an engine option
    assert set(moved["options"]) == set(record_config) | {"turn_seconds"}


def test_a_bot_over_its_time_budget_is_replaced_by_a_random_move(client, monkeypatch):
    release = threading.Event()

    class Stuck:
        def step(self, state):
            release.wait(10)
            return state.legal_actions()[0]

    monkeypatch.setattr("ludus.server.service.make_seat_bot", lambda name, seconds: Stuck())
    body = client.post("/api/games", json={"game": "garum", "seats": ["random", "random"]}).json()
    try:
        wait_for(
            client, body["id"], lambda v: v["ply"] >= 1, seconds=5
        )  # budget 0.05 s: gives up after 1.1 s
    finally:
        release.set()


def test_requests_are_answered_while_bots_think(client, monkeypatch):
    release = threading.Event()

    class Slow:
        def step(self, state):
            release.wait(10)
            return state.legal_actions()[0]

    monkeypatch.setattr("ludus.server.service.make_seat_bot", lambda name, seconds: Slow())
    body = client.post("/api/games", json={"game": "garum", "seats": ["random", "random"]}).json()
    try:
        started = time.monotonic()
        for _ in range(5):
            assert client.get(f"/api/games/{body['id']}").status_code == 200
            assert client.get("/api/games").status_code == 200
        assert time.monotonic() - started < 1.0  # not waiting behind the thinking bot
    finally:
        release.set()
