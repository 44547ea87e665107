"""Storage: migrations build exactly the tables the code uses; SQLite group commit isolates errors."""

from __future__ import annotations

import threading

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

import ludus.server.app  # noqa: F401  # every storage module's tables, as the server holds them
from ludus.server.settings import Settings
from ludus.server.storage import Store, metadata


def test_migrations_build_the_schema_the_code_uses(database_url):
    store = Store(database_url)
    store.migrate()
    store.migrate()  # a second start finds the schema at head
    with store.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    store.dispose()


def test_a_failing_work_in_a_group_commit_undoes_only_itself(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/ludus.db")
    store.migrate()
    from sqlalchemy import text

    store.transact(lambda conn: conn.execute(text("CREATE TABLE t (x INTEGER)")))
    start = threading.Barrier(8)

    def work(i):
        def run(conn):
            conn.execute(text("INSERT INTO t VALUES (:x)"), {"x": i})
            if i % 2:
                raise ValueError(f"work {i} fails")
            return i

        start.wait()
        try:
            return store.transact(run)
        except ValueError:
            return None

    results = [None] * 8
    threads = [threading.Thread(target=lambda i=i: results.__setitem__(i, work(i))) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with store.engine.connect() as conn:
        stored = sorted(r[0] for r in conn.execute(text("SELECT x FROM t")))
    assert stored == [0, 2, 4, 6] and results == [0, None, 2, None, 4, None, 6, None]
    with pytest.raises(ValueError, match="unsupported database"):
        Store("mysql://x/y")
    with pytest.raises(ValueError, match="must be a file"):
        Store("sqlite://")
    store.dispose()


def test_group_commit_under_contention_answers_every_caller_its_own_result(tmp_path):
    """Many threads writing at once: batches hand the lead on, every caller gets its own result
    (or its own error) and every write that answered is stored once."""
    from sqlalchemy import text

    store = Store(f"sqlite:///{tmp_path}/ludus.db")
    store.migrate()
    store.transact(lambda conn: conn.execute(text("CREATE TABLE t (x INTEGER)")))
    threads, each = 6, 60
    start = threading.Barrier(threads)
    answers: list[list[int | None]] = [[] for _ in range(threads)]

    def writer(k: int) -> None:
        start.wait()
        for i in range(each):
            x = k * 1000 + i

            def run(conn, x=x):
                conn.execute(text("INSERT INTO t VALUES (:x)"), {"x": x})
                if x % 7 == 0:
                    raise ValueError(x)
                return x

            try:
                answers[k].append(store.transact(run))
            except ValueError as exc:
                assert exc.args == (x,)
                answers[k].append(None)

    pool = [threading.Thread(target=writer, args=(k,)) for k in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    expected = [
        [None if (k * 1000 + i) % 7 == 0 else k * 1000 + i for i in range(each)] for k in range(threads)
    ]
    assert answers == expected
    with store.engine.connect() as conn:
        stored = sorted(r[0] for r in conn.execute(text("SELECT x FROM t")))
    assert stored == sorted(x for row in expected for x in row if x is not None)
    store.dispose()


def _timeless(view: dict) -> dict:
    """A view without ``server_time`` (the clock when it was made), to compare two views."""
    return {k: v for k, v in view.items() if k != "server_time"}


def test_two_servers_on_one_database_keep_their_caches_in_step(database_url):
    """Two services (as two processes would) on one database: each sees the other's moves and undos."""
    from ludus.server.errors import Conflict, Forbidden, Unprocessable
    from ludus.server.service import GameService

    store_a, store_b = Store(database_url), Store(database_url)
    store_a.migrate()
    a, b = GameService(store_a, Settings()), GameService(store_b, Settings())
    created = a.lobby.create("garum", {"turn_seconds": 3600}, ["human", "human"])  # turn deadlines agree too
    gid = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    services = [a, b]
    undos = 0
    for i in range(12):  # alternate the service that plays
        here, there = services[i % 2], services[(i + 1) % 2]
        seat = here.view(gid, None)["current_player"]
        mine = here.view(gid, tokens[seat])
        after = here.moves.act(gid, tokens[seat], mine["legal_actions"][-1], mine["version"])
        assert _timeless(there.view(gid, tokens[seat])) == _timeless(after)
        if after["current_player"] == seat and not after["terminal"]:
            try:
                undone = there.moves.undo(gid, tokens[seat], after["version"])  # undo through the other one
            except Unprocessable:  # a new turn of the same seat (two colours each): nothing to undo
                continue
            undos += 1
            assert _timeless(here.view(gid, tokens[seat])) == _timeless(undone)
            redone = here.moves.act(gid, tokens[seat], undone["legal_actions"][0], undone["version"])
            assert _timeless(there.view(gid, tokens[seat])) == _timeless(redone)
    assert undos >= 2
    seat = a.view(gid, None)["current_player"]
    view = a.view(gid, tokens[seat])
    a.moves.act(gid, tokens[seat], view["legal_actions"][0], view["version"])
    with pytest.raises((Conflict, Forbidden)):
        b.moves.act(gid, tokens[seat], view["legal_actions"][0], view["version"])
    store_a.dispose()
    store_b.dispose()


def test_the_locked_row_reads_the_same_as_the_plain_read(database_url):
    """On SQLite the row of every action is read straight from the driver: it must match SQLAlchemy's."""
    from ludus.server.service import GameService

    store = Store(database_url)
    store.migrate()
    try:
        created = GameService(store, Settings()).lobby.create(
            "garum", {"turn_seconds": 3600, "hints": False}, ["human", "human"]
        )
        with store.read() as conn:
            plain = store.game(conn, created["id"])
        locked = store.transact(lambda conn: store.lock_game(conn, created["id"]))
        assert locked == plain
        assert [type(getattr(locked, f)) for f in vars(locked)] == [
            type(getattr(plain, f)) for f in vars(plain)
        ]
        assert store.transact(lambda conn: store.lock_game(conn, "no-such-game")) is None
    finally:
        store.dispose()


def test_the_event_loops_writes_commit_together_each_in_its_own_savepoint(tmp_path):
    """``transact_soon``: what the loop queues is committed as one batch from the writer's thread;
    a work that raises undoes only itself and its future gets the error, the others their result."""
    import asyncio

    from sqlalchemy import text

    store = Store(f"sqlite:///{tmp_path}/ludus.db")
    store.migrate()
    store.transact(lambda conn: conn.execute(text("CREATE TABLE t (x INTEGER)")))
    loop_thread = []

    def writing(i):
        def run(conn):
            loop_thread.append(threading.get_ident())
            conn.execute(text("INSERT INTO t VALUES (:x)"), {"x": i})
            if i % 3 == 0:
                raise ValueError(i)
            return i * 10

        return run

    async def main():
        futures = [store.transact_soon(writing(i)) for i in range(12)]
        return threading.get_ident(), await asyncio.gather(*futures, return_exceptions=True)

    here, results = asyncio.run(main())
    assert [r.args[0] if isinstance(r, ValueError) else r for r in results] == [
        i if i % 3 == 0 else i * 10 for i in range(12)
    ]
    assert all(isinstance(r, ValueError) for r in results[::3])
    assert here not in loop_thread  # the loop never ran the work (nor waited for the disk)
    with store.engine.connect() as conn:
        stored = sorted(r[0] for r in conn.execute(text("SELECT x FROM t")))
    assert stored == [i for i in range(12) if i % 3]
    committer, _ = store._sqlite
    committer.stop()  # its thread ends; a later write starts another

    async def later():
        return await asyncio.wait_for(store.transact_soon(writing(13)), 10)

    assert asyncio.run(later()) == 130
    store.dispose()


def test_games_of_one_configuration_share_one_game_object(service):
    """The rules' caches kept per Game object serve every game of that configuration."""
    from ludus.server.game_cache import shared_game

    first = service.lobby.create("garum", {}, ["human", "human"])["id"]
    second = service.lobby.create("garum", {}, ["human", "human"])["id"]
    other = service.lobby.create("garum", {"board": "baelo_claudia"}, ["human", "human"])["id"]
    games = {gid: service.games.read(gid).state.game for gid in (first, second, other)}
    assert games[first] is games[second] is shared_game("garum", dict(games[first].config))
    assert games[other] is not games[first] and games[other].config["board"] == "baelo_claudia"
    service.games._runtimes.clear()  # loaded again from the database: the same object
    assert service.games.read(first).state.game is games[first]


def test_a_token_opens_the_seat_whose_hash_it_has_and_no_other():
    from ludus.server.security import hash_token, matching_index, new_token

    tokens = [new_token() for _ in range(3)]
    hashes = [hash_token(t) for t in tokens]
    assert [matching_index(t, hashes) for t in tokens] == [0, 1, 2]
    assert matching_index(tokens[1], [hashes[0], None, hashes[1]]) == 2  # a seat without a token skipped
    assert matching_index(new_token(), hashes) is None
    assert matching_index(hashes[0], hashes) is None  # the stored hash is no token
