"""Bounded growth: idle games expire (kept, marked abandoned), the lobby is paginated and lists only
joinable games, create and join are rate-limited per client address, start-up resumes only games
with bots or timers, WebSockets are capped per game and per client, slow request bodies time out."""

from __future__ import annotations

import json
import socket
import time

import pytest
from fastapi.testclient import TestClient
from server_helpers import wait_for
from sqlalchemy import select, update
from starlette.websockets import WebSocketDisconnect

from ludus.server import create_app
from ludus.server.settings import Settings
from ludus.server.storage import Store, games

BOT_SECONDS = 0.05
HUMANS = {"game": "garum", "seats": ["human", "human"]}


def _app(database_url: str, **limits) -> TestClient:
    return TestClient(create_app(database_url, settings=Settings(bot_seconds=BOT_SECONDS, **limits)))


def _age(database_url: str, game_id: str, days: float) -> None:
    """Move the game's stored times ``days`` into the past, as if nobody had touched it since."""
    store = Store(database_url)
    try:
        store.transact(
            lambda conn: conn.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(
                    created_at=games.c.created_at - days * 86400,
                    updated_at=games.c.updated_at - days * 86400,
                    renewed_at=games.c.renewed_at - days * 86400,
                )
            )
        )
    finally:
        store.dispose()


def test_an_idle_unfinished_game_expires_as_an_abandoned_record(database_url):
    with _app(database_url, expire_days=14) as client:
        old = client.post("/api/games", json={**HUMANS, "claim": [0]}).json()
        fresh = client.post("/api/games", json={**HUMANS, "claim": [0]}).json()
    _age(database_url, old["id"], 15)
    _age(database_url, fresh["id"], 13)
    with _app(database_url, expire_days=14) as client:  # the start-up sweep marks it
        view = client.get(f"/api/games/{old['id']}").json()
        assert view["status"] == "abandoned" and not view["terminal"]
        assert client.get(f"/api/games/{fresh['id']}").json()["status"] == "playing"
        listed = {g["id"] for g in client.get("/api/games").json()}
        assert fresh["id"] in listed and old["id"] not in listed
        # seat 0, to move or not: an action is refused first because the game was abandoned
        auth = {"Authorization": f"Bearer {old['seats'][0]['token']}"}
        mine = client.get(f"/api/games/{old['id']}", headers=auth).json()
        r = client.post(
            f"/api/games/{old['id']}/actions",
            headers=auth,
            json={"action": (mine["legal_actions"] or ["pass"])[0], "version": mine["version"]},
        )
        assert r.status_code == 403 and "abandoned" in r.json()["detail"]
        assert client.post(f"/api/games/{old['id']}/join").status_code == 409
        record = client.get(f"/api/games/{old['id']}/record")
        assert record.status_code == 200 and record.json()["actions"] == []  # kept as a record


