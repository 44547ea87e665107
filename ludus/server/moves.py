"""Playing, taking back and leaving: each change one transaction under the game row's lock, the cache
following only after the commit."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

import ludus
from ludus.engine import IllegalActionError, State

from .errors import Conflict, Forbidden, NotFound, Unprocessable
from .game_cache import GameCache
from .runtime import Before, Details, Runtime, play_forced
from .seatbots import standin_name
from .storage import GameRow
from .views import skipped_plies, view_of

T = TypeVar("T")

MAX_SEQUENCE = 8  # actions one request may play, all or nothing (an optional step skipped, then the move)


class Moves(GameCache):
    """The service's part that changes a game at a seat's request."""

    def act(
        self,
        game_id: str,
        token: str | None,
        action: str,
        version: int | None,
        then: list[str] | tuple[str, ...] = (),
    ) -> dict[str, Any]:
        """Play ``action`` and then each of ``then``, all or nothing, each checked when its turn comes;
        the seat's new view.

        The seat must stay to move through the sequence. Every single-choice step after each of
        them is played for its seat (and marked so in the log), so a sequence names only decisions.
        """
        view: dict[str, Any] = self._act(game_id, token, action, version, then, view_of)
        return view

    def play(
        self,
        game_id: str,
        token: str | None,
        action: str,
        version: int | None,
        then: list[str] | tuple[str, ...] = (),
        answer: Callable[[Runtime, int], T] | None = None,
    ) -> T | None:
        """``act`` answering ``answer(runtime, seat)`` of the changed game (None: nothing, as for a
        WebSocket, whose answer is the view pushed to it; the HTTP route's is the view as JSON text,
        sent as it is: as a dictionary it was read from its kept text only to be encoded again)."""
        return self._act(game_id, token, action, version, then, answer)  # type: ignore[no-any-return]

    def _act(
        self,
        game_id: str,
        token: str | None,
        action: str,
        version: int | None,
        then: list[str] | tuple[str, ...],
        answer: Callable[[Runtime, int], Any] | None,
    ) -> Any:
        sequence = [action, *then]
        if len(sequence) > MAX_SEQUENCE:
            raise Unprocessable(f"at most {MAX_SEQUENCE} actions at once, got {len(sequence)}")
        rt = self._get(game_id)
        with rt.lock:

            def work(
                conn: Any,
            ) -> tuple[GameRow, int, State, list[tuple[int, str]], list[bool], float, Details]:
                self._sync_locked(rt, conn, game_id)
                row = rt.row
                seat = self._mover(rt, token)
                if version != rt.version:
                    raise Conflict(f"stale version {version}: the game is at version {rt.version}")
                details = Details(rt.state)
                new, moves, forced = _played(rt.state, seat, sequence, details.before)
                return (
                    row,
                    seat,
                    new,
                    moves,
                    forced,
                    self._commit_moves(rt, conn, row, moves, new, renew=True),
                    details,
                )

            row, seat, new, moves, forced, at, details = self.store.transact(work)
            self._played_by(rt, seat, row, moves, forced, new, at, details)
            return None if answer is None else answer(rt, seat)

    def _played_by(
        self,
        rt: Runtime,
        seat: int,
        row: GameRow,
        moves: list[tuple[int, str]],
        forced: list[bool],
        new: State,
        at: float,
        details: Details,
    ) -> None:
        """The cache follows a seat's committed moves, and the listeners are told (caller holds ``rt.lock``)."""
        self._adopt(rt, row, moves, forced, new, at, details)
        if rt.idle_seat == seat:
            rt.idle_seat = None
        self._changed(rt)

    async def play_on_loop(
        self,
        game_id: str,
        token: str | None,
        action: str,
        version: int | None,
        then: list[str] | tuple[str, ...] = (),
        answer: Callable[[Runtime, int], T] | None = None,
    ) -> tuple[bool, T | None]:
        """``play`` for the event loop's thread: the rules and the views run here and only the write
        waits, on SQLite's writer thread (``Store.transact_soon``); a worker thread for each action
        cost more than the action. (True, ``answer(runtime, seat)`` of the changed game, made before
        anything else can change it) once played; (False, None) when it cannot be played here: the
        game is not cached or its lock is taken, the database is not SQLite, the action or its seat
        is refused on what the cache holds, or another process changed the game. Then ``play``
        (synced with the database first) plays it or gives the refusal.
        """
        sequence = [action, *then]
        try:
            rt = self._get(game_id)
        except NotFound:
            return False, None
        if (
            len(sequence) > MAX_SEQUENCE
            or rt.state is None
            or rt.row is None
            or not rt.lock.acquire(blocking=False)
        ):
            return False, None
        try:
            row = rt.row
            expected = (rt.version, row.meta_version)
            if version != rt.version:
                raise _Elsewhere
            seat = self._mover(rt, token)
            details = Details(rt.state)
            new, moves, forced = _played(rt.state, seat, sequence, details.before)

            def work(conn: Any) -> float:
                if self.store.lock_versions(conn, game_id) != expected:
                    raise _Elsewhere  # another process moved it: ``play`` syncs first
                return self._commit_moves(rt, conn, row, moves, new, renew=True)

            future = self.store.transact_soon(work)
        except Exception:  # refused on the cache, or not SQLite: ``play`` answers
            rt.lock.release()
            return False, None
        if future is None:
            rt.lock.release()
            return False, None
        answered: list[T | None] = [None]

        def settle(done: asyncio.Future[float]) -> None:
            """On the loop once committed (the caller may have gone: the cache follows all the same)."""
            try:
                if not done.cancelled() and done.exception() is None:
                    self._played_by(rt, seat, row, moves, forced, new, done.result(), details)
                    if answer is not None:
                        answered[0] = answer(rt, seat)
            finally:
                rt.lock.release()

        future.add_done_callback(settle)
        try:
            await asyncio.shield(future)
        except _Elsewhere:
            return False, None
        return True, answered[0]

    async def play_async(
        self,
        game_id: str,
        token: str | None,
        action: str,
        version: int | None,
        then: list[str] | tuple[str, ...] = (),
        answer: Callable[[Runtime, int], T] | None = None,
    ) -> T | None:
        """What the routes call: ``play_on_loop``, else ``play`` in a worker thread."""
        played, answered = await self.play_on_loop(game_id, token, action, version, then, answer)
        if played:
            return answered
        return await asyncio.to_thread(self.play, game_id, token, action, version, then, answer)

    def undo(self, game_id: str, token: str | None, version: int | None) -> dict[str, Any]:
        rt = self._get(game_id)
        with rt.lock:

            def work(conn: Any) -> tuple[GameRow, int, int, State, float]:
                self._sync_locked(rt, conn, game_id)
                row = rt.row
                seat = self._mover(rt, token)
                if version is not None and version != rt.version:
                    raise Conflict(f"stale version {version}: the game is at version {rt.version}")
                keep, why = undo_point(rt, seat)
                if why:
                    raise Unprocessable(f"nothing to undo: {why}")
                previous = ludus.replay(rt.record(), upto=keep)
                at = self.store.truncate_actions(conn, game_id, keep, row.version + 1)
                self.store.notify(conn, self._payload(game_id, row.version + 1, row.meta_version))
                return row, seat, keep, previous, at

            row, seat, keep, previous, at = self.store.transact(work)
            rt.state = previous
            rt.owners = rt.owners[:keep]
            rt.forced = rt.forced[:keep]
            rt.version = row.version + 1
            rt.row = replace(  # an undo starts the turn again
                row, version=rt.version, num_actions=keep, status="playing", turn_started=at
            )
            self._changed(rt)
            return view_of(rt, seat)

    def leave(self, game_id: str, token: str | None) -> dict[str, Any]:
        rt = self._get(game_id)
        with rt.lock:

            def work(conn: Any) -> tuple[int, str]:
                self._sync_locked(rt, conn, game_id)
                seat = self._seat_of(rt, token)
                if rt.seats[seat].left_to is not None:
                    raise Forbidden(f"seat {seat} has already left")
                if rt.state.is_terminal():
                    raise Forbidden("the game is over")
                self._not_abandoned(rt)
                bot = standin_name()
                meta = rt.row.meta_version + 1
                self.store.update_seat(conn, game_id, seat, meta, left_to=bot)
                self.store.notify(conn, self._payload(game_id, rt.row.version, meta))
                return seat, bot

            seat, bot = self.store.transact(work)
            self._sync_after(rt)
            return {"id": game_id, "seat": seat, "bot": bot}


class _Elsewhere(Exception):
    """The game changed in another process since it was cached: play it after a sync."""


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
    start = len(state.history())
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
