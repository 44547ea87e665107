"""Playing, taking back and leaving: each change one transaction under the game row's lock, the cache
following only after the commit."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import ludus
from ludus.engine import IllegalActionError, State

from .caller import Credential
from .errors import Conflict, Forbidden, Unprocessable
from .game_cache import GameCache
from .runtime import Before, Details, Runtime, play_forced
from .storage import GameRow
from .views import skipped_plies, view_of

T = TypeVar("T")

MAX_SEQUENCE = 8  # actions one request may play, all or nothing (an optional step skipped, then the move)


class GameMoved(Exception):
    """The game's row moved between the check of the cache and the write (another process played, or
    another move of this event loop was committed first): nothing was stored."""


@dataclass
class Played:
    """A seat's request played on a copy of the game, ready to be stored: the copy, each action as
    (seat, notation), whether each was played for its seat, and their log details."""

    seat: int
    row: GameRow
    new: State
    moves: list[tuple[int, str]]
    forced: list[bool]
    details: Details


class Moves:
    """The service's part that changes a game at a seat's request."""

    def __init__(self, games: GameCache) -> None:
        self.games = games
        self.store = games.store

    async def play(
        self,
        game_id: str,
        token: Credential,
        action: str,
        version: int | None,
        then: list[str] | tuple[str, ...] = (),
        answer: Callable[[Runtime, int], T] | None = None,
    ) -> T | None:
        """Play ``action`` and then each of ``then``, all or nothing, each checked when its turn comes;
        ``answer(runtime, seat)`` of the changed game, made before anything else can change it (None:
        nothing, as for a WebSocket, whose answer is the view pushed to it; the HTTP route's is the
        view as JSON text).

        The seat must stay to move through the sequence. Every single-choice step after each of them
        is played for its seat (and marked so in the log), so a sequence names only decisions.

        One way wherever it runs: the seat and the version are checked and the sequence is played on
        a copy of the current game (a refusal is raised there, before anything is written); the
        actions are stored in one transaction that finds the game's row where the copy started; the
        cache follows once they are committed. On SQLite, when the game is cached, current and its
        lock free (``GameCache.locked_if_current``), all of it runs on the event loop's thread and
        only the write waits, on SQLite's writer thread (a worker thread for each action cost more
        than the action). Otherwise (PostgreSQL, the game not cached or moved by another process, its
        lock held by a worker thread) it runs in a worker thread, which syncs the game under its row
        lock first; and so does a move whose write found the row moved meanwhile (``GameMoved``).
        """
        sequence = _sequence(action, then)
        answering: Callable[[Runtime, int], T | None] = _nothing if answer is None else answer
        rt = self.games.locked_if_current(game_id)
        if rt is not None:
            try:
                return await self._play_on_loop(rt, token, version, sequence, answering)
            except GameMoved:
                pass  # nothing was stored: synced first, the request is played on what the row holds
        return await asyncio.to_thread(self._play_waiting, game_id, token, version, sequence, answering)

    def act(
        self,
        game_id: str,
        token: Credential,
        action: str,
        version: int | None,
        then: list[str] | tuple[str, ...] = (),
    ) -> dict[str, Any]:
        """``play`` for a caller with a thread of its own (a script, a test): the worker thread's way,
        blocking; the seat's new view."""
        return self._play_waiting(game_id, token, version, _sequence(action, then), view_of)

    def _prepare(self, rt: Runtime, token: Credential, version: int | None, sequence: list[str]) -> Played:
        """The request played on a copy of the cached game (caller holds ``rt.lock``, the cache current):
        the seat, the version and every action checked, a refusal raised here."""
        seat = self.games.mover(rt, token)
        if version != rt.version:
            raise Conflict(f"stale version {version}: the game is at version {rt.version}")
        details = Details(rt.state)
        new, moves, forced = _played(rt.state, seat, sequence, details.before)
        return Played(seat, rt.row, new, moves, forced, details)

    def _store(self, rt: Runtime, conn: Any, played: Played) -> float:
        """Store the played actions (in the write transaction, the game's row held); their time."""
        return self.games.commit_moves(rt, conn, played.row, played.moves, played.new, renew=True)

    def _follow(self, rt: Runtime, played: Played, at: float) -> None:
        """The cache follows the committed actions, and the listeners are told (caller holds ``rt.lock``)."""
        self.games.adopt(rt, played.row, played.moves, played.forced, played.new, at, played.details)
        if rt.idle_seat == played.seat:
            rt.idle_seat = None
        self.games.changed(rt)

    async def _play_on_loop(
        self,
        rt: Runtime,
        token: Credential,
        version: int | None,
        sequence: list[str],
        answer: Callable[[Runtime, int], T],
    ) -> T:
        """``play`` on the event loop's thread, ``rt.lock`` taken by ``locked_if_current`` (released here,
        once the cache has followed the commit, whether or not the caller still waits)."""
        try:
            played = self._prepare(rt, token, version, sequence)
            expected = self.games.versions(rt)

            def work(conn: Any) -> float:
                if self.store.lock_versions(conn, rt.id) != expected:
                    raise GameMoved(rt.id)
                return self._store(rt, conn, played)

            future = self.store.transact_soon(work)
        except BaseException:
            rt.lock.release()
            raise
        answered: list[T] = []

        def settle(done: asyncio.Future[float]) -> None:
            """On the loop once committed (the caller may have gone: the cache follows all the same)."""
            try:
                if not done.cancelled() and done.exception() is None:
                    self._follow(rt, played, done.result())
                    answered.append(answer(rt, played.seat))
            finally:
                rt.lock.release()

        future.add_done_callback(settle)
        await asyncio.shield(future)
        return answered[0]  # made by ``settle``, which ran before this coroutine was woken

    def _play_waiting(
        self,
        game_id: str,
        token: Credential,
        version: int | None,
        sequence: list[str],
        answer: Callable[[Runtime, int], T],
    ) -> T:
        """``play`` in a thread that may wait: the game's lock, then in one write transaction the game
        synced under its row lock, the request prepared on it and stored."""
        rt = self.games.get(game_id)
        with rt.lock:

            def work(conn: Any) -> tuple[Played, float]:
                self.games.sync_locked(rt, conn)
                played = self._prepare(rt, token, version, sequence)
                return played, self._store(rt, conn, played)

            played, at = self.store.transact(work)
            self._follow(rt, played, at)
            return answer(rt, played.seat)

    def undo(self, game_id: str, token: Credential, version: int | None) -> dict[str, Any]:
        """Take back the seat's last decision (``undo_point``); the seat's new view."""
        games = self.games
        rt = games.get(game_id)
        with rt.lock:

            def work(conn: Any) -> tuple[GameRow, int, int, State, float]:
                games.sync_locked(rt, conn)
                row = rt.row
                seat = games.mover(rt, token)
                if version is not None and version != rt.version:
                    raise Conflict(f"stale version {version}: the game is at version {rt.version}")
                keep, why = undo_point(rt, seat)
                if why:
                    raise Unprocessable(f"nothing to undo: {why}")
                previous = ludus.replay(rt.record(), upto=keep)
                at = self.store.truncate_actions(conn, game_id, keep, row.version + 1)
                self.store.notify(conn, games.payload(game_id, row.version + 1, row.meta_version))
                return row, seat, keep, previous, at

            row, seat, keep, previous, at = self.store.transact(work)
            rt.state = previous
            rt.owners = rt.owners[:keep]
            rt.forced = rt.forced[:keep]
            rt.version = row.version + 1
            rt.row = replace(  # an undo starts the turn again
                row, version=rt.version, num_actions=keep, status="playing", turn_started=at
            )
            games.changed(rt)
            return view_of(rt, seat)

    def leave(self, game_id: str, token: Credential) -> dict[str, Any]:
        """The seat leaves; the stand-in bot (``Settings.standin_bot``) plays it from now on."""
        games = self.games
        rt = games.get(game_id)
        with rt.lock:

            def work(conn: Any) -> tuple[int, str]:
                games.sync_locked(rt, conn)
                seat = games.seat_of(rt, token)
                if rt.seats[seat].left_to is not None:
                    raise Forbidden(f"Seat {seat + 1} has already left")
                if rt.state.is_terminal():
                    raise Forbidden("the game is over")
                games.not_abandoned(rt)
                bot = games.settings.standin_bot
                meta = rt.row.meta_version + 1
                self.store.update_seat(conn, game_id, seat, meta, left_to=bot)
                self.store.notify(conn, games.payload(game_id, rt.row.version, meta))
                return seat, bot

            seat, bot = self.store.transact(work)
            games.sync_after(rt)
            return {"id": game_id, "seat": seat, "bot": bot}


