"""The SQLite side of the storage: its engine, its single writer (group commit) and its WAL checkpoints.

``ludus.server.storage.Store`` uses these when its database is SQLite. Each connection runs in
WAL mode, takes the write lock first in a write transaction (``BEGIN IMMEDIATE``) and never
checkpoints inside a commit: the ``Checkpointer`` thread does that beside the writers.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url

T = TypeVar("T")
SYNCHRONOUS = ("FULL", "NORMAL")


def sqlite_engine(url: str, busy_seconds: float, synchronous: str = "FULL") -> Engine:
    """The engine of the SQLite database at ``url`` (a file): WAL, ``synchronous`` (FULL or NORMAL), a
    writer waiting ``busy_seconds`` for another process's lock, and ``BEGIN IMMEDIATE`` for write
    transactions."""
    if synchronous not in SYNCHRONOUS:
        raise ValueError(f"SQLite's synchronous is FULL or NORMAL, not {synchronous!r}")
    path = make_url(url).database
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        url, pool_size=8, max_overflow=32, connect_args={"check_same_thread": False, "timeout": busy_seconds}
    )

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is on disk before the action is acknowledged.
        cur.execute(f"PRAGMA synchronous={synchronous}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={int(busy_seconds * 1000)}")
        # no checkpoint inside a commit (it stalled every writer behind it): Checkpointer does them
        cur.execute("PRAGMA wal_autocheckpoint=0")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        mode = "IMMEDIATE" if conn.get_execution_options().get("ludus_write") else "DEFERRED"
        conn.exec_driver_sql(f"BEGIN {mode}")  # through SQLAlchemy: a busy database's error is its (503)

    return engine


def sqlite_driver(conn: Connection) -> sqlite3.Connection:
    """The sqlite3 connection under ``conn``, for the few statements of every action (inside the
    transaction SQLAlchemy began on it: same connection, same transaction)."""
    return cast(sqlite3.Connection, conn.connection.driver_connection)


class Checkpointer:
    """Copies the SQLite write-ahead log into the database now and then, on a thread of its own.

    SQLite would otherwise checkpoint inside whichever commit crossed the WAL's size limit,
    and every writer waiting on that commit waited for the copy and its sync too. A PASSIVE
    checkpoint here runs beside the writers and readers, never blocking them.
    """

    SECONDS = 1.0

    def __init__(self, path: str, busy_seconds: float) -> None:
        self.path = path
        self.busy_seconds = busy_seconds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        if self._thread is not None:
            return
        with self._lock:
            if self._thread is None:
                self._stop.clear()
                self._thread = threading.Thread(target=self._run, name="ludus-sqlite-checkpoint", daemon=True)
                self._thread.start()

    def stop(self) -> None:
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._stop.set()
            thread.join(timeout=10)

    def _run(self) -> None:
        conn = sqlite3.connect(
            self.path, timeout=self.busy_seconds, isolation_level=None, check_same_thread=False
        )
        try:
            while not self._stop.wait(self.SECONDS):
                with contextlib.suppress(sqlite3.Error):  # busy: the next round tries again
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            with contextlib.suppress(sqlite3.Error):
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            conn.close()


@dataclass
class _Job:
    work: Callable[[Connection], Any]
    # finished, or asked to lead: made only for a job that waits (one that leads finishes in its batch)
    done: threading.Event | None = None
    finished: bool = False
    result: Any = None
    error: BaseException | None = None


class GroupCommitter:
    """The single SQLite writer of this process: batches of work, one COMMIT (one fsync) each.

    The caller that finds no batch in progress commits its work (and whatever else waits) on
    its own thread; callers arriving meanwhile wait, and the first of them leads the next
    batch. So a lone write needs no hand-off to another thread, and under load the cost of a
    sync is shared by every game that moved during the one before.

    The event loop never waits: ``submit_soon`` queues its work for a thread of the committer's
    own, which commits everything queued as one job of a batch and settles the futures with
    one call back to the loop (a worker thread for each action cost more than the action).
    """

    MAX_BATCH = 256

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._lock = threading.Lock()
        self._pending: collections.deque[_Job] = collections.deque()
        self._leading = False
        self._conn: Connection | None = None  # used by the leader only
        # the event loop's work: queued, committed by ``_soon_thread`` (started on first use)
        self._soon: list[tuple[Callable[[Connection], Any], asyncio.Future[Any]]] = []
        self._soon_busy = False
        self._soon_ready = threading.Event()
        self._soon_thread: threading.Thread | None = None
        self._stopping = False

    def submit(self, work: Callable[[Connection], T]) -> T:
        job = _Job(work)
        with self._lock:
            lead = not self._leading
            if not lead:  # no batch in progress means none pending: a leader's job is in its own batch
                job.done = threading.Event()
            self._pending.append(job)
            self._leading = True
        if lead:
            self._lead()
        while not job.finished:
            assert job.done is not None
            job.done.wait()
            if job.finished:
                break
            job.done.clear()  # the batch before ours is done: we lead the next one
            self._lead()
        if job.error is not None:
            raise job.error
        return job.result

    def submit_soon(self, work: Callable[[Connection], T]) -> asyncio.Future[T]:
        """``submit`` for the event loop's thread: a future of the result, settled on the loop once
        the work is committed (or with its exception; the work ran in its own SAVEPOINT)."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        with self._lock:
            self._soon.append((work, future))
            wake, self._soon_busy = not self._soon_busy, True
            thread = self._soon_thread
            if thread is None or not thread.is_alive():  # none yet, or ended by ``stop``
                self._soon_thread = threading.Thread(
                    target=self._commit_soon, name="ludus-sqlite-soon", daemon=True
                )
                self._soon_thread.start()
        if wake:
            self._soon_ready.set()
        return future

    def _commit_soon(self) -> None:
        """The thread of ``submit_soon``: whatever is queued, as one job of the next batch."""
        while True:
            self._soon_ready.wait()
            self._soon_ready.clear()
            while True:
                with self._lock:
                    jobs, self._soon = self._soon, []
                    if not jobs:
                        self._soon_busy = False
                        if self._stopping:
                            return
                        break
                try:
                    outcomes = self.submit(lambda conn, jobs=jobs: _each_in_savepoint(conn, jobs))  # type: ignore[misc]
                except BaseException as exc:  # the batch did not commit: none of it is stored
                    outcomes = [(None, exc)] * len(jobs)
                by_loop: dict[asyncio.AbstractEventLoop, list[Any]] = {}
                for (_, future), outcome in zip(jobs, outcomes, strict=True):
                    by_loop.setdefault(future.get_loop(), []).append((future, outcome))
                for loop, settled in by_loop.items():
                    with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                        loop.call_soon_threadsafe(_settle, settled)

    def stop(self) -> None:
        with self._lock:
            self._stopping = True
            thread = self._soon_thread
        if thread is not None:
            self._soon_ready.set()
            thread.join(timeout=10)
        with self._lock:
            self._stopping, self._soon_thread = False, None  # a later ``submit_soon`` starts another
            if self._conn is not None and not self._leading:
                with contextlib.suppress(Exception):
                    self._conn.close()
                self._conn = None

    def _lead(self) -> None:
        with self._lock:
            jobs = [self._pending.popleft() for _ in range(min(len(self._pending), self.MAX_BATCH))]
        try:
            if self._conn is None:
                self._conn = self.engine.connect().execution_options(ludus_write=True)
            with self._conn.begin():
                for job in jobs:
                    # straight to the driver: SQLAlchemy's begin_nested() compiles its SAVEPOINT anew
                    driver = sqlite_driver(self._conn)
                    driver.execute("SAVEPOINT ludus_job")
                    try:
                        job.result = job.work(self._conn)
                    except BaseException as exc:
                        driver.execute("ROLLBACK TO SAVEPOINT ludus_job")
                        job.error = exc
                    driver.execute("RELEASE SAVEPOINT ludus_job")
        except BaseException as exc:  # the batch did not commit: none of it is stored
            for job in jobs:
                if job.error is None:
                    job.error, job.result = exc, None
            if self._conn is not None:
                with contextlib.suppress(Exception):
                    self._conn.close()
            self._conn = None
        with self._lock:
            for job in jobs:
                job.finished = True
                if job.done is not None:
                    job.done.set()
            if self._pending:
                waiting = self._pending[0].done
                assert waiting is not None  # every job pending behind a batch waits with an event
                waiting.set()  # hand the lead to the first caller waiting
            else:
                self._leading = False


def _each_in_savepoint(conn: Connection, jobs: list[tuple[Callable[[Connection], Any], Any]]) -> list[Any]:
    """Each job's (result, None) or (None, exception): its work in a SAVEPOINT of its own, rolled back
    on an exception (the others' stay)."""
    driver = sqlite_driver(conn)
    outcomes: list[Any] = []
    for work, _ in jobs:
        driver.execute("SAVEPOINT ludus_soon")
        try:
            outcomes.append((work(conn), None))
        except Exception as exc:
            driver.execute("ROLLBACK TO SAVEPOINT ludus_soon")
            outcomes.append((None, exc))
        driver.execute("RELEASE SAVEPOINT ludus_soon")
    return outcomes


def _settle(settled: list[tuple[asyncio.Future[Any], tuple[Any, BaseException | None]]]) -> None:
    for future, (result, error) in settled:
        if future.cancelled():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