def test_the_expiry_sweep_leaves_finished_and_recent_games_alone(database_url):
    with _app(database_url) as client:
        service = client.app.state.service
        recent = client.post("/api/games", json=HUMANS).json()["id"]
        over = client.post("/api/games", json={"game": "garum", "seats": ["random", "random"]}).json()["id"]
        deadline = time.monotonic() + 60
        while not client.get(f"/api/games/{over}").json()["terminal"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        _age(database_url, over, 100)
        expired = service.expire_idle()
        assert recent not in expired and over not in expired
        assert client.get(f"/api/games/{over}").json()["status"] == "over"
        assert (
            service.expire_idle(now=time.time() + 15 * 86400)
            and client.get(f"/api/games/{recent}").json()["status"] == "abandoned"
        )


def _stored_times(client: TestClient, game_id: str) -> tuple[float, float]:
    """The game's ``renewed_at`` (a person at the table last played) and ``updated_at`` (anyone did)."""
    store = client.app.state.service.store
    with store.read() as conn:
        row = conn.execute(select(games.c.renewed_at, games.c.updated_at).where(games.c.id == game_id)).one()
    return float(row.renewed_at), float(row.updated_at)


def _play_as(client: TestClient, created: dict, seat: int) -> None:
    game_id = created["id"]
    auth = {"Authorization": f"Bearer {created['seats'][seat]['token']}"}
    mine = client.get(f"/api/games/{game_id}", headers=auth).json()
    r = client.post(
        f"/api/games/{game_id}/actions",
        headers=auth,
        json={"action": mine["legal_actions"][0], "version": mine["version"]},
    )
    assert r.status_code == 200, r.text


def test_a_game_where_only_bots_moved_expires_from_the_last_move_of_a_person(database_url):
    with _app(database_url, expire_days=14) as client:
        created = client.post("/api/games", json={"game": "garum", "seats": ["human", "random"]}).json()
        gid = created["id"]
        while client.get(f"/api/games/{gid}").json()["current_player"] == 0:  # the person's whole turn
            _play_as(client, created, 0)
        wait_for(client, gid, lambda v: v["current_player"] == 0 and v["log"] and v["log"][-1]["seat"] == 1)
        renewed, updated = _stored_times(client, gid)
        assert renewed < updated  # the bot's moves came later and did not renew the game
        expiry = 14 * 86400
        # past the expiry counted from the person's last move, not from the bot's
        assert gid in client.app.state.service.expire_idle(now=(renewed + updated) / 2 + expiry)
        assert client.get(f"/api/games/{gid}").json()["status"] == "abandoned"


def test_a_game_where_only_a_stand_in_played_for_longer_than_the_expiry_is_abandoned(database_url):
    with _app(database_url, expire_days=14) as client:
        created = client.post("/api/games", json=HUMANS).json()
        gid = created["id"]
        gone = client.get(f"/api/games/{gid}").json()["current_player"]
        _age(database_url, gid, 15)  # nobody played for 15 days; then the seat to move leaves
        auth = {"Authorization": f"Bearer {created['seats'][gone]['token']}"}
        assert client.post(f"/api/games/{gid}/leave", headers=auth).status_code == 200
        wait_for(client, gid, lambda v: v["ply"] >= 1 and v["current_player"] != gone)  # a stand-in played
        assert gid in client.app.state.service.expire_idle()
        assert client.get(f"/api/games/{gid}").json()["status"] == "abandoned"


def test_a_persons_move_renews_an_idle_game(database_url):
    with _app(database_url, expire_days=14) as client:
        moved = client.post("/api/games", json=HUMANS).json()
        idle = client.post("/api/games", json=HUMANS).json()
        for created in (moved, idle):
            _age(database_url, created["id"], 15)
        _play_as(client, moved, client.get(f"/api/games/{moved['id']}").json()["current_player"])
        expired = client.app.state.service.expire_idle()
        assert idle["id"] in expired and moved["id"] not in expired
        assert client.get(f"/api/games/{moved['id']}").json()["status"] == "playing"


def test_a_table_with_a_long_turn_timer_outlives_twice_its_time_to_move(database_url):
    day = 86400
    with _app(database_url, expire_days=1) as client:
        body = {**HUMANS, "options": {"turn_seconds": 3 * day}}
        gid = client.post("/api/games", json=body).json()["id"]
        service, now = client.app.state.service, time.time()
        assert gid not in service.expire_idle(now=now + 5.9 * day)  # past the expiry, within 2 x 3 days
        assert client.get(f"/api/games/{gid}").json()["status"] == "playing"
        assert gid in service.expire_idle(now=now + 6.1 * day)


def test_the_lobby_is_paginated_and_lists_only_joinable_games(database_url):
    with _app(database_url, lobby_page=3, lobby_per_host=10) as client:  # one address's 4 tables
        joinable = [client.post("/api/games", json={**HUMANS, "claim": [0]}).json()["id"] for _ in range(4)]
        full = client.post("/api/games", json=HUMANS).json()["id"]  # both seats taken by the creator
        bots = client.post("/api/games", json={"game": "garum", "seats": ["random", "random"]}).json()["id"]
        pages, offset = [], 0
        while True:
            r = client.get("/api/games", params={"limit": 2, "offset": offset})
            assert r.status_code == 200
            if not r.json():
                break
            pages.append([g["id"] for g in r.json()])
            offset += 2
        seen = [gid for page in pages for gid in page]
        assert len(seen) == len(set(seen))  # no game on two pages
        assert set(joinable) <= set(seen) and full not in seen and bots not in seen
        assert all(g["free_seats"] >= 1 for g in client.get("/api/games").json())
        assert len(client.get("/api/games").json()) <= 3
        for bad in ({"limit": 0}, {"limit": 4}, {"offset": -1}, {"limit": "x"}):
            r = client.get("/api/games", params=bad)
            assert r.status_code == 422, (bad, r.text)


def test_creating_games_is_rate_limited_per_client_address(database_url):
    with _app(database_url, create_rate="3/minute") as client:
        for _ in range(3):
            assert client.post("/api/games", json=HUMANS).status_code == 201
        r = client.post("/api/games", json=HUMANS)
        assert r.status_code == 429 and "too many create" in r.json()["detail"]
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        other = TestClient(client.app, client=("192.0.2.7", 4000))  # another address has its own budget
        assert other.post("/api/games", json=HUMANS).status_code == 201


def test_joining_is_rate_limited_per_client_address(database_url):
    with _app(database_url, join_rate="2/minute") as client:
        gid = client.post("/api/games", json={"game": "garum", "seats": ["human"] * 4, "claim": []}).json()[
            "id"
        ]
        assert [client.post(f"/api/games/{gid}/join").status_code for _ in range(3)] == [200, 200, 429]
        assert client.get(f"/api/games/{gid}").json()["seats"][2]["free"]  # the refused join took nothing


def test_start_up_resumes_only_games_with_bots_or_timers(database_url):
    with _app(database_url) as client:
        humans = client.post("/api/games", json=HUMANS).json()["id"]
        timed = client.post("/api/games", json={**HUMANS, "options": {"turn_seconds": 3600}}).json()["id"]
        with_bot = client.post("/api/games", json={"game": "garum", "seats": ["human", "ismcts"]}).json()[
            "id"
        ]
    with _app(database_url) as client:
        resumed = set(client.app.state.service.resumable_ids())
        assert timed in resumed and with_bot in resumed and humans not in resumed
        runtimes = client.app.state.service.games._runtimes
        deadline = time.monotonic() + 30  # the resumed games are loaded as their drivers start
        while not {timed, with_bot} <= set(runtimes):
            assert time.monotonic() < deadline, "the games with bots or timers were not resumed"
            time.sleep(0.05)
        assert humans not in runtimes  # not loaded until asked for
        assert client.get(f"/api/games/{humans}").status_code == 200  # and then loaded on first use


def _ws_refused(ws) -> dict:
    message = ws.receive_json()
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 4429
    return message


def test_open_websockets_are_capped_per_game(database_url):
    with _app(database_url, ws_per_game=2) as client:
        gid = client.post("/api/games", json=HUMANS).json()["id"]
        other = client.post("/api/games", json=HUMANS).json()["id"]
        with (
            client.websocket_connect(f"/api/games/{gid}/ws") as a,
            client.websocket_connect(f"/api/games/{gid}/ws") as b,
        ):
            assert a.receive_json()["id"] == gid and b.receive_json()["id"] == gid
            with client.websocket_connect(f"/api/games/{gid}/ws") as c:
                refusal = _ws_refused(c)
                assert refusal["error"]["status"] == 429 and "open WebSockets" in refusal["error"]["detail"]
            with client.websocket_connect(f"/api/games/{other}/ws") as d:  # another game is not affected
                assert d.receive_json()["id"] == other
        with client.websocket_connect(f"/api/games/{gid}/ws") as e:  # closed sockets give their place back
            assert e.receive_json()["id"] == gid


def test_open_websockets_are_capped_per_client_address(database_url):
    with _app(database_url, ws_per_client=2) as client:
        ids = [client.post("/api/games", json=HUMANS).json()["id"] for _ in range(3)]
        with (
            client.websocket_connect(f"/api/games/{ids[0]}/ws") as a,
            client.websocket_connect(f"/api/games/{ids[1]}/ws") as b,
        ):
            a.receive_json(), b.receive_json()
            with client.websocket_connect(f"/api/games/{ids[2]}/ws") as c:
                assert _ws_refused(c)["error"]["status"] == 429
            other = TestClient(client.app, client=("192.0.2.8", 4000))
            with other.websocket_connect(f"/api/games/{ids[2]}/ws") as d:
                assert d.receive_json()["id"] == ids[2]


def test_a_request_body_sent_too_slowly_is_answered_408(database_url, server_process, monkeypatch):
    monkeypatch.setenv("LUDUS_BODY_SECONDS", "1")
    server = server_process(database_url)
    body = json.dumps(HUMANS).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body) + body[:5]
        )
        answer = sock.recv(4096)
        while b"}" not in answer:  # the body may come in a segment of its own
            more = sock.recv(4096)
            if not more:
                break
            answer += more
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"did not arrive within 1 s" in answer  # the setting's limit, not the default's
