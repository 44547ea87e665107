"""Signed-in sessions, stored in the database: an opaque random id in the browser's cookie, its sha256
in ``sessions`` with the account and an expiry that slides on with use.

The accounts of recently seen sessions are kept in memory for ``CACHE_SECONDS``, so that a view asked
for with a cookie (the hot path: every move and every poll) waits for no database; the cost is that a
session ended by another process (``ludus accounts ban``, a sign-out through another server process)
still opens this one's routes for up to that long. A session ended here is forgotten here at once.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from sqlalchemy import Connection

from .caller import Account
from .security import hash_token, new_token
from .storage import Store
from .storage_accounts import (
    end_session,
    end_sessions,
    insert_session,
    purge_expired,
    session_account,
    slide_session,
)

CACHE_SECONDS = 10.0
CACHE_SIZE = 10_000
SLIDE_SECONDS = 3600.0  # a session's end moves on at most this often: one write an hour of use
MAX_SESSION_ID = 128  # a longer cookie is nobody's session: not even hashed

MISSING = object()  # ``cached``: not known here, ask ``lookup``


class Sessions:
    """The sessions of one store; ``days``: how long one lasts unused. ``clock`` (epoch seconds) is
    what tests move on."""

    def __init__(self, store: Store, days: float, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.seconds = days * 86400
        self.clock = clock
        self._cache: OrderedDict[str, tuple[float, float, Account | None]] = OrderedDict()
        self._lock = threading.Lock()

    # -- reading ------------------------------------------------------------------------------------------
    def cached(self, session_id: str) -> Account | None | object:
        """The account of ``session_id`` as seen within ``CACHE_SECONDS`` (None: no live session), or
        ``MISSING``: not seen lately, ask ``lookup``. Never waits: made for the event loop's thread."""
        if len(session_id) > MAX_SESSION_ID:
            return None
        key = hash_token(session_id)
        now = self.clock()
        with self._lock:
            entry = self._cache.get(key)
            if entry is None:
                return MISSING
            seen, expires_at, account = entry
            if now - seen > CACHE_SECONDS or now >= expires_at:
                del self._cache[key]
                return MISSING
            self._cache.move_to_end(key)
            return account

    def lookup(self, session_id: str) -> Account | None:
        """The account of a live session (None: no such session, expired, or its account banned or
        deleted), from the database; the session's end moves on (at most once an hour). Blocking."""
        if len(session_id) > MAX_SESSION_ID:
            return None
        key = hash_token(session_id)
        now = self.clock()
        with self.store.read() as conn:
            found = session_account(conn, key, now)
        if found is None:
            self._remember(key, now, now + CACHE_SECONDS, None)
            return None
        row, expires_at, last_seen = found
        if now - last_seen >= SLIDE_SECONDS:
            expires_at = now + self.seconds
            self.store.transact(lambda conn: slide_session(conn, key, now, expires_at))
        account = Account(row.id, row.name)
        self._remember(key, now, expires_at, account)
        return account

    def _remember(self, key: str, now: float, expires_at: float, account: Account | None) -> None:
        with self._lock:
            self._cache[key] = (now, expires_at, account)
            self._cache.move_to_end(key)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)

    # -- writing ------------------------------------------------------------------------------------------
    def start(self, account: Account) -> str:
        """A new session of ``account``: its id, for the cookie (never stored)."""
        session_id = new_token()
        key = hash_token(session_id)
        now = self.clock()
        expires_at = now + self.seconds

        def work(conn: Connection) -> None:
            purge_expired(conn, now)
            insert_session(conn, key, account.id, now, expires_at)

        self.store.transact(work)
        self._remember(key, now, expires_at, account)
        return session_id

    def end(self, session_id: str) -> None:
        """End one session (signing out); an unknown one ends nothing."""
        if len(session_id) > MAX_SESSION_ID:
            return
        key = hash_token(session_id)
        self.store.transact(lambda conn: end_session(conn, key))
        with self._lock:
            self._cache.pop(key, None)

    def end_all(self, account_id: int) -> None:
        """End every session of the account ("sign out everywhere", a new password, a ban)."""
        self.store.transact(lambda conn: end_sessions(conn, account_id))
        self.forget(account_id)

    def forget(self, account_id: int) -> None:
        """Forget this process's memory of the account's sessions (ended in the database)."""
        with self._lock:
            for key in [k for k, (_, _, a) in self._cache.items() if a is not None and a.id == account_id]:
                del self._cache[key]
