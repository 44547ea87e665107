"""Which server process thinks for a game's bots: a PostgreSQL advisory lock per game (``GameClaims``).

Several server processes may share one PostgreSQL database. Before a game's bot thinks, the process
driving it takes the game's session-level advisory lock on a connection of its own, and holds it
while the game waits for its bots; another process asking meanwhile is refused and leaves the game
to the holder. The holder looks at the game once more after letting go (``Automation._drive``), so
a change made meanwhile through another process is never left without a driver. A process that dies
loses its connection, and with it its locks. On SQLite (one process) every claim is granted.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import Counter
from typing import Any

log = logging.getLogger("ludus.server")


def lock_key(game_id: str) -> int:
    """The game's advisory lock: 64 bits of a digest of its id (as PostgreSQL's signed bigint)."""
    digest = hashlib.blake2b(b"ludus-bots:" + game_id.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class GameClaims:
    """Advisory locks on one connection of this process (``conninfo``: libpq; None: SQLite, no locks)."""

    def __init__(self, conninfo: str | None) -> None:
        self.conninfo = conninfo
        self._conn: Any = None
        self._held: Counter[str] = Counter()  # locks taken on this connection (PostgreSQL stacks them)
        self._lock = threading.Lock()

    def claim(self, game_id: str) -> bool:
        """Whether this process may think for ``game_id`` now (blocking: call it in a worker thread).

        If the database cannot be asked, the claim is granted: better a bot thought about twice
        (only one move is committed for a version) than a game left without its bots."""
        if self.conninfo is None:
            return True
        with self._lock:
            try:
                got = bool(
                    self._connection()
                    .execute("SELECT pg_try_advisory_lock(%s)", (lock_key(game_id),))
                    .fetchone()[0]
                )
            except Exception:
                log.exception("claiming game %s failed; its bots think without a claim", game_id)
                self._drop()
                return True
            if got:
                self._held[game_id] += 1
            return got

    def release(self, game_id: str) -> None:
        if self.conninfo is None:
            return
        with self._lock:
            if self._held[game_id] <= 0:
                return  # taken on a connection since lost, and let go with it
            self._held[game_id] -= 1
            if not self._held[game_id]:
                del self._held[game_id]
            try:
                self._connection().execute("SELECT pg_advisory_unlock(%s)", (lock_key(game_id),))
            except Exception:
                log.exception("releasing game %s failed", game_id)
                self._drop()

    def close(self) -> None:
        with self._lock:
            self._drop()

    def _connection(self) -> Any:
        if self._conn is None:
            import psycopg

            self._conn = psycopg.connect(self.conninfo or "", autocommit=True, connect_timeout=10)
        return self._conn

    def _drop(self) -> None:
        """Close the connection: every lock it held is let go with it."""
        conn, self._conn = self._conn, None
        self._held.clear()
        if conn is not None:
            try:
                conn.close()
            except Exception:
                log.debug("closing the claims connection failed", exc_info=True)
