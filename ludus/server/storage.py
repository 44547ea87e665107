"""Storage: a game is its config, seed and ordered actions, in SQLite or PostgreSQL.

Everything goes through SQLAlchemy Core so that one code path serves both databases.
Writes take the database's write lock first (``BEGIN IMMEDIATE`` on SQLite, ``SELECT ... FOR
UPDATE`` on PostgreSQL) so that several server processes can share one database: the
game row's ``version`` is the arbiter of who moved first.

``games.updated_at`` is when the game's actions last changed: its creation, its last action
(the same time as that action's ``created_at``) or its last undo. That is when the turn in
progress began, so turn deadlines survive a restart without a column of their own; seat
changes (join, leave) leave it alone, and so must any other write.

What only SQLite needs (its engine, its single writer, its WAL checkpoints) is in
``ludus.server.storage_sqlite``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, TypeVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    case,
    create_engine,
    func,
    select,
    text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from .storage_sqlite import Checkpointer, GroupCommitter, sqlite_driver, sqlite_engine

T = TypeVar("T")
DEFAULT_URL = "sqlite:///./ludus.db"
NOTIFY_CHANNEL = "ludus_games"

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("config", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("turn_seconds", Float, nullable=True),
    Column("hints", Boolean, nullable=True),  # the creator's hints option: False turns them off
    Column("version", Integer, nullable=False),
    Column("meta_version", Integer, nullable=False),
    Column("num_actions", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    # a digest of the creator's address (``security.host_key``): the per-address caps and the bots' fair queue
    Column("host", String(64), nullable=True),
    Column(
        "renewed_at", Float, nullable=True
    ),  # a person at the table last played (idle expiry counts from it)
    Index("ix_games_status", "status"),
    Index("ix_games_status_created", "status", "created_at"),
    Index("ix_games_status_updated", "status", "updated_at"),
    Index("ix_games_status_host", "status", "host"),
    Index("ix_games_status_renewed", "status", "renewed_at"),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(32), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("claimed", Boolean, nullable=False),
    Column("left_to", String(32), nullable=True),
    Column("name", String(64), nullable=True),  # the player's display name (schemas.display_name)
    # the account that holds the seat (null: a guest's, known only by its token); its name is shown
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True),
    Index("ix_seats_account", "account_id"),
    Index("ix_seats_token_hash", "token_hash"),
)

# People who signed up (``ludus.server.accounts``); the tables of their sessions are in storage_accounts.
accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(32), nullable=False),  # as typed
    Column("name_key", String(64), nullable=False, unique=True),  # NFKC + casefold: one name in any case
    Column("password_hash", String(255), nullable=False),  # Argon2id ('' once deleted: no sign-in)
    Column("email", String(254), nullable=True),
    Column("notify_email", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("banned_at", Float, nullable=True),
    Column("deleted_at", Float, nullable=True),  # its seats then show DELETED_PLAYER
)
DELETED_PLAYER = "deleted player"

actions = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    # the stand-in bot that played this action because the seat's turn timer ran out (else null)
    Column("timed_out_to", String(32), nullable=True),
)


# The statements of every action and view, built once: building and keying a statement
# for each call cost more than running it.
_GAME = select(games).where(games.c.id == bindparam("gid"))
_GAME_FOR_UPDATE = _GAME.with_for_update()
_VERSIONS_FOR_UPDATE = (
    select(games.c.version, games.c.meta_version).where(games.c.id == bindparam("gid")).with_for_update()
)
# a seat with its account's name (null for a guest's seat, or a deleted account's)
SEAT_ROWS = select(
    seats, case((accounts.c.deleted_at.is_(None), accounts.c.name), else_=None).label("account_name")
).select_from(seats.outerjoin(accounts, seats.c.account_id == accounts.c.id))
_SEATS = SEAT_ROWS.where(seats.c.game_id == bindparam("gid")).order_by(seats.c.seat)
_ACTIONS_FROM = (
    select(actions.c.seat, actions.c.action)
    .where(actions.c.game_id == bindparam("gid"), actions.c.ply >= bindparam("start"))
    .order_by(actions.c.ply)
)
_INSERT_ACTION = actions.insert()
_GAME_MOVED = (
    games.update()
    .where(games.c.id == bindparam("gid"))
    .values(
        version=bindparam("v"), num_actions=bindparam("n"), status=bindparam("s"), updated_at=bindparam("at")
    )
)
_GAME_RENEWED = _GAME_MOVED.values(renewed_at=bindparam("at"))
_CREATIONS_LOCK = 0x6C75647573  # the PostgreSQL advisory lock of game creations ("ludus")


@dataclass
class GameRow:
    id: str
    game: str
    config: dict[str, Any]
    seed: int
    turn_seconds: float | None
    version: int
    meta_version: int
    num_actions: int
    status: str
    turn_started: float = 0.0  # ``games.updated_at``: when the turn in progress began (epoch seconds)
    hints: bool | None = None  # False: the creator turned hints off (None: not said, so on)
    host: str | None = None  # ``security.host_key`` of the creator's address (None: made before it was kept)


@dataclass
class SeatRow:
    seat: int
    kind: str
    token_hash: str | None
    claimed: bool
    left_to: str | None
    name: str | None = None  # the display name its player gave (None: none)
    account_id: int | None = None  # the account holding the seat (None: a guest's)
    account_name: str | None = None  # that account's name (None: deleted)

    @property
    def shown_name(self) -> str | None:
        """The name everyone sees: the account's (one name per person), a guest's own display name."""
        if self.account_id is None:
            return self.name
        return self.account_name or DELETED_PLAYER

    @property
    def is_human(self) -> bool:
        return self.kind == "human" and self.left_to is None

    @property
    def bot(self) -> str | None:
        """The bot playing this seat, if any (its own kind, or the one that took over)."""
        return self.left_to or (None if self.kind == "human" else self.kind)

    @property
    def free(self) -> bool:
        return self.kind == "human" and not self.claimed and self.left_to is None


def usable_url(url: str | None = None) -> str:
    """The URL to use (None: ``./ludus.db``), in the form the engine takes; ValueError saying why it is
    not one the server can use."""
    url = url or DEFAULT_URL
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise ValueError(str(exc)) from None
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if not parsed.drivername.startswith(("sqlite", "postgresql")):
        raise ValueError(
            f"unsupported database {parsed.drivername!r}: use sqlite:///file or postgresql+psycopg://"
        )
    if parsed.drivername.startswith("sqlite") and parsed.database in (None, "", ":memory:"):
        raise ValueError("an SQLite database must be a file (sqlite:///path/to/ludus.db), not in memory")
    return parsed.render_as_string(hide_password=False)


_BOOLEAN_COLUMNS = [c.name for c in games.columns if isinstance(c.type, Boolean)]


def seat_row(r: Any) -> SeatRow:
    """The ``SeatRow`` of a row of ``SEAT_ROWS``."""
    return SeatRow(
        r.seat, r.kind, r.token_hash, bool(r.claimed), r.left_to, r.name, r.account_id, r.account_name
    )


def game_row(r: Any) -> GameRow:
    """The ``GameRow`` of a row of ``games``."""
    return GameRow(
        r.id,
        r.game,
        json.loads(r.config),
        int(r.seed),
        r.turn_seconds,
        r.version,
        r.meta_version,
        r.num_actions,
        r.status,
        float(r.updated_at),
        r.hints,
        r.host,
    )


class Store:
    """The database of games; thread-safe (one connection per call from the pool).

    ``busy_seconds``: how long a writer waits for another process's SQLite lock, or for a PostgreSQL
    row lock (``lock_timeout``), before the request is answered 503; ``synchronous``: SQLite's."""

    def __init__(self, url: str | None = None, busy_seconds: float = 10.0, synchronous: str = "FULL") -> None:
        self.url = usable_url(url)
        self.busy_seconds = busy_seconds
        self.synchronous = synchronous
        self.is_sqlite = self.url.startswith("sqlite")
        self.engine = self._make_engine()
        self._sqlite_file = (
            (make_url(self.url).database or "") if self.is_sqlite else ""
        )  # a file: database_url
        # SQLite only: one writer thread (group commit) and WAL checkpoints of its own
        self._sqlite: tuple[GroupCommitter, Checkpointer] | None = (
            (GroupCommitter(self.engine), Checkpointer(self._sqlite_file, busy_seconds))
            if self.is_sqlite
            else None
        )
        self._local = threading.local()
        self._raw_connections: list[sqlite3.Connection] = []

    def _make_engine(self) -> Engine:
        if self.is_sqlite:
            return sqlite_engine(self.url, self.busy_seconds, self.synchronous)
        # a row lock held too long (a stuck transaction elsewhere) ends the wait: answered 503
        lock_ms = int(self.busy_seconds * 1000)
        return create_engine(
            self.url,
            pool_size=10,
            max_overflow=30,
            pool_pre_ping=True,
            connect_args={"options": f"-c lock_timeout={lock_ms}"},
        )

    # -- schema --------------------------------------------------------------------
    def migrate(self) -> None:
        """Bring the schema to the newest alembic revision (safe with several processes)."""
        from .migrations import upgrade

        upgrade(self.engine, self.is_sqlite)

    # -- transactions -----------------------------------------------------------------
    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    def transact(self, work: Callable[[Connection], T]) -> T:
        """Run ``work(conn)`` in a write transaction; return its result once it is committed.

        An exception from ``work`` rolls back everything it did and is raised here. On SQLite
        one writer thread runs the work of concurrent callers together and commits it with a
        single disk sync (group commit); each caller's work sits in a SAVEPOINT of its own.
        """
        if self._sqlite is not None:
            committer, checkpointer = self._sqlite
            checkpointer.start()
            return committer.submit(work)
        with self.engine.connect().execution_options(ludus_write=True) as conn, conn.begin():
            return work(conn)

    def transact_soon(self, work: Callable[[Connection], T]) -> asyncio.Future[T]:
        """``transact`` for the event loop's thread, which must not wait: a future settled on the loop
        once ``work`` is committed (SQLite's writer thread commits it with the others queued). SQLite
        only: PostgreSQL has no writer thread (its callers use ``transact`` in a worker thread)."""
        if self._sqlite is None:
            raise RuntimeError("transact_soon is SQLite's: use transact in a worker thread")
        committer, checkpointer = self._sqlite
        checkpointer.start()
        return committer.submit_soon(work)

    def lock_game(self, conn: Connection, game_id: str) -> GameRow | None:
        """The game row, locked against other writers until the transaction ends."""
        if self.is_sqlite:  # the write lock is the transaction's (BEGIN IMMEDIATE)
            cursor = sqlite_driver(conn).cursor()
            cursor.row_factory = sqlite3.Row
            r = cursor.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            if r is None:
                return None
            values = dict(r)
            for name in _BOOLEAN_COLUMNS:  # as SQLAlchemy reads them: SQLite stores 0/1
                if values.get(name) is not None:
                    values[name] = bool(values[name])
            return game_row(SimpleNamespace(**values))
        r = conn.execute(_GAME_FOR_UPDATE, {"gid": game_id}).first()
        return game_row(r) if r else None

    def lock_versions(self, conn: Connection, game_id: str) -> tuple[int, int] | None:
        """The game's (``version``, ``meta_version``), its row locked as by ``lock_game``: what a write
        checks first, the whole row read only when they moved."""
        if self.is_sqlite:
            r = (
                sqlite_driver(conn)
                .execute("SELECT version, meta_version FROM games WHERE id = ?", (game_id,))
                .fetchone()
            )
        else:
            r = conn.execute(_VERSIONS_FOR_UPDATE, {"gid": game_id}).first()
        return None if r is None else (r[0], r[1])

    # -- reads ---------------------------------------------------------------------------
    def versions(self, game_id: str, wait: bool = True) -> tuple[int, int] | None:
        """The game's (``version``, ``meta_version``), or None if there is no such game.

        The cheap check that a cached game is current, made before every view: on SQLite one
        statement on a connection of the calling thread's own, outside SQLAlchemy (a single
        SELECT reads one consistent snapshot of the WAL). ``wait=False`` (the event loop's thread):
        raise sqlite3.OperationalError at once rather than wait for a busy database.
        """
        if not self.is_sqlite:
            with self.engine.connect() as conn:
                r = conn.execute(self._versions_query, {"id": game_id}).first()
            return (r[0], r[1]) if r else None
        name = "conn" if wait else "conn_nowait"
        raw: sqlite3.Connection | None = getattr(self._local, name, None)
        if raw is None:
            raw = sqlite3.connect(
                self._sqlite_file,
                timeout=self.busy_seconds if wait else 0,
                isolation_level=None,
                check_same_thread=False,
            )
            setattr(self._local, name, raw)
            self._raw_connections.append(raw)
        r = raw.execute("SELECT version, meta_version FROM games WHERE id = ?", (game_id,)).fetchone()
        return (r[0], r[1]) if r else None

    _versions_query = text("SELECT version, meta_version FROM games WHERE id = :id")

    def game(self, conn: Connection, game_id: str) -> GameRow | None:
        r = conn.execute(_GAME, {"gid": game_id}).first()
        return game_row(r) if r else None

    def seats(self, conn: Connection, game_id: str) -> list[SeatRow]:
        return [seat_row(r) for r in conn.execute(_SEATS, {"gid": game_id})]

    def actions(self, conn: Connection, game_id: str, start: int = 0) -> list[tuple[int, str]]:
        """(seat, notation) of every action from ply ``start`` on, in order."""
        rows = conn.execute(_ACTIONS_FROM, {"gid": game_id, "start": start})
        return [(r.seat, r.action) for r in rows]

    def timed_out_plies(self, conn: Connection, game_id: str) -> dict[int, str]:
        """Plies played by a stand-in bot because the seat's turn timer ran out, with that bot."""
        rows = conn.execute(
            select(actions.c.ply, actions.c.timed_out_to).where(
                actions.c.game_id == game_id, actions.c.timed_out_to.is_not(None)
            )
        )
        return {r.ply: r.timed_out_to for r in rows}

    def _with_bots(self) -> Any:
        """Games with a seat a bot plays (its own kind, or one that took over a seat that left)."""
        return (
            select(seats.c.game_id).where((seats.c.kind != "human") | seats.c.left_to.is_not(None)).distinct()
        )

    def resumable_ids(self, conn: Connection) -> list[str]:
        """Unfinished games with something to run without a request: bots, or a turn timer."""
        query = select(games.c.id).where(
            games.c.status == "playing",
            (games.c.turn_seconds.is_not(None)) | games.c.id.in_(self._with_bots()),
        )
        return [r.id for r in conn.execute(query)]

    def count_bot_games(self, conn: Connection) -> int:
        """Unfinished games with a bot seat."""
        query = (
            select(func.count())
            .select_from(games)
            .where(games.c.status == "playing", games.c.id.in_(self._with_bots()))
        )
        return int(conn.execute(query).scalar_one())

    def lock_creations(self, conn: Connection) -> None:
        """Hold, until the transaction ends, the right to create a game, so that counting games and
        adding one are one step for every process (SQLite: the transaction's write lock already is)."""
        if not self.is_sqlite:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _CREATIONS_LOCK})

    def expire_idle(self, conn: Connection, now: float, idle_seconds: float) -> list[str]:
        """Mark abandoned every unfinished game where no person at the table has played for
        ``idle_seconds``, or for twice its time to move if that is longer (a table never expires
        while a turn may still be played in time).

        They stay as records; ``meta_version`` moves so that every cache notices. Returns their ids.
        """
        renewed = func.coalesce(games.c.renewed_at, games.c.updated_at)
        ids = [
            r.id
            for r in conn.execute(
                select(games.c.id).where(
                    games.c.status == "playing",
                    renewed < now - idle_seconds,
                    games.c.turn_seconds.is_(None) | (renewed < now - 2 * games.c.turn_seconds),
                )
            )
        ]
        if ids:
            conn.execute(
                games.update()
                .where(games.c.id.in_(ids), games.c.status == "playing")
                .values(status="abandoned", meta_version=games.c.meta_version + 1)
            )
        return ids

    # -- writes --------------------------------------------------------------------------
    def insert_game(self, conn: Connection, row: GameRow, seat_rows: list[SeatRow]) -> float:
        """Store a new game; returns its creation time (when its first turn began)."""
        now = time.time()
        conn.execute(
            games.insert().values(
                id=row.id,
                game=row.game,
                config=json.dumps(row.config),
                seed=row.seed,
                turn_seconds=row.turn_seconds,
                version=row.version,
                meta_version=row.meta_version,
                num_actions=row.num_actions,
                status=row.status,
                created_at=now,
                updated_at=now,
                renewed_at=now,
                hints=row.hints,
                host=row.host,
            )
        )
        conn.execute(
            seats.insert(),
            [
                {
                    "game_id": row.id,
                    "seat": s.seat,
                    "kind": s.kind,
                    "token_hash": s.token_hash,
                    "claimed": s.claimed,
                    "left_to": s.left_to,
                    "name": s.name,
                    "account_id": s.account_id,
                }
                for s in seat_rows
            ],
        )
        return now

    def append_action(
        self,
        conn: Connection,
        game_id: str,
        ply: int,
        seat: int,
        action: str,
        version: int,
        status: str,
        timed_out_to: str | None = None,
        renew: bool = False,
    ) -> float:
        """Store an action; returns its time (when the next turn began). ``renew``: a person at the
        table played it, which keeps the game from expiring (a bot's move does not)."""
        now = time.time()
        if self.is_sqlite:  # the statements of every action, straight to the driver
            driver = sqlite_driver(conn)
            driver.execute(
                "INSERT INTO actions (game_id, ply, seat, action, created_at, timed_out_to) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, ply, seat, action, now, timed_out_to),
            )
            driver.execute(
                "UPDATE games SET version = ?, num_actions = ?, status = ?, updated_at = ?, "
                "renewed_at = CASE WHEN ? THEN ? ELSE renewed_at END WHERE id = ?",
                (version, ply + 1, status, now, renew, now, game_id),
            )
            return now
        conn.execute(
            _INSERT_ACTION,
            {
                "game_id": game_id,
                "ply": ply,
                "seat": seat,
                "action": action,
                "created_at": now,
                "timed_out_to": timed_out_to,
            },
        )
        conn.execute(
            _GAME_RENEWED if renew else _GAME_MOVED,
            {"gid": game_id, "v": version, "n": ply + 1, "s": status, "at": now},
        )
        return now

    def truncate_actions(self, conn: Connection, game_id: str, keep: int, version: int) -> float:
        """Drop every action after the first ``keep`` (undo); returns its time (an undo starts a new turn)."""
        now = time.time()
        conn.execute(actions.delete().where(actions.c.game_id == game_id, actions.c.ply >= keep))
        conn.execute(
            games.update()
            .where(games.c.id == game_id)
            .values(version=version, num_actions=keep, status="playing", updated_at=now)
        )
        return now

    def update_seat(
        self, conn: Connection, game_id: str, seat: int, meta_version: int, **values: Any
    ) -> None:
        conn.execute(seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat).values(**values))
        conn.execute(games.update().where(games.c.id == game_id).values(meta_version=meta_version))

    def notify(self, conn: Connection, payload: str) -> None:
        """Tell the other server processes (PostgreSQL only; delivered when the transaction commits)."""
        if not self.is_sqlite:
            conn.execute(
                text("SELECT pg_notify(:channel, :payload)"), {"channel": NOTIFY_CHANNEL, "payload": payload}
            )

    def listen_url(self) -> str:
        """A libpq URL for a LISTEN connection of its own."""
        return make_url(self.url).set(drivername="postgresql").render_as_string(hide_password=False)

    def dispose(self) -> None:
        if self._sqlite is not None:
            committer, checkpointer = self._sqlite
            committer.stop()
            checkpointer.stop()
        for conn in self._raw_connections:
            with contextlib.suppress(Exception):
                conn.close()
        self._raw_connections.clear()
        self.engine.dispose()
