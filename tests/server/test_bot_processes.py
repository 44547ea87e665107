"""Bots and hints think in worker processes: a decision is made outside the server's process, a bot
past its budget is killed and the stand-in's move played, a worker killed from outside is replaced,
the workers end with the app, hints come from the pool, and on PostgreSQL only one server process
thinks for a game at a time."""

from __future__ import annotations

import os
import signal
import time

import pytest
import sleeper_bots
from fastapi.testclient import TestClient
from server_helpers import wait_for

from ludus.server import create_app
from ludus.server.settings import Settings

FACTORY = "sleeper_bots:make"


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    """The pool does not depend on the database: SQLite only, except for the claims of PostgreSQL."""
    return f"sqlite:///{tmp_path}/ludus.db"


@pytest.fixture
def sleeper_log(tmp_path, monkeypatch):
    """The file the sleeper bots log their decisions to (the workers inherit the variable)."""
    path = tmp_path / "decisions.jsonl"
    monkeypatch.setenv(sleeper_bots.LOG, str(path))
    return path


def _app(database_url: str, **limits) -> TestClient:
    limits.setdefault("bot_processes", 1)
    return TestClient(
        create_app(database_url, settings=Settings(bot_seconds=0.05, **limits), bot_factory=FACTORY)
    )


def _until(what, seconds: float = 60.0):
    """Poll ``what()`` until it is truthy (generous deadline); its value."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.05)
    pytest.fail(f"still not there after {seconds:g} s: {what()!r}")


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def _create(client, seats) -> str:
    r = client.post("/api/games", json={"game": "garum", "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def _first_decision(client, gid: str) -> str:
    """The first action of the game a seat chose (not one the server played as the only choice)."""
    rt = client.app.state.service.games.read(gid)
    with rt.lock:
        return next(a for a, forced in zip(rt.state.history(), rt.forced, strict=False) if not forced)


def test_a_bots_decision_is_made_in_another_process(sqlite_url, sleeper_log):
    with _app(sqlite_url) as client:
        gid = _create(client, ["random", "random"])
        wait_for(client, gid, lambda v: v["ply"] >= 3)
        pool = client.app.state.automation.pool
        pids = {e["pid"] for e in sleeper_bots.events(sleeper_log, "done")}
        assert pids and os.getpid() not in pids
        assert pids <= set(pool.pids())
    assert _until(lambda: all(_gone(pid) for pid in pids), 30)  # the workers end with the app


def test_a_bot_past_its_budget_is_killed_and_the_standins_move_is_played(sqlite_url, sleeper_log):
    with _app(sqlite_url) as client:
        gid = _create(client, ["expert:seconds=0.1", "expert:seconds=0.1"])  # stuck for ten minutes
        stuck = _until(lambda: sleeper_bots.events(sleeper_log, "start", "expert"))[0]["pid"]
        standin = _until(lambda: sleeper_bots.events(sleeper_log, "done", "greedy"))[0]
        assert _until(lambda: _gone(stuck), 30)
        assert standin["pid"] != stuck
        wait_for(client, gid, lambda v: v["ply"] >= 1)
        assert _first_decision(client, gid) == standin["action"]
        pool = client.app.state.automation.pool
        assert pool.stats["overran"] >= 1
        # the pool serves the next job: the game's next stuck decision starts in the new worker
        _until(lambda: len({e["pid"] for e in sleeper_bots.events(sleeper_log, "start", "expert")}) >= 2)
        assert stuck not in pool.pids()


def test_a_worker_killed_from_outside_is_replaced_and_its_job_answered(sqlite_url, sleeper_log):
    # a budget of 5 s: the stand-in plays long before the 11 s overrun, only if the death is seen
    with _app(sqlite_url, bot_max_seconds=5.0) as client:
        gid = _create(client, ["expert:seconds=5", "expert:seconds=5"])
        stuck = _until(lambda: sleeper_bots.events(sleeper_log, "start", "expert"))[0]["pid"]
        os.kill(stuck, signal.SIGKILL)
        standin = _until(lambda: sleeper_bots.events(sleeper_log, "done", "greedy"))[0]
        pool = client.app.state.automation.pool
        assert pool.stats["died"] == 1 and pool.stats["overran"] == 0
        assert standin["pid"] != stuck and standin["pid"] in pool.pids()
        wait_for(client, gid, lambda v: v["ply"] >= 1)
        assert _first_decision(client, gid) == standin["action"]


def test_hints_are_thought_about_in_the_pool_and_the_same_position_gives_the_same_hints(sqlite_url):
    # time for all of a hint's re-deals (0.1-0.2 s here): under a shorter cap a loaded machine could
    # finish fewer of them in one call than in the other, and the hints would differ
    with _app(sqlite_url, hint_seconds=5.0) as client:
        body = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"]}).json()
        gid = body["id"]
        mover = client.get(f"/api/games/{gid}").json()["current_player"]
        auth = {"Authorization": f"Bearer {body['seats'][mover]['token']}"}
        first = client.get(f"/api/games/{gid}/hint", params={"n": 2}, headers=auth)
        assert first.status_code == 200, first.text
        client.app.state.hints._last.clear()  # not the kept answer: thought about again
        again = client.get(f"/api/games/{gid}/hint", params={"n": 2}, headers=auth)
        assert again.status_code == 200, again.text
        assert again.json()["hints"] == first.json()["hints"]
        pool = client.app.state.automation.pool
        assert pool.stats["hint"] == 2 and pool.pids() and os.getpid() not in pool.pids()


def test_only_one_server_process_thinks_for_a_game_at_a_time(postgres_url, sleeper_log):
    # both seats sleep 0.3 s a decision; a second app on the same database resumes every unfinished
    # game at its start, but the first holds the game's claim while the game waits for its bots
    with _app(postgres_url) as first:
        gid = _create(first, ["ismcts:seconds=0.3", "ismcts:seconds=0.3"])
        wait_for(first, gid, lambda v: v["ply"] >= 1)
        with _app(postgres_url) as second:
            before = len(sleeper_bots.events(sleeper_log, "done"))
            _until(lambda: len(sleeper_bots.events(sleeper_log, "done")) >= before + 3)
            other = second.app.state.automation.pool
            assert other.stats["bot"] == 0 and other.pids() == []
        workers = set(first.app.state.automation.pool.pids())
        assert {e["pid"] for e in sleeper_bots.events(sleeper_log, "start")} <= workers
