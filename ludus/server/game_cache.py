"""The service's games in memory: a cache of what the database holds, checked against the game row's
versions before each use, and the steps every change shares (seat checks, storing actions, telling
listeners). The other parts of the service (``lobby``, ``moves``, ``turns``) each hold this one."""

from __future__ import annotations

import logging
import re
import secrets
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import Any

import orjson

import ludus
from ludus.engine import Game, State

from .caller import Credential, as_caller
from .errors import Forbidden, NotFound, Unauthorized
from .runtime import Details, Runtime, advance
from .security import matching_index
from .settings import Settings
from .storage import GameRow, Store
from .storage_tables import load_table
from .table_state import refuse_while_waiting

log = logging.getLogger("ludus.server")

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
CACHE_SIZE = 2000


def account_seat(rt: Runtime, account_id: int) -> int | None:
    """The seat of ``rt`` that account ``account_id`` holds (None: none; an account holds one at most)."""
    return next((s.seat for s in rt.seats if s.account_id == account_id), None)


def shared_game(name: str, options: dict[str, Any]) -> Game:
    """The game ``name`` with ``options``, one object for every game of that configuration the server
    holds: its tables and the caches its rules keep per Game object (board layouts, fixed parts seen
    before) are made once, where a thousand games' own objects each made them again and
    overflowed those caches. Raises as ``ludus.load_game`` (TypeError: options that are not JSON)."""
    return _shared_game(name, orjson.dumps(options, option=orjson.OPT_SORT_KEYS))


@lru_cache(maxsize=128)
def _shared_game(name: str, options: bytes) -> Game:
    return ludus.load_game(name, **orjson.loads(options))


