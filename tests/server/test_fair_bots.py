"""Fair bots: one address's slow bots cannot hold up another address's bots; a budget counts from
when the bot starts thinking; the server caps a bot's time a move and the games with bots; turn
timers have a minimum; a seat whose turn timer ran out is told so.

The bots here are ``sleeper_bots`` (built in the pool's worker processes, logging their decisions),
so the tests count decisions rather than time them."""

from __future__ import annotations

import time

import pytest
import sleeper_bots
from fastapi.testclient import TestClient
from server_helpers import wait_for

from ludus.server import create_app
from ludus.server.botpool import FairQueue, Job
from ludus.server.settings import Settings

BOT_SECONDS = 0.05


@pytest.fixture
def sleeper_log(tmp_path, monkeypatch):
    path = tmp_path / "decisions.jsonl"
    monkeypatch.setenv(sleeper_bots.LOG, str(path))
    return path


def _app(database_url: str, factory: str | None = "sleeper_bots:make", **limits) -> TestClient:
    kwargs = {} if factory is None else {"bot_factory": factory}
    return TestClient(
        create_app(database_url, settings=Settings(bot_seconds=BOT_SECONDS, **limits), **kwargs)
    )


def _wait(client, gid, predicate, seconds=30.0):
    return wait_for(client, gid, predicate, seconds, every=0.02)


def _until(what, seconds: float = 60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found := what():
            return found
        time.sleep(0.02)
    pytest.fail(f"still not there after {seconds:g} s")


def test_one_addresss_slow_bot_games_do_not_hold_up_another_addresss_bots(database_url, sleeper_log):
    with _app(database_url, bot_processes=1, bot_max_seconds=5.0) as client:
        for _ in range(8):  # from "testclient": 8 games whose every decision takes 1 s
            r = client.post("/api/games", json={"game": "garum", "seats": ["ismcts:seconds=1"] * 2})
            assert r.status_code == 201, r.text
        _until(lambda: sleeper_bots.events(sleeper_log, "start", "ismcts"))  # the queue is full now
        other = TestClient(client.app, client=("198.51.100.7", 4000))  # another address, the same app
        r = other.post("/api/games", json={"game": "garum", "seats": ["random", "random"]})
        assert r.status_code == 201, r.text
        quick = 4
        _until(lambda: len(sleeper_bots.events(sleeper_log, "done", "random")) >= quick)
        slow = len(sleeper_bots.events(sleeper_log, "done", "ismcts"))
        # hosts take turns for the one worker: a quick decision waits for at most the slow one
        # running; served by game alone, it would have waited for all 8 slow games each time
        assert slow <= quick + 2, slow


def test_the_queue_serves_addresses_in_turn_then_their_games_in_turn_and_urgent_jobs_first():
    queue = FairQueue()

    def job(host, game):
        return Job("bot", host, game, None, {}, 1.0)  # type: ignore[arg-type]  # no state needed

    queue.put(job("B", "b1"))
    for game in ("a1", "a2", "a3"):
        queue.put(job("A", game))
    queue.put(job(None, "old"))  # a game made before its host was kept: the "unknown" host
    assert [queue.take().game_id for _ in range(2)] == ["b1", "a1"]
    queue.put(job("B", "b1"))  # B asks again after A was served: B's turn comes before A's next
    queue.put(job("A", "a1"))
    urgent = job("A", "a2")
    queue.put(urgent, urgent=True)
    assert queue.take() is urgent
    # then the host served longest ago, and its game served longest ago (a1 was just served)
    assert [queue.take().game_id for _ in range(5)] == ["old", "b1", "a2", "a3", "a1"]
    assert queue.take() is None and len(queue) == 0


@pytest.mark.slow
def test_a_bots_budget_counts_from_when_it_starts_thinking(database_url, sleeper_log, monkeypatch):
    monkeypatch.setattr("ludus.server.botpool.overrun_seconds", lambda budget: 1.0)
    with _app(database_url, bot_processes=1) as client:
        # one worker, eight games of 0.25 s decisions: each waits behind the others' (1.75 s) longer
        # than the 1 s it may think, but never thinks longer than a quarter of that once started
        games = [
            client.post("/api/games", json={"game": "garum", "seats": ["ismcts:seconds=0.25"] * 2}).json()
            for _ in range(8)
        ]
        for game in games:
            _wait(client, game["id"], lambda v: v["ply"] >= 3, seconds=60)
        assert client.app.state.automation.pool.stats["overran"] == 0
    assert sleeper_bots.events(sleeper_log, bot="greedy") == []  # no stand-in played


def test_a_bots_time_a_move_is_capped_by_the_server(database_url, sleeper_log):
    with _app(database_url, bot_max_seconds=0.2) as client:
        r = client.post("/api/games", json={"game": "garum", "seats": ["ismcts:seconds=10", "random"]})
        assert r.status_code == 201, r.text
        assert r.json()["seats"][0]["kind"] == "ismcts:seconds=10"  # as asked: the cap is the server's
        _wait(client, r.json()["id"], lambda v: {e["seat"] for e in v["log"]} == {0, 1})
    assert {e["seconds"] for e in sleeper_bots.events(sleeper_log, "start", "ismcts")} == {0.2}


def _bot_games(database_url: str) -> int:
    from ludus.server.storage import Store

    store = Store(database_url)
    store.migrate()
    try:
        with store.read() as conn:
            return store.count_bot_games(conn)
    finally:
        store.dispose()


def test_games_with_bots_over_the_cap_are_refused_with_429(database_url, sleeper_log):
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
    with _app(database_url, factory=None, min_turn_seconds=10) as client:
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
    with _app(database_url, factory=None, min_turn_seconds=0.1) as client:
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
    with _app(database_url, factory=None, min_turn_seconds=0.1) as client:  # kept across a restart
        again = client.get(f"/api/games/{gid}").json()
        assert again["log"][0]["timed_out"] is True and again["seats"][idle]["timed_out"] >= 1
