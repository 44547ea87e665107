"""A move's one path (``Moves.play``): checked and played on a copy, then stored in a transaction that
finds the game's row where the copy started. On SQLite, with the game cached, current and its lock
free, all of it runs on the event loop's thread and only the write waits, on SQLite's writer thread;
otherwise it runs in a worker thread (``_play_waiting``), synced under the row lock first. A refusal
is raised once, where the request was checked: never tried again elsewhere."""

from __future__ import annotations

import asyncio
import time

import pytest

from ludus.server.errors import Conflict, Forbidden, NotFound, Unauthorized, Unprocessable
from ludus.server.service import GameService
from ludus.server.settings import Settings
from ludus.server.storage import Store


@pytest.fixture
def two_services(tmp_path):
    """Two services on one SQLite file, as two processes would be."""
    url = f"sqlite:///{tmp_path}/ludus.db"
    a_store, b_store = Store(url), Store(url)
    a_store.migrate()
    yield GameService(a_store, Settings()), GameService(b_store, Settings())
    a_store.dispose()
    b_store.dispose()


def _game(service):
    created = service.lobby.create("garum", {}, ["human", "human"])
    return created["id"], {s["seat"]: s["token"] for s in created["seats"]}


def _move(service, gid, tokens):
    seat = service.view(gid, None)["current_player"]
    view = service.view(gid, tokens[seat])
    return tokens[seat], view["legal_actions"][0], view["version"]


def _threads(service, monkeypatch, allowed: bool = True) -> list[str]:
    """Record each move that takes the worker thread's way (or fail it, when not ``allowed``)."""
    taken: list[str] = []
    waiting = service.moves._play_waiting

    def recorded(game_id, *args):
        if not allowed:
            raise AssertionError("played in a worker thread")
        taken.append(game_id)
        return waiting(game_id, *args)

    monkeypatch.setattr(service.moves, "_play_waiting", recorded)
    return taken


def test_an_action_on_the_loop_is_stored_and_followed_by_the_cache(two_services, monkeypatch):
    a, b = two_services
    gid, tokens = _game(a)
    token, action, version = _move(a, gid, tokens)
    _threads(a, monkeypatch, allowed=False)
    answer = asyncio.run(a.moves.play(gid, token, action, version, (), lambda rt, seat: (rt.version, seat)))
    assert answer == (version + 1, a.view(gid, None)["log"][-1]["seat"])
    assert a.view(gid, None)["version"] == version + 1
    assert b.view(gid, None) | {"server_time": 0} == a.view(gid, None) | {"server_time": 0}


@pytest.mark.parametrize(
    "move, refusal, says",
    [
        (lambda gid, token: (gid, token, "no such move"), Unprocessable, "no such move"),
        (lambda gid, token: (gid, "a wrong token", "pass"), Unauthorized, "does not belong"),
        (lambda gid, token: (gid, None, "pass"), Unauthorized, "needs a seat token"),
    ],
)
def test_a_refusal_on_the_loop_is_the_real_one_and_changes_nothing(
    two_services, monkeypatch, move, refusal, says
):
    a, _ = two_services
    gid, tokens = _game(a)
    token, _, version = _move(a, gid, tokens)
    _threads(a, monkeypatch, allowed=False)  # refused where it was checked: not tried again in a thread
    with pytest.raises(refusal, match=says):
        asyncio.run(a.moves.play(*move(gid, token), version))
    with pytest.raises(Conflict, match=f"stale version {version - 1}"):
        asyncio.run(a.moves.play(gid, token, "pass", version - 1))
    other = next(t for t in tokens.values() if t != token)
    with pytest.raises(Forbidden, match="not Seat"):
        asyncio.run(a.moves.play(gid, other, "pass", version))
    assert a.view(gid, None)["version"] == version


def test_an_unknown_game_and_too_long_a_sequence_are_refused(two_services):
    a, _ = two_services
    gid, tokens = _game(a)
    token, action, version = _move(a, gid, tokens)
    with pytest.raises(NotFound):
        asyncio.run(a.moves.play("no-such-game", token, action, version))
    with pytest.raises(Unprocessable, match="at most 8 actions"):
        asyncio.run(a.moves.play(gid, token, action, version, [action] * 8))
    assert a.view(gid, None)["version"] == version


