"""The games being played: every rule of the API, independent of HTTP.

A game in memory (``Runtime``) is a cache of what the database holds: before each use it
is checked against the game row's ``version`` (actions, undos) and ``meta_version`` (joins,
leaves), and brought up to date if another process changed it. Every change is one
database transaction that holds the game row's write lock and is committed before the
caller is answered; the cache changes only after the commit, so an error changes nothing.
Methods are blocking: the app calls them in worker threads, except ``view_now`` and
``play_on_loop``, made for the event loop's thread (they answer at once or say they cannot).

``GameService`` is put together from its parts: the cache (``game_cache``), creating and
joining (``lobby``), playing, undoing and leaving (``moves``); viewing and the bots' turns are here.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from typing import Any

import orjson

from ludus.engine import IllegalActionError, State

from .errors import Forbidden
from .game_cache import CACHE_SIZE, GAME_ID, GameCache
from .lobby import MAX_TURN_SECONDS, Lobby
from .moves import MAX_SEQUENCE, Moves
from .runtime import MAX_FORCED, Before, BotJob, Details, Runtime, TurnClock, advance, play_forced
from .seatbots import decision_seed, make_seat_bot, seat_bot, standin_name
from .storage import GameRow
from .views import timed_view_text, turn_deadline, view_of, view_text

log = logging.getLogger("ludus.server")

SERVER_OPTIONS = ("turn_seconds", "hints")


class GameService(Lobby, Moves, GameCache):
    """Every rule of the API over one store: the lobby, moves, views, and the bots' turns."""

    # -- viewing ------------------------------------------------------------------------------
    def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        return orjson.loads(self.view_text(game_id, token))  # type: ignore[no-any-return]

    def view_text(self, game_id: str, token: str | None) -> str:
        """The view as JSON text, as the HTTP route sends it (``view`` is it read back)."""
        rt = self._read(game_id)
        with rt.lock:
            seat = None if token is None else self._seat_of(rt, token)
            return timed_view_text(rt, seat)

    def view_now(self, game_id: str, token: str | None) -> str | None:
        """The view as JSON text, made at once on the calling thread (the event loop) when that needs
        no waiting: SQLite, the game cached and current, its lock free. None: ask ``view_text`` in a
        worker thread.

        Most views are of a game that has not changed since it was last shown; a hop to a
        worker thread cost more than making the view.
        """
        if not self.store.is_sqlite:
            return None
        rt = self._runtimes.get(game_id) if isinstance(game_id, str) else None
        if rt is None or rt.state is None or rt.row is None or not rt.lock.acquire(blocking=False):
            return None
        try:
            try:
                versions = self.store.versions(game_id, wait=False)
            except Exception:  # busy, or anything else: the worker thread's path answers
                return None
            if versions != (rt.version, rt.row.meta_version):
                return None
            seat = None if token is None else self._seat_of(rt, token)
            return timed_view_text(rt, seat)
        finally:
            rt.lock.release()

    def seat_for(self, game_id: str, token: str | None) -> int | None:
        """The seat a token opens (None for no token); raises if the game or token is unknown."""
        return self.view_and_seat(game_id, token)[0]

    def view_and_seat(self, game_id: str, token: str | None) -> tuple[int | None, dict[str, Any]]:
        rt = self._read(game_id)
        with rt.lock:
            seat = None if token is None else self._seat_of(rt, token)
            return seat, view_of(rt, seat)

    def record(self, game_id: str) -> dict[str, Any]:
        rt = self._read(game_id)
        with rt.lock:
            if not rt.state.is_terminal() and not rt.abandoned:
                raise Forbidden("the record (with its seed) is shown only once the game is over")
            return rt.record()

    # -- bots and turn timers ---------------------------------------------------------------
    def next_job(self, game_id: str) -> BotJob | TurnClock | None:
        """What happens next without a human: a bot's move, a turn timer to start, or nothing."""
        rt = self._read(game_id)
        with rt.lock:
            state = rt.state
            if state.is_terminal() or rt.abandoned:
                return None
            seat = state.current_player()
            if rt.idle_seat is not None and rt.idle_seat != seat:
                rt.idle_seat = None
            name = rt.seats[seat].bot
            timed_out = name is None and rt.idle_seat == seat
            if timed_out:
                name = standin_name()
            if name is None:
                deadline = turn_deadline(rt)
                return None if deadline is None else TurnClock(game_id, seat, rt.version, deadline)
            bot_name, seconds = seat_bot(name, self.bot_seconds)
            seconds = min(seconds, self.limits.bot_max_seconds)  # the server's cap on a bot's time a move
            seed = rt.bot_seeds.get((seat, name))
            if seed is None:  # drawn once per seat: a decision thought about again is drawn the same way
                seed = rt.bot_seeds[(seat, name)] = secrets.randbits(32)
            return BotJob(
                game_id,
                seat,
                rt.version,
                state.clone(),
                name,
                bot_name,
                seconds,
                decision_seed(seed, rt.version),
                rt.row.host,
                timed_out,
            )

    def time_out(self, clock: TurnClock) -> bool:
        """The turn timer ran out: if nothing moved since, a bot plays the seat's turn."""
        rt = self._read(clock.game_id)
        with rt.lock:
            if rt.version != clock.version or rt.state.current_player() != clock.seat:
                return False
            rt.idle_seat = clock.seat
            log.info(
                "game %s: seat %d's turn timer ran out; a stand-in bot plays its turn", rt.id, clock.seat
            )
            return True

    def commit_bot(self, job: BotJob, action: Any) -> bool:
        """Commit a bot's move unless the game moved on meanwhile (then it is dropped)."""
        rt = self._get(job.game_id)
        with rt.lock:

            def work(
                conn: Any,
            ) -> tuple[GameRow, State, list[tuple[int, str]], list[bool], float, Details] | None:
                self._sync_locked(rt, conn, job.game_id)
                if rt.version != job.version or rt.state.current_player() != job.seat:
                    return None
                details = Details(rt.state)
                new, moves, forced = _bot_played(rt.state, job, action, details.before)
                return (
                    rt.row,
                    new,
                    moves,
                    forced,
                    self._commit_moves(rt, conn, rt.row, moves, new, job.bot_name if job.timed_out else None),
                    details,
                )

            done = self.store.transact(work)
            if done is None:
                return False
            row, new, moves, forced, at, details = done
            if job.timed_out:
                rt.timeouts = {**rt.timeouts, len(rt.owners): job.bot_name}
            self._adopt(rt, row, moves, forced, new, at, details)
            self._changed(rt)
            return True

    def refresh(self, game_id: str) -> None:
        """Another process changed this game: catch up and tell local listeners."""
        rt = self._read(game_id)
        with rt.lock:
            self._changed(rt)

    def resumable_ids(self) -> list[str]:
        """Unfinished games with bots or a turn timer: the ones to resume at start-up (others wait
        for their first request)."""
        with self.store.read() as conn:
            return self.store.resumable_ids(conn)

    def expire_idle(self, now: float | None = None) -> list[str]:
        """Mark unfinished games where no person played for ``expire_days`` abandoned; returns their ids."""
        at = time.time() if now is None else now
        expired = self.store.transact(lambda conn: self.store.expire_idle(conn, at, self._expiry_seconds()))
        if expired:
            log.info("%d idle games marked abandoned", len(expired))
        return expired


def _bot_played(
    state: State, job: BotJob, action: Any, before: Before | None = None
) -> tuple[State, list[tuple[int, str]], list[bool]]:
    """A copy of ``state`` after the bot's ``action`` (a random legal one if it chose an illegal one)
    and the single-choice steps after it; the actions played, and whether each was played for its seat.
    ``before`` is told each action with the state it is played from."""
    new = state.clone()
    only = len(new.legal_actions()) == 1
    try:
        new.apply_action(action)
    except IllegalActionError:
        log.error("bot %s chose an illegal action %s in game %s", job.bot_name, action, job.game_id)
        new.apply_action(random.choice(new.legal_actions()))
    if before is not None:
        before(state, new.history()[-1])  # ``state`` is the position it was played from
    auto = play_forced(new, before)
    moves = [(job.seat, new.history()[-len(auto) - 1]), *auto]
    return new, moves, [only] + [True] * len(auto)


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
