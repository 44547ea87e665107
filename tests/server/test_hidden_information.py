"""No response to one seat ever holds another seat's hand, the seed or the deck before the end.

Whole games are played through the API; every view sent to a seat is checked against the
server's own state: it must be exactly that seat's observation, and no other seat's hidden
tiles may appear in it.
"""

from __future__ import annotations

import json
import random

import pytest


def _hands(observation):
    return {c["player"]: c["hand"] for c in observation["colours"] if c["player"] is not None}


@pytest.mark.parametrize("players", [3])
def test_no_response_to_a_seat_holds_another_seats_hand(client, players):
    body = client.post("/api/games", json={"game": "garum", "seats": ["human"] * players}).json()
    gid = body["id"]
    tokens = {s["seat"]: s["token"] for s in body["seats"]}
    service = client.app.state.service
    rng = random.Random(players)
    checked = 0

    def check(seat, response):
        nonlocal checked
        view = response.json()
        runtime = service.games.read(gid)
        with runtime.lock:
            truth = runtime.state
            assert view["observation"] == truth.observation(seat)
            terminal = truth.is_terminal()
            seed = str(truth.seed)
        hands = _hands(view["observation"])
        for other, hand in hands.items():
            if other != seat:
                assert hand is None, f"seat {seat} was shown seat {other}'s hand"
        if not terminal:
            assert seed not in response.text and '"seed"' not in response.text
        checked += 1

    while True:
        spectator = client.get(f"/api/games/{gid}")
        check(None, spectator)
        if spectator.json()["terminal"]:
            break
        for seat, token in tokens.items():
            check(seat, client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}))
        mover = spectator.json()["current_player"]
        auth = {"Authorization": f"Bearer {tokens[mover]}"}
        mine = client.get(f"/api/games/{gid}", headers=auth).json()
        assert _hands(mine["observation"])[mover] is not None  # a seat does see its own hand
        r = client.post(
            f"/api/games/{gid}/actions",
            headers=auth,
            json={"action": rng.choice(mine["legal_actions"]), "version": mine["version"]},
        )
        assert r.status_code == 200
        check(mover, r)
    assert checked > 50
    assert json.loads(client.get(f"/api/games/{gid}/record").text)["seed"] >= 0


def test_websocket_pushes_hold_only_the_subscribers_view(client):
    body = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"]}).json()
    gid = body["id"]
    tokens = {s["seat"]: s["token"] for s in body["seats"]}
    rng = random.Random(1)
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()
        ws.send_json({"token": tokens[0]})
        assert ws.receive_json()["seat"] == 0
        for _ in range(20):
            view = client.get(f"/api/games/{gid}").json()
            mover = view["current_player"]
            auth = {"Authorization": f"Bearer {tokens[mover]}"}
            mine = client.get(f"/api/games/{gid}", headers=auth).json()
            client.post(
                f"/api/games/{gid}/actions",
                headers=auth,
                json={"action": rng.choice(mine["legal_actions"]), "version": mine["version"]},
            )
            pushed = ws.receive_json()
            assert pushed["seat"] == 0 and _hands(pushed["observation"])[1] is None
            if mover == 1:
                assert pushed["legal_actions"] == [] or pushed["current_player"] == 0