def test_a_game_moved_by_another_process_is_synced_before_the_move_is_checked(two_services, monkeypatch):
    """The cache is behind: the move is checked on what the database holds (in a worker thread),
    so the newer version the client saw is played, and the old one refused as stale."""
    a, b = two_services
    gid, tokens = _game(a)
    token, action, version = _move(a, gid, tokens)  # a's cache is now current
    b.moves.act(gid, token, action, version)  # another process plays that very move
    taken = _threads(a, monkeypatch)
    with pytest.raises(Conflict, match=f"stale version {version}"):
        asyncio.run(a.moves.play(gid, token, action, version))
    token, action, version = _move(b, gid, tokens)
    assert (
        asyncio.run(a.moves.play(gid, token, action, version, (), lambda rt, seat: rt.version)) == version + 1
    )
    assert taken == [gid]  # the first (the cache behind); the second found the cache synced by it
    assert b.view(gid, None)["version"] == a.view(gid, None)["version"] == version + 1


def test_a_row_moved_between_the_check_and_the_write_stores_nothing_and_is_played_synced(
    two_services, monkeypatch
):
    """Another process moves just after the loop found the cache current: the write finds the row
    moved (``GameMoved``), stores nothing, and the request is played again on the synced game."""
    a, b = two_services
    gid, tokens = _game(a)
    token, action, version = _move(a, gid, tokens)
    b.moves.act(gid, token, action, version)
    cached = a.store.versions(gid)
    monkeypatch.setattr(a.store, "versions", lambda game_id, wait=True: (version, cached[1]))  # read before b
    taken = _threads(a, monkeypatch)
    with pytest.raises(Conflict, match=f"stale version {version}"):
        asyncio.run(a.moves.play(gid, token, action, version))
    assert taken == [gid]
    rt = b.games.read(gid)
    assert rt.version == len(rt.owners) == version + 1  # b's move alone was stored
    assert a.games._runtimes[gid].version == version + 1  # and a's cache caught up with it


def test_two_moves_of_one_game_at_once_on_the_loop_store_one(two_services):
    """The second is checked while the first waits for the disk: its write (or its sync) finds the
    first, and it is refused as stale; the cache follows the first alone."""
    a, b = two_services
    gid, tokens = _game(a)
    token, action, version = _move(a, gid, tokens)

    async def both():
        return await asyncio.gather(
            a.moves.play(gid, token, action, version),
            a.moves.play(gid, token, action, version),
            return_exceptions=True,
        )

    outcomes = asyncio.run(both())
    assert sorted(type(o).__name__ for o in outcomes) == ["Conflict", "NoneType"]
    rt = a.games.read(gid)
    assert rt.version == version + 1 == len(rt.owners) == len(rt.state.history())
    assert b.view(gid, None) | {"server_time": 0} == a.view(gid, None) | {"server_time": 0}


def test_a_caller_gone_before_the_commit_leaves_the_cache_in_step(two_services):
    """The socket closed while its action waited for the disk: the action stays committed and the
    cache follows it all the same (and the game's lock is free again)."""
    a, b = two_services
    gid, tokens = _game(a)
    token, action, version = _move(a, gid, tokens)

    async def main():
        task = asyncio.create_task(a.moves.play(gid, token, action, version))
        await asyncio.sleep(0)  # it has queued its write
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        deadline = time.monotonic() + 30  # the write's settling reaches the loop (bounds the wait only)
        while a.games._runtimes[gid].version != version + 1 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    asyncio.run(main())
    assert a.games._runtimes[gid].version == version + 1
    assert a.games._runtimes[gid].lock.acquire(blocking=False)
    a.games._runtimes[gid].lock.release()
    assert b.view(gid, None)["version"] == version + 1


def test_actions_are_played_without_a_worker_thread(table, client, monkeypatch):
    """On SQLite neither a socket's action nor an HTTP one takes the worker thread's way; on
    PostgreSQL both do."""
    service = client.app.state.service
    taken = _threads(service, monkeypatch)
    t = table()
    mover = t.view()["current_player"]
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
    assert taken == ([] if service.store.is_sqlite else [t.id, t.id])