class GameCache:
    """The runtimes of recently used games (at most ``CACHE_SIZE``), each synced with its row; the
    store and the settings the service's parts share; the listeners told of every committed change."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.instance = secrets.token_hex(6)
        self._runtimes: OrderedDict[str, Runtime] = OrderedDict()
        self._registry_lock = threading.Lock()
        self.listeners: list[Callable[[Runtime], None]] = []

    # -- the cache ---------------------------------------------------------------
    def get(self, game_id: str) -> Runtime:
        if not isinstance(game_id, str) or not GAME_ID.match(game_id):
            raise NotFound(f"no game {game_id!r}")
        with self._registry_lock:
            rt = self._runtimes.get(game_id)
            if rt is None:
                rt = self._runtimes[game_id] = Runtime(game_id)
                self._evict()
            self._runtimes.move_to_end(game_id)
            return rt

    def _evict(self) -> None:
        for key in list(self._runtimes)[: max(0, len(self._runtimes) - CACHE_SIZE)]:
            rt = self._runtimes[key]
            if rt.lock.acquire(blocking=False):
                try:
                    del self._runtimes[key]
                finally:
                    rt.lock.release()

    def forget(self, game_id: str) -> None:
        with self._registry_lock:
            rt = self._runtimes.get(game_id)
            if rt is not None and rt.row is None:
                del self._runtimes[game_id]

    def sync(self, rt: Runtime, conn: Any, row: GameRow | None) -> None:
        """Bring ``rt`` up to what the database holds (caller holds ``rt.lock``)."""
        if row is None:
            self.forget(rt.id)
            raise NotFound(f"no game {rt.id!r}")
        if rt.row is None or rt.row.meta_version != row.meta_version:
            rt.seats = self.store.seats(conn, rt.id)
            rt.table = load_table(conn, rt.id)
        if (
            rt.state is not None
            and rt.version != row.version
            and (row.version - rt.version == row.num_actions - len(rt.owners) > 0)
        ):
            self._append_new(rt, conn, row)
        if rt.state is None or rt.version != row.version:
            self._reload(rt, conn, row)
        rt.row = row

    def sync_locked(self, rt: Runtime, conn: Any) -> None:
        """Lock the game's row and bring ``rt`` up to it (caller holds ``rt.lock``, in a write
        transaction): the versions first, the whole row only when they moved (every change of a
        game's row moves one of them)."""
        if (
            rt.state is not None
            and rt.row is not None
            and self.store.lock_versions(conn, rt.id) == self.versions(rt)
        ):
            return
        self.sync(rt, conn, self.store.lock_game(conn, rt.id))

    @staticmethod
    def versions(rt: Runtime) -> tuple[int, int]:
        """The (``version``, ``meta_version``) the cached game is at: what the row must still say."""
        return rt.version, rt.row.meta_version

    def locked_if_current(self, game_id: str) -> Runtime | None:
        """For the event loop's thread, which must not wait: the cached game with its lock taken (the
        caller releases it) when none of that waits: SQLite, the game cached, its lock free and its
        versions the database's (read without waiting for a writer). None when any of it would wait:
        the caller then takes the worker thread's way (``read``, ``store.transact``).

        The lock is reentrant: a coroutine of the loop gets it while another one of the loop holds it
        (a move waiting for its commit). It then sees the game as it was before that move, which the
        write of a second move finds (``store.lock_versions``).
        """
        if not self.store.is_sqlite or not isinstance(game_id, str):
            return None
        rt = self._runtimes.get(game_id)
        if rt is None or rt.state is None or rt.row is None or not rt.lock.acquire(blocking=False):
            return None
        try:
            current = self.store.versions(game_id, wait=False) == self.versions(rt)
        except sqlite3.OperationalError:  # another process is writing: waiting is the worker thread's
            current = False
        if not current:
            rt.lock.release()
            return None
        return rt

    def _append_new(self, rt: Runtime, conn: Any, row: GameRow) -> None:
        """Only appends since our version (an undo changes the version but not by as many
        actions): apply just the new actions."""
        added = self.store.actions(conn, rt.id, start=len(rt.owners))
        state = rt.state.clone()
        details = Details(state)
        forced = advance(state, [text for _, text in added], details.before)
        rt.add_details(details.made)
        rt.state = state
        rt.owners = rt.owners + [seat for seat, _ in added]
        rt.forced = rt.forced + forced
        rt.version = row.version
        if row.turn_seconds is not None:
            rt.timeouts = self.store.timed_out_plies(conn, rt.id)

    def _reload(self, rt: Runtime, conn: Any, row: GameRow) -> None:
        """Replay the stored actions, from our state if it is a prefix of them, else from the start."""
        stored = self.store.actions(conn, rt.id)
        texts = [a for _, a in stored]
        state = rt.state
        if state is None or state.history() != texts[: state.move_number()]:
            game = shared_game(row.game, row.config)
            state = game.new_initial_state(seed=row.seed)
        else:
            state = state.clone()
        kept = state.move_number()
        forced = rt.forced[:kept] + advance(state, texts[kept:])
        rt.state = state
        rt.owners = [seat for seat, _ in stored]
        rt.forced = forced
        rt.version = row.version
        rt.timeouts = self.store.timed_out_plies(conn, rt.id) if row.turn_seconds is not None else {}

    def read(self, game_id: str) -> Runtime:
        """The runtime, synced (caller must then take ``rt.lock`` to read it consistently)."""
        rt = self.get(game_id)
        with rt.lock:
            if (
                rt.state is not None
                and rt.row is not None
                and self.store.versions(game_id) == self.versions(rt)
            ):
                return rt  # the cache is current: no transaction needed
            with self.store.read() as conn:
                self.sync(rt, conn, self.store.game(conn, game_id))
        return rt

    def sync_after(self, rt: Runtime) -> None:
        """Reload seats after a committed seat change, then tell listeners."""
        with self.store.read() as conn:
            self.sync(rt, conn, self.store.game(conn, rt.id))
        self.changed(rt)

    def changed(self, rt: Runtime) -> None:
        """Tell the listeners (WebSocket hub, bot driver); called after commit under ``rt.lock``."""
        for listener in self.listeners:
            try:
                listener(rt)
            except Exception:  # a listener's failure must not undo a committed change
                log.exception("change listener failed for game %s", rt.id)

    # -- seats and tokens ----------------------------------------------------------------
    def seat_of(self, rt: Runtime, who: Credential) -> int:
        """The seat ``who`` acts for: its token's (``caller``), else its signed-in account's; 401 for
        no credential or a token of no seat here, 403 for an account that holds no seat here."""
        caller = as_caller(who)
        if caller.token is not None:
            found = matching_index(caller.token, [s.token_hash for s in rt.seats])
            if found is None:
                raise Unauthorized("the token does not belong to any seat of this game")
            return rt.seats[found].seat
        if caller.account_id is None:
            raise Unauthorized(
                "this needs a seat token ('Authorization: Bearer <token>') or a signed-in account's session"
            )
        seat = account_seat(rt, caller.account_id)
        if seat is None:
            raise Forbidden("your account holds no seat in this game (a spectator cannot act)")
        return seat

    def viewer(self, rt: Runtime, who: Credential) -> int | None:
        """The seat whose view ``who`` is shown: its token's (a wrong one refused, 401), else its
        account's seat here, else None (the spectator view)."""
        caller = as_caller(who)
        if caller.token is not None:
            return self.seat_of(rt, caller)
        return None if caller.account_id is None else account_seat(rt, caller.account_id)

    def mover(self, rt: Runtime, who: Credential) -> int:
        seat = self.seat_of(rt, who)
        if rt.seats[seat].left_to is not None:
            raise Forbidden(f"Seat {seat + 1} left this game; {rt.seats[seat].left_to} plays it now")
        if rt.state.is_terminal():
            raise Forbidden("the game is over")
        self.not_abandoned(rt)
        refuse_while_waiting(rt)
        current = rt.state.current_player()
        if current != seat:
            raise Forbidden(f"it is not Seat {seat + 1}'s turn: Seat {current + 1} is to move")
        return seat

    def not_abandoned(self, rt: Runtime) -> None:
        if rt.abandoned:
            raise Forbidden(
                f"this game was abandoned: nobody moved in it for {self.settings.expire_days:g} days"
            )

    def expiry_seconds(self) -> float:
        return self.settings.expire_days * 86400

    # -- storing changes -----------------------------------------------------------------
    def payload(self, game_id: str, version: int, meta: int) -> str:
        return f"{game_id} {version} {meta} {self.instance}"

    def commit_moves(
        self,
        rt: Runtime,
        conn: Any,
        row: GameRow,
        moves: list[tuple[int, str]],
        new: State,
        timed_out_to: str | None = None,
        renew: bool = False,
    ) -> float:
        """Store the actions that led to ``new`` (one version each; ``timed_out_to`` marks the first;
        ``renew``: a person at the table played them); returns the time of the last."""
        at = 0.0
        for i, (seat, text) in enumerate(moves):
            version = row.version + 1 + i
            last = i == len(moves) - 1
            status = "over" if last and new.is_terminal() else "playing"
            at = self.store.append_action(
                conn,
                rt.id,
                len(rt.owners) + i,
                seat,
                text,
                version,
                status,
                timed_out_to if i == 0 else None,
                renew,
            )
        self.store.notify(conn, self.payload(rt.id, row.version + len(moves), row.meta_version))
        return at

    def adopt(
        self,
        rt: Runtime,
        row: GameRow,
        moves: list[tuple[int, str]],
        forced: list[bool],
        new: State,
        at: float,
        details: Details | None = None,
    ) -> None:
        """The cache follows committed actions (the last stored at ``at``; ``details``: their log
        details, made as they were played)."""
        if details is not None:
            rt.add_details(details.made)
        rt.state = new
        # in place (a copy each move was a new list as long as the game); their readers hold rt.lock
        rt.owners.extend(seat for seat, _ in moves)
        rt.forced.extend(forced)
        rt.version = row.version + len(moves)
        rt.row = replace(
            row,
            version=rt.version,
            num_actions=len(rt.owners),
            status="over" if new.is_terminal() else "playing",
            turn_started=at,
        )
