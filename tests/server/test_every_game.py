"""Every registered game plays whole through the API: each seat is sent exactly its observation."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

import ludus
from ludus.server import create_app
from ludus.server.settings import Settings


@pytest.fixture
def sqlite_client(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path}/ludus.db", settings=Settings(bot_seconds=0.05))) as c:
        yield c


@pytest.mark.parametrize("game", ludus.game_names())
def test_a_whole_game_through_the_api_sends_each_seat_its_own_observation(sqlite_client, game):
    client = sqlite_client
    body = client.post("/api/games", json={"game": game, "seats": ["human", "human"]})
    assert body.status_code == 201, body.text
    gid = body.json()["id"]
    tokens = {s["seat"]: s["token"] for s in body.json()["seats"]}
    service = client.app.state.service
    rng = random.Random(3)
    for _ in range(5000):
        spectator = client.get(f"/api/games/{gid}").json()
        if spectator["terminal"]:
            break
        mover = spectator["current_player"]
        auth = {"Authorization": f"Bearer {tokens[mover]}"}
        mine = client.get(f"/api/games/{gid}", headers=auth).json()
        runtime = service.games.read(gid)
        with runtime.lock:
            assert mine["observation"] == runtime.state.observation(mover)
            assert spectator["observation"] == runtime.state.observation(None)
        r = client.post(
            f"/api/games/{gid}/actions",
            headers=auth,
            json={"action": rng.choice(mine["legal_actions"]), "version": mine["version"]},
        )
        assert r.status_code == 200, r.text
    final = client.get(f"/api/games/{gid}").json()
    assert final["terminal"]
    record = client.get(f"/api/games/{gid}/record").json()
    assert ludus.replay(record).scores() == final["scores"]
