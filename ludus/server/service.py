"""The games being played: every rule of the API, independent of HTTP.

A game in memory (``Runtime``) is a cache of what the database holds: before each use it
is checked against the game row's ``version`` (actions, undos) and ``meta_version`` (joins,
leaves), and brought up to date if another process changed it. Every change is one
database transaction that holds the game row's write lock and is committed before the
caller is answered; the cache changes only after the commit, so an error changes nothing.
Methods are blocking: the app calls them in worker threads, except ``view_now`` and
``Moves.play``, made for the event loop's thread (they wait on it only when they must).

``GameService`` is made of named parts, each holding the one cache of games (``games``): creating
and joining (``lobby``), playing, undoing and leaving (``moves``), the bots' turns and turn timers
(``turns``); viewing is the service's own.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import orjson

from .caller import Credential
from .errors import Forbidden
from .game_cache import CACHE_SIZE, GAME_ID, GameCache
from .lobby import MAX_TURN_SECONDS, Lobby
from .moves import MAX_SEQUENCE, Moves
from .runtime import MAX_FORCED, BotJob, Runtime, TurnClock, advance, play_forced
from .seatbots import make_seat_bot
from .settings import Settings
from .storage import Store
from .turns import BotTurns
from .views import seat_names, timed_view_text, view_of, view_text

log = logging.getLogger("ludus.server")

SERVER_OPTIONS = ("turn_seconds", "hints")


class GameService:
    """Every rule of the API over one store and one set of settings: its parts, and the views."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.games = GameCache(store, settings)
        self.lobby = Lobby(self.games)
        self.moves = Moves(self.games)
        self.turns = BotTurns(self.games)

    # -- viewing ------------------------------------------------------------------------------
    def view(self, game_id: str, token: Credential) -> dict[str, Any]:
        return orjson.loads(self.view_text(game_id, token))  # type: ignore[no-any-return]

    def view_text(self, game_id: str, token: Credential) -> str:
        """The view as JSON text, as the HTTP route sends it (``view`` is it read back)."""
        rt = self.games.read(game_id)
        with rt.lock:
            seat = self.games.viewer(rt, token)
            return timed_view_text(rt, seat)

    def view_now(self, game_id: str, token: Credential) -> str | None:
        """The view as JSON text, made at once on the calling thread (the event loop) when that needs
        no waiting: SQLite, the game cached and current, its lock free. None: ask ``view_text`` in a
        worker thread.

        Most views are of a game that has not changed since it was last shown; a hop to a
        worker thread cost more than making the view.
        """
        rt = self.games.locked_if_current(game_id)
        if rt is None:
            return None
        try:
            seat = self.games.viewer(rt, token)
            return timed_view_text(rt, seat)
        finally:
            rt.lock.release()

    def seat_for(self, game_id: str, token: Credential) -> int | None:
        """The seat a token (or a session's account) opens (None: a spectator); raises if the game or
        token is unknown."""
        return self.view_and_seat(game_id, token)[0]

    def view_and_seat(self, game_id: str, token: Credential) -> tuple[int | None, dict[str, Any]]:
        rt = self.games.read(game_id)
        with rt.lock:
            seat = self.games.viewer(rt, token)
            return seat, view_of(rt, seat)

    def record(self, game_id: str) -> dict[str, Any]:
        rt = self.games.read(game_id)
        with rt.lock:
            if not rt.state.is_terminal() and not rt.abandoned:
                raise Forbidden("the record (with its seed) is shown only once the game is over")
            names = seat_names(rt)  # as the table showed them, for the replay viewer: one name per person
            shown = [names.get(seat) for seat in range(len(rt.seats))]
            return {**rt.record(), "names": shown} if any(shown) else rt.record()

    # -- the games of this process ----------------------------------------------------------
    def refresh(self, game_id: str) -> None:
        """Another process changed this game: catch up and tell local listeners."""
        rt = self.games.read(game_id)
        with rt.lock:
            self.games.changed(rt)

    def resumable_ids(self) -> list[str]:
        """Unfinished games with bots or a turn timer: the ones to resume at start-up (others wait
        for their first request)."""
        with self.store.read() as conn:
            return self.store.resumable_ids(conn)

    def expire_idle(self, now: float | None = None) -> list[str]:
        """Mark unfinished games where no person played for ``expire_days`` abandoned; returns their ids."""
        at = time.time() if now is None else now
        expired = self.store.transact(
            lambda conn: self.store.expire_idle(conn, at, self.games.expiry_seconds())
        )
        if expired:
            log.info("%d idle games marked abandoned", len(expired))
        return expired


__all__ = [
    "CACHE_SIZE",
    "GAME_ID",
    "MAX_FORCED",
    "MAX_SEQUENCE",
    "MAX_TURN_SECONDS",
    "SERVER_OPTIONS",
    "BotJob",
    "GameService",
    "Runtime",
    "TurnClock",
    "advance",
    "make_seat_bot",
    "play_forced",
    "timed_view_text",
    "view_of",
    "view_text",
]
