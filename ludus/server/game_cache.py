"""The service's games in memory: a cache of what the database holds, checked against the game row's
versions before each use, and the steps every change shares (seat checks, storing actions, telling
listeners)."""

from __future__ import annotations

import logging
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import Any

import orjson

import ludus
from ludus.engine import Game, State

from .errors import Forbidden, NotFound, Unauthorized
from .limits import ServerLimits
from .runtime import Details, Runtime, advance
from .seatbots import DEFAULT_SECONDS
from .security import matching_index
from .storage import GameRow, Store

log = logging.getLogger("ludus.server")

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
CACHE_SIZE = 2000


def shared_game(name: str, options: dict[str, Any]) -> Game:
    """The game ``name`` with ``options``, one object for every game of that configuration the server
    holds: its tables and the caches its rules keep per Game object (Garum's layouts and observed
    fixed parts) are made once, where a thousand games' own objects each made them again and
    overflowed those caches. Raises as ``ludus.load_game`` (TypeError: options that are not JSON)."""
    return _shared_game(name, orjson.dumps(options, option=orjson.OPT_SORT_KEYS))


@lru_cache(maxsize=128)
def _shared_game(name: str, options: bytes) -> Game:
    return ludus.load_game(name, **orjson.loads(options))


class GameCache:
    """The runtimes of recently used games (at most ``CACHE_SIZE``), each synced with its row."""

    def __init__(
        self, store: Store, bot_seconds: float = DEFAULT_SECONDS, limits: ServerLimits | None = None
    ) -> None:
        self.store = store
        self.limits = limits or ServerLimits()
        self.bot_seconds = min(bot_seconds, self.limits.bot_max_seconds)
        self.instance = secrets.token_hex(6)
        self._runtimes: OrderedDict[str, Runtime] = OrderedDict()
        self._registry_lock = threading.Lock()
        self.listeners: list[Callable[[Runtime], None]] = []

    # -- the cache ---------------------------------------------------------------
    def _get(self, game_id: str) -> Runtime:
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

    def _forget(self, game_id: str) -> None:
        with self._registry_lock:
            rt = self._runtimes.get(game_id)
            if rt is not None and rt.row is None:
                del self._runtimes[game_id]

    def _sync(self, rt: Runtime, conn: Any, row: GameRow | None) -> None:
        """Bring ``rt`` up to what the database holds (caller holds ``rt.lock``)."""
        if row is None:
            self._forget(rt.id)
            raise NotFound(f"no game {rt.id!r}")
        if rt.row is None or rt.row.meta_version != row.meta_version:
            rt.seats = self.store.seats(conn, rt.id)
        if (
            rt.state is not None
            and rt.version != row.version
            and (row.version - rt.version == row.num_actions - len(rt.owners) > 0)
        ):
            self._append_new(rt, conn, row)
        if rt.state is None or rt.version != row.version:
            self._reload(rt, conn, row)
        rt.row = row

    def _sync_locked(self, rt: Runtime, conn: Any, game_id: str) -> None:
        """Lock the game's row and bring ``rt`` up to it (caller holds ``rt.lock``, in a write
        transaction): the versions first, the whole row only when they moved (every change of a
        game's row moves one of them)."""
        current = rt.state is not None and rt.row is not None
        if current and self.store.lock_versions(conn, game_id) == (rt.version, rt.row.meta_version):
            return
        self._sync(rt, conn, self.store.lock_game(conn, game_id))

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
        if state is None or state.history() != texts[: len(state.history())]:
            game = shared_game(row.game, row.config)
            state = game.new_initial_state(seed=row.seed)
        else:
            state = state.clone()
        kept = len(state.history())
        forced = rt.forced[:kept] + advance(state, texts[kept:])
        rt.state = state
        rt.owners = [seat for seat, _ in stored]
        rt.forced = forced
        rt.version = row.version
        rt.timeouts = self.store.timed_out_plies(conn, rt.id) if row.turn_seconds is not None else {}

    def _read(self, game_id: str) -> Runtime:
        """The runtime, synced (caller must then take ``rt.lock`` to read it consistently)."""
        rt = self._get(game_id)
        with rt.lock:
            if rt.state is not None and rt.row is not None:
                versions = self.store.versions(game_id)
                if versions == (rt.version, rt.row.meta_version):
                    return rt  # the cache is current: no transaction needed
            with self.store.read() as conn:
                self._sync(rt, conn, self.store.game(conn, game_id))
        return rt

    def _sync_after(self, rt: Runtime) -> None:
        """Reload seats after a committed seat change, then tell listeners."""
        with self.store.read() as conn:
            self._sync(rt, conn, self.store.game(conn, rt.id))
        self._changed(rt)

    def _changed(self, rt: Runtime) -> None:
        """Tell the listeners (WebSocket hub, bot driver); called after commit under ``rt.lock``."""
        for listener in self.listeners:
            try:
                listener(rt)
            except Exception:  # a listener's failure must not undo a committed change
                log.exception("change listener failed for game %s", rt.id)

    # -- seats and tokens ----------------------------------------------------------------
    def _seat_of(self, rt: Runtime, token: str | None) -> int:
        if token is None:
            raise Unauthorized("this needs a seat token: send 'Authorization: Bearer <token>'")
        found = matching_index(token, [s.token_hash for s in rt.seats])
        if found is None:
            raise Unauthorized("the token does not belong to any seat of this game")
        return rt.seats[found].seat

    def _mover(self, rt: Runtime, token: str | None) -> int:
        seat = self._seat_of(rt, token)
        if rt.seats[seat].left_to is not None:
            raise Forbidden(f"seat {seat} left this game; {rt.seats[seat].left_to} plays it now")
        if rt.state.is_terminal():
            raise Forbidden("the game is over")
        self._not_abandoned(rt)
        current = rt.state.current_player()
        if current != seat:
            raise Forbidden(f"it is not seat {seat}'s turn: seat {current} is to move")
        return seat

    def _not_abandoned(self, rt: Runtime) -> None:
        if rt.abandoned:
            raise Forbidden(
                f"this game was abandoned: nobody moved in it for {self.limits.expire_days:g} days"
            )

    def _expiry_seconds(self) -> float:
        return self.limits.expire_days * 86400

    # -- storing changes -----------------------------------------------------------------
    def _payload(self, game_id: str, version: int, meta: int) -> str:
        return f"{game_id} {version} {meta} {self.instance}"

    def _commit_moves(
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
        self.store.notify(conn, self._payload(rt.id, row.version + len(moves), row.meta_version))
        return at

    def _adopt(
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
