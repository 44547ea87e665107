"""Fair bots: one game's slow bots cannot hold up another game's bots; a budget counts from when the
bot starts thinking; the server caps a bot's time a move and the games with bots; turn timers
have a minimum; a seat whose turn timer ran out is told so."""

from __future__ import annotations

import threading
import time

import pytest
from fastapi.testclient import TestClient
from server_helpers import wait_for

from ludus.server import create_app
from ludus.server.limits import ServerLimits

BOT_SECONDS = 0.05


class Sleeper:
    """A bot that takes exactly its time budget (sleeping, so no CPU) and counts its moves by speed."""

    moves: dict[str, int]
    lock = threading.Lock()

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def step(self, state):
        time.sleep(self.seconds)
        kind = "slow" if self.seconds > 1 else "quick"
        with Sleeper.lock:
            Sleeper.moves[kind] = Sleeper.moves.get(kind, 0) + 1
        return state.legal_actions()[0]


@pytest.fixture
def sleepers(monkeypatch):
    Sleeper.moves = {}
    made: list[float] = []

    def make(name, seconds):
        made.append(seconds)
        return Sleeper(seconds)

    monkeypatch.setattr("ludus.server.service.make_seat_bot", make)
    return made


def _app(database_url: str, **limits) -> TestClient:
    return TestClient(create_app(database_url, bot_seconds=BOT_SECONDS, limits=ServerLimits(**limits)))


def _wait(client, gid, predicate, seconds=30.0):
    return wait_for(client, gid, predicate, seconds, every=0.02)


def test_ten_games_of_slow_bots_do_not_hold_up_a_game_of_quick_bots(database_url, sleepers):
    with _app(database_url, bot_workers=3, bot_max_seconds=5.0) as client:
        for _ in range(10):
            r = client.post(
                "/api/games", json={"game": "garum", "seats": ["ismcts:seconds=2", "ismcts:seconds=2"]}
            )
            assert r.status_code == 201, r.text
        time.sleep(0.2)  # the slow bots are all thinking or waiting now
        quick = client.post("/api/games", json={"game": "garum", "seats": ["random", "random"]}).json()
        _wait(client, quick["id"], lambda v: v["ply"] >= 12)
        # 12 quick moves of 0.05 s each, while two workers finish a slow 2 s move at a time: served
        # in order behind the slow games, the quick game would have waited for ~10 slow moves each
        assert Sleeper.moves.get("slow", 0) <= 2


@pytest.mark.slow
def test_a_bots_budget_counts_from_when_it_starts_thinking(database_url, monkeypatch):
    monkeypatch.setattr("ludus.server.service.make_seat_bot", lambda name, seconds: Sleeper(0.3))
    Sleeper.moves = {}
    fallbacks = []
    monkeypatch.setattr(
        "ludus.server.automation.fallback_action",
        lambda state: fallbacks.append(1) or state.legal_actions()[0],
    )
    monkeypatch.setattr("ludus.server.automation.overrun_seconds", lambda budget: 0.5)
    with _app(database_url, bot_workers=1) as client:
        # one worker, three games: each bot waits behind the others' 0.3 s moves far longer than
        # the 0.5 s it may overrun, but never thinks longer than that once started
        games = [
            client.post("/api/games", json={"game": "garum", "seats": ["random", "random"]}).json()
            for _ in range(3)
        ]
        for game in games:
            _wait(client, game["id"], lambda v: v["ply"] >= 3)
    assert fallbacks == []


def test_a_bots_time_a_move_is_capped_by_the_server(database_url, sleepers):
    with _app(database_url, bot_max_seconds=0.2) as client:
        r = client.post("/api/games", json={"game": "garum", "seats": ["ismcts:seconds=10", "random"]})
        assert r.status_code == 201, r.text
        assert r.json()["seats"][0]["kind"] == "ismcts:seconds=10"  # as asked: the cap is the server's
        _wait(client, r.json()["id"], lambda v: {e["seat"] for e in v["log"]} == {0, 1})
    assert sleepers and max(sleepers) == 0.2


def _bot_games(database_url: str) -> int:
    from ludus.server.storage import Store

    store = Store(database_url)
    store.migrate()
    try:
        with store.read() as conn:
            return store.count_bot_games(conn)
    finally:
        store.dispose()


def test_games_with_bots_over_the_cap_are_refused_with_429(database_url, sleepers):
    with _app(database_url, max_bot_games=_bot_games(database_url) + 2) as client:
        for _ in range(2):
            assert (
                client.post("/api/games", json={"game": "garum", "seats": ["human", "ismcts"]}).status_code
                == 201
            )
        r = client.post("/api/games", json={"game": "garum", "seats": ["human", "greedy"]})
        assert r.status_code == 429 and "games with bots" in r.json()["detail"]
        assert int(r.headers["Retry-After"]) >= 1
        # human games are not bot games
        assert (
            client.post("/api/games", json={"game": "garum", "seats": ["human", "human"]}).status_code == 201
        )


def test_turn_seconds_below_the_servers_minimum_is_refused(database_url):
    with _app(database_url, min_turn_seconds=10) as client:
        r = client.post(
            "/api/games",
            json={"game": "garum", "seats": ["human", "human"], "options": {"turn_seconds": 0.001}},
        )
        assert r.status_code == 422 and "at least 10" in r.json()["detail"]
        r = client.post(
            "/api/games", json={"game": "garum", "seats": ["human", "human"], "options": {"turn_seconds": 10}}
        )
        assert r.status_code == 201


def test_a_seat_whose_turn_timed_out_is_told_so_in_its_view_and_the_log(database_url):
    with _app(database_url, min_turn_seconds=0.1) as client:
        body = client.post(
            "/api/games",
            json={"game": "garum", "seats": ["human", "human"], "options": {"turn_seconds": 0.3}},
        ).json()
        gid = body["id"]
        tokens = {s["seat"]: s["token"] for s in body["seats"]}
        first = client.get(f"/api/games/{gid}").json()
        idle = first["current_player"]
        _wait(client, gid, lambda v: v["ply"] >= 1)
        mine = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[idle]}"}).json()
        assert mine["seats"][idle]["timed_out"] >= 1
        assert mine["log"][0]["seat"] == idle and mine["log"][0]["timed_out"] is True
        assert mine["log"][0]["played_by"]
    with _app(database_url, min_turn_seconds=0.1) as client:  # kept across a restart
        again = client.get(f"/api/games/{gid}").json()
        assert again["log"][0]["timed_out"] is True and again["seats"][idle]["timed_out"] >= 1
