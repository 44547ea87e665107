"""Room for everyone: one address holds at most ``bot_games_per_host`` unfinished games with bots and
``open_tables_per_host`` open tables (a seat offered in the lobby); over a cap, 429 with Retry-After
saying which cap and how to free a place, and nothing is created; another address is not affected;
counting and inserting are one step, so creations at once cannot pass a cap together. The lobby
lists at most ``lobby_per_host`` open tables of one address, its newest."""

from __future__ import annotations

import threading

from fastapi.testclient import TestClient
from server_helpers import wait_for
from sqlalchemy import func, select

from ludus.server import create_app
from ludus.server.limits import TooManyRequests
from ludus.server.security import host_key
from ludus.server.service import GameService
from ludus.server.settings import Settings
from ludus.server.storage import Store, games

HUMAN_AND_BOT = {"game": "garum", "seats": ["human", "greedy"]}
OPEN_TABLE = {"game": "garum", "seats": ["human", "human"], "claim": [0]}  # seat 1 offered in the lobby
CLOSED_TABLE = {"game": "garum", "seats": ["human", "human"]}  # every seat claimed by its creator


def _app(database_url: str, **limits) -> TestClient:
    return TestClient(create_app(database_url, settings=Settings(bot_seconds=0.05, **limits)))


def _from(client: TestClient, n: int) -> TestClient:
    """The same app, asked from another client address (TEST-NET-1: only a label, nothing is sent)."""
    return TestClient(client.app, client=(f"192.0.2.{n}", 4000))


def _stored_games(client: TestClient) -> int:
    store = client.app.state.service.store
    with store.read() as conn:
        return int(conn.execute(select(func.count()).select_from(games)).scalar_one())


def _created(client: TestClient, body: dict) -> str:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def _refused(client: TestClient, body: dict, *words: str) -> None:
    before = _stored_games(client)
    r = client.post("/api/games", json=body)
    assert r.status_code == 429, r.text
    assert all(word in r.json()["detail"] for word in words), r.json()
    assert int(r.headers["Retry-After"]) >= 1
    assert _stored_games(client) == before


def test_one_address_holds_at_most_its_cap_of_games_with_bots(database_url):
    with _app(database_url, bot_games_per_host=2) as client:
        for _ in range(2):
            _created(client, HUMAN_AND_BOT)
        _refused(client, HUMAN_AND_BOT, "2 unfinished games with bots", "one address", "finish one")
        _created(client, CLOSED_TABLE)  # people only: no game with bots
        _created(_from(client, 1), HUMAN_AND_BOT)  # another address has room of its own


def test_a_game_with_bots_frees_its_place_once_it_is_over(database_url):
    with _app(database_url, bot_games_per_host=1) as client:
        body = client.post("/api/games", json={"game": "garum", "seats": ["human", "random"]}).json()
        _refused(client, HUMAN_AND_BOT, "games with bots")
        auth = {"Authorization": f"Bearer {body['seats'][0]['token']}"}
        assert client.post(f"/api/games/{body['id']}/leave", headers=auth).status_code == 200
        wait_for(client, body["id"], lambda v: v["terminal"], seconds=120)  # the stand-in finishes it
        _created(client, HUMAN_AND_BOT)


def test_one_address_holds_at_most_its_cap_of_open_tables(database_url):
    with _app(database_url, open_tables_per_host=2) as client:
        tables = [_created(client, OPEN_TABLE) for _ in range(2)]
        _refused(client, OPEN_TABLE, "2 open tables", "one address", "claim every human seat")
        _refused(client, {"game": "garum", "seats": ["human", "greedy"], "claim": []}, "open tables")
        _created(client, CLOSED_TABLE)  # nothing offered in the lobby
        stranger = _from(client, 2)
        _created(stranger, OPEN_TABLE)
        assert stranger.post(f"/api/games/{tables[0]}/join").status_code == 200  # full now: not open
        _created(client, OPEN_TABLE)


def test_creations_at_once_cannot_pass_a_cap_together(database_url):
    store = Store(database_url)
    store.migrate()
    service = GameService(store, Settings(bot_games_per_host=1, open_tables_per_host=1))
    start = threading.Barrier(8)
    outcomes: list[str] = []

    def create() -> None:
        start.wait()
        try:
            service.lobby.create("garum", {}, ["human", "greedy"], claim=[], host="192.0.2.50")
            outcomes.append("created")
        except TooManyRequests:
            outcomes.append("refused")

    try:
        threads = [threading.Thread(target=create) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert sorted(outcomes) == ["created"] + ["refused"] * 7
        with store.read() as conn:
            assert conn.execute(select(games.c.host)).scalars().all() == [host_key("192.0.2.50")]
        assert len(service.games._runtimes) == 1  # a refused creation leaves nothing in the cache
    finally:
        store.dispose()


def test_the_lobby_lists_at_most_three_open_tables_of_one_address(database_url):
    with _app(database_url, open_tables_per_host=40, create_rate="1000/minute") as client:
        flood, others, made = [], [], []
        for i in range(30):
            flood.append(_created(client, OPEN_TABLE))
            made.append(flood[-1])
            if i in (9, 19, 28):
                others.append(_created(_from(client, i), OPEN_TABLE))
                made.append(others[-1])
        others.append(_created(_from(client, 99), OPEN_TABLE))
        made.append(others[-1])
        listed = [g["id"] for g in client.get("/api/games").json()]
        shown = set(flood[-3:] + others)  # the flood's newest 3, and every other address's
        assert listed == [gid for gid in reversed(made) if gid in shown]  # newest first
        pages, offset = [], 0
        while page := client.get("/api/games", params={"limit": 2, "offset": offset}).json():
            pages += [g["id"] for g in page]
            offset += 2
        assert pages == listed  # the pages split the same list, each table once
        assert _from(client, 7).post(f"/api/games/{flood[0]}/join").status_code == 200  # by its link


def test_games_of_no_known_address_are_each_their_own_in_the_lobby(database_url):
    with _app(database_url) as client:
        service = client.app.state.service
        unknown = [service.lobby.create("garum", {}, ["human", "human"], claim=[0])["id"] for _ in range(5)]
        listed = {g["id"] for g in client.get("/api/games").json()}
        assert set(unknown) <= listed