def _nothing(rt: Runtime, seat: int) -> None:
    """The answer of a move that needs none (a WebSocket's: the view is pushed to it)."""


def _sequence(action: str, then: list[str] | tuple[str, ...]) -> list[str]:
    sequence = [action, *then]
    if len(sequence) > MAX_SEQUENCE:
        raise Unprocessable(f"at most {MAX_SEQUENCE} actions at once, got {len(sequence)}")
    return sequence


def _played(
    state: State, seat: int, sequence: list[str], before: Before | None = None
) -> tuple[State, list[tuple[int, str]], list[bool]]:
    """A copy of ``state`` after ``seat`` plays ``sequence`` (each followed by its single-choice steps):
    the copy, each action played as (seat, notation), and whether it was played for its seat.
    ``before`` is told each action with the state it is played from.

    A sequence stops at the undo barrier: an action after one that showed something new or ended
    the turn is refused, and so is the whole request, before anything is stored. A refusal never
    describes a position the seat has not reached: only the first action's refusal gives the
    engine's reason (the position the request started from); a later one says which action failed,
    not why, since the why would describe the position after the earlier ones (which the seat could
    then take back unseen).
    """
    new = state.clone()
    start = state.move_number()
    moves: list[tuple[int, str]] = []
    forced: list[bool] = []
    for i, text in enumerate(sequence):
        where = f"action {i + 1} of {len(sequence)} ({str(text)[:40]!r})"
        if i and (new.undo_barrier() > start or new.is_terminal() or new.current_player() != seat):
            raise Unprocessable(
                f"{where} was not played: an action before it shows something new or ends the turn, "
                "so it cannot be sent in the same request as what follows it; nothing was played"
            )
        # the position it is played from, for ``before`` once it proved legal: the first is ``state``
        # itself (``new`` is its copy); a later one of a sequence needs a copy of its own
        previous = None if before is None else state if i == 0 else new.clone()
        try:
            new.apply_action(text)
        except IllegalActionError as exc:
            if i:
                raise Unprocessable(
                    f"{where} is not legal after the actions before it; nothing was played"
                ) from None
            prefix = f"{where}: " if len(sequence) > 1 else ""
            raise Unprocessable(f"{prefix}{exc}") from None
        moves.append((seat, new.history()[-1]))
        if before is not None:
            before(previous, new.history()[-1])  # type: ignore[arg-type]  # set with before
        auto = play_forced(new, before)
        moves += auto
        forced += [False] + [True] * len(auto)
    return new, moves, forced


def undo_point(rt: Runtime, seat: int) -> tuple[int, str | None]:
    """How many actions stay when the seat takes back its last decision, or why it may not.

    The last decision is the seat's last action that was not played for it: the single-choice
    steps after it go with it (left in place, the server would only play them again), and so
    do the optional steps the seat skipped by making that move (``skips``), back to the
    decision the seat was last shown. The engine decides how far back anything may go
    (``undo_barrier()``): only the seat's own decisions since its turn began or something
    was last shown. The answer depends on the actions alone, so asking again never gives another.
    """
    owners, forced = rt.owners, rt.forced
    keep = len(owners)
    while keep and owners[keep - 1] == seat and forced[keep - 1]:
        keep -= 1
    if keep == 0 or owners[keep - 1] != seat:
        return keep, "the last decision is not this seat's own"
    keep -= 1  # the decision itself
    barrier = rt.state.undo_barrier()
    if barrier > keep:
        return (
            keep,
            "the turn's earlier decisions are settled (new information was revealed or the turn began)",
        )
    skips = skipped_plies(rt, barrier, keep)
    while keep > barrier and owners[keep - 1] == seat and (forced[keep - 1] or keep - 1 in skips):
        keep -= 1
    return keep, None
