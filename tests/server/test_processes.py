"""Real server processes: a SIGKILL mid-game loses nothing acknowledged; two processes share games."""

from __future__ import annotations

import json
import random

import httpx
import pytest
from websockets.sync.client import connect


@pytest.mark.slow
def test_a_killed_server_resumes_every_game_where_its_last_acknowledged_action_left_it(
    database_url, server_process, table_on
):
    server = server_process(database_url)
    rng = random.Random(11)
    with httpx.Client(base_url=server.base, timeout=10) as http:
        t = table_on(http, seats=["human", "human", "human"])
        t.play_random(rng, moves=15)
        acknowledged = {seat: t.view(seat) for seat in (None, *t.tokens)}
    server.kill()  # SIGKILL: no shutdown of any kind
    again = server_process(database_url, port=server.port)
    with httpx.Client(base_url=again.base, timeout=10) as http:
        t.client = http
        for seat, view in acknowledged.items():
            now = t.view(seat)
            assert (now["version"], now["observation"], now["legal_actions"], now["scores"]) == (
                view["version"],
                view["observation"],
                view["legal_actions"],
                view["scores"],
            )
        t.play_random(rng, moves=10)
        assert t.view()["version"] == acknowledged[None]["version"] + 10


@pytest.mark.slow
def test_a_move_through_one_process_is_pushed_to_a_websocket_of_the_other(postgres_url, server_process):
    a, b = server_process(postgres_url, count=2)
    with httpx.Client(timeout=10) as http:
        body = http.post(f"{a.base}/api/games", json={"game": "garum", "seats": ["human", "human"]}).json()
        gid = body["id"]
        tokens = {s["seat"]: s["token"] for s in body["seats"]}
        with connect(f"ws://127.0.0.1:{b.port}/api/games/{gid}/ws", open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["version"] == 0
            ws.send(json.dumps({"token": tokens[1]}))
            assert json.loads(ws.recv(timeout=10))["seat"] == 1
            mover = http.get(f"{a.base}/api/games/{gid}").json()["current_player"]
            auth = {"Authorization": f"Bearer {tokens[mover]}"}
            mine = http.get(f"{a.base}/api/games/{gid}", headers=auth).json()
            r = http.post(
                f"{a.base}/api/games/{gid}/actions",
                headers=auth,
                json={"action": mine["legal_actions"][0], "version": 0},
            )
            assert r.status_code == 200
            pushed = json.loads(ws.recv(timeout=10))
            assert pushed["version"] == 1 and pushed["seat"] == 1
            assert (
                pushed["observation"]
                == http.get(
                    f"{b.base}/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[1]}"}
                ).json()["observation"]
            )
        # the same move sent to both processes at the same version: exactly one wins
        view = http.get(f"{b.base}/api/games/{gid}").json()
        auth = {"Authorization": f"Bearer {tokens[view['current_player']]}"}
        mine = http.get(f"{b.base}/api/games/{gid}", headers=auth).json()
        move = {"action": mine["legal_actions"][0], "version": mine["version"]}
        codes = sorted(
            http.post(f"{base}/api/games/{gid}/actions", headers=auth, json=move).status_code
            for base in (b.base, a.base)
        )
        assert codes[0] == 200 and codes[1] in (403, 409)
        assert http.get(f"{a.base}/api/games/{gid}").json()["version"] == mine["version"] + 1
