"""Bots as seats: they move server-side by themselves, within a time budget; the turn timer."""

from __future__ import annotations

import time

import pytest
from server_helpers import wait_for

import ludus
import ludus.bots
from ludus.server import create_app
from ludus.server.settings import Settings

BOT_SECONDS = 0.05


@pytest.fixture
def quick_timer_client(database_url):
    """A server that allows turn timers far below the default minimum (10 s), to see one run out."""
    from fastapi.testclient import TestClient

    with TestClient(
        create_app(database_url, settings=Settings(bot_seconds=BOT_SECONDS, min_turn_seconds=0.1))
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


@pytest.fixture
def stuck_client(database_url, tmp_path, monkeypatch):
    """A server whose bots are ``sleeper_bots`` (in its worker processes): ``expert`` seats never answer."""
    from fastapi.testclient import TestClient

    monkeypatch.setenv("LUDUS_SLEEPER_LOG", str(tmp_path / "decisions.jsonl"))
    app = create_app(
        database_url,
        settings=Settings(bot_seconds=BOT_SECONDS, bot_max_seconds=5.0),
        bot_factory="sleeper_bots:make",
    )
    with TestClient(app) as c:
        yield c


def test_a_bot_over_its_time_budget_is_replaced_by_the_standin(stuck_client):
    body = stuck_client.post("/api/games", json={"game": "garum", "seats": ["expert", "expert"]}).json()
    # budget 0.05 s: its worker is killed after 1.1 s and the stand-in plays the move
    wait_for(stuck_client, body["id"], lambda v: v["ply"] >= 1, seconds=30)
    assert stuck_client.app.state.automation.pool.stats["overran"] >= 1


def test_requests_are_answered_while_bots_think(stuck_client, tmp_path):
    import sleeper_bots

    log = tmp_path / "decisions.jsonl"
    body = stuck_client.post(
        "/api/games", json={"game": "garum", "seats": ["expert:seconds=5", "expert:seconds=5"]}
    ).json()
    deadline = time.monotonic() + 30
    while not sleeper_bots.events(log, "start") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sleeper_bots.events(log, "start")  # a bot is thinking (for 11 s before it is killed)
    for _ in range(5):
        assert stuck_client.get(f"/api/games/{body['id']}").status_code == 200
        assert stuck_client.get("/api/games").status_code == 200
    assert not sleeper_bots.events(log, "done")  # ...and still thinking
    assert stuck_client.app.state.automation.pool.stats["overran"] == 0
