"""A WebSocket's action is played on the event loop's thread (``Moves.play_on_loop``): only the write
waits, on SQLite's writer thread. Whatever it cannot be sure of goes to ``play``, synced first."""

from __future__ import annotations

import asyncio

import pytest

from ludus.server.errors import Conflict, Unprocessable
from ludus.server.service import GameService
from ludus.server.storage import Store


@pytest.fixture
def two_services(tmp_path):
    """Two services on one SQLite file, as two processes would be."""
    url = f"sqlite:///{tmp_path}/ludus.db"
    a_store, b_store = Store(url), Store(url)
    a_store.migrate()
    yield GameService(a_store), GameService(b_store)
    a_store.dispose()
    b_store.dispose()


def _game(service):
    created = service.create("garum", {}, ["human", "human"])
    return created["id"], {s["seat"]: s["token"] for s in created["seats"]}


def _move(service, gid, tokens):
    seat = service.view(gid, None)["current_player"]
    view = service.view(gid, tokens[seat])
    return tokens[seat], view["legal_actions"][0], view["version"]


def test_an_action_on_the_loop_is_stored_and_followed_by_the_cache(two_services):
    a, b = two_services
    gid, tokens = _game(a)
    token, action, version = _move(a, gid, tokens)
    played, answer = asyncio.run(a.play_on_loop(gid, token, action, version, (), lambda rt, seat: rt.version))
    assert played and answer == version + 1 == a.view(gid, None)["version"]
    assert b.view(gid, None) | {"server_time": 0} == a.view(gid, None) | {"server_time": 0}


def test_a_move_made_elsewhere_is_found_at_the_write_and_left_to_the_synced_path(two_services):
    a, b = two_services
    gid, tokens = _game(a)
    token, action, version = _move(a, gid, tokens)  # a's cache is now current
    b.act(gid, token, action, version)  # another process plays that very move
    # the cache of a still says ``version``: the loop plays, the write sees the row moved, nothing stored
    assert asyncio.run(a.play_on_loop(gid, token, action, version)) == (False, None)
    with pytest.raises(Conflict):  # ``play`` syncs first and refuses the stale version
        a.play(gid, token, action, version)
    assert a.view(gid, None)["version"] == b.view(gid, None)["version"] == version + 1


def test_a_refused_action_is_left_to_play_and_changes_nothing(two_services):
    a, _ = two_services
    gid, tokens = _game(a)
    token, _, version = _move(a, gid, tokens)
    for move in [
        (gid, token, "no such move"),
        (gid, "a wrong token", "pass"),
        ("no-such-game", token, "pass"),
    ]:
        assert asyncio.run(a.play_on_loop(*move, version)) == (False, None)
    with pytest.raises(Unprocessable):
        a.play(gid, token, "no such move", version)
    assert a.view(gid, None)["version"] == version


def test_a_caller_gone_before_the_commit_leaves_the_cache_in_step(two_services):
    """The socket closed while its action waited for the disk: the action stays committed and the
    cache follows it all the same (and the game's lock is free again)."""
    a, b = two_services
    gid, tokens = _game(a)
    token, action, version = _move(a, gid, tokens)

    async def main():
        task = asyncio.create_task(a.play_on_loop(gid, token, action, version))
        await asyncio.sleep(0)  # it has queued its write
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        for _ in range(200):  # the write's settling reaches the loop
            if a._runtimes[gid].version == version + 1:
                break
            await asyncio.sleep(0.01)

    asyncio.run(main())
    assert a._runtimes[gid].version == version + 1
    assert a._runtimes[gid].lock.acquire(blocking=False)
    a._runtimes[gid].lock.release()
    assert b.view(gid, None)["version"] == version + 1


def test_actions_are_played_without_a_worker_thread(table, client, monkeypatch):
    """On SQLite neither a socket's action nor an HTTP one reaches ``play`` (the worker thread's path)."""
    if not client.app.state.service.store.is_sqlite:
        pytest.skip("PostgreSQL plays in worker threads")
    t = table()
    mover = t.view()["current_player"]

    def not_here(*args, **kwargs):
        raise AssertionError("played in a worker thread")

    monkeypatch.setattr(client.app.state.service, "play", not_here)
    with client.websocket_connect(f"/api/games/{t.id}/ws") as ws:
        assert ws.receive_json()["seat"] is None
        ws.send_json({"token": t.tokens[mover]})
        view = ws.receive_json()
        ws.send_json({"action": view["legal_actions"][0], "version": view["version"]})
        assert ws.receive_json()["version"] == 1
    view = t.mover_view()
    answer = t.act(view["seat"], view["legal_actions"][0], view["version"])
    assert (
        answer.status_code == 200 and answer.json()["version"] == 2 and answer.json()["seat"] == view["seat"]
    )
    assert t.view()["version"] == 2
