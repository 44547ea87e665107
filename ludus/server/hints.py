"""``GET /api/games/{id}/hint``: the best moves for the seat to move, for that seat only.

A hint is ``ludus.bots.hint`` on the seat's own view (determinizations re-deal everything it
cannot see), so it never tells a seat more than it knows. It is asked with the seat's token,
only while that seat is to move (401 without a token, 403 for anyone else), time-capped by the
server (``Settings.hint_seconds``), rate-limited per seat (429 with ``Retry-After``), and off in
a game whose creator said ``"hints": false`` (403). The same position always gives the same
answer: its seed is the position's length, and the last answer of each game is kept.

A hint thinks in the bots' worker processes (``botpool``), queued fairly with the bots' turns under
its game's host; one that cannot be had within ``WAIT_SECONDS`` (every worker busy, or its worker
failed) answers 503 with ``Retry-After``, counted against the rate all the same. A waiting hint
holds no thread (it is awaited on the event loop); at most ``AT_ONCE`` wait at a time, and one
more answers 503 at once, not counted.
"""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import CancelledError
from typing import TYPE_CHECKING, Any

from limits import parse as parse_rate
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, Field

from .botpool import BotFailed, BotPool, Job
from .caller import Credential
from .errors import Busy, Forbidden, Unprocessable
from .limits import TooManyRequests

if TYPE_CHECKING:
    from .game_cache import GameCache

VALUE = (
    "the heuristic's estimate of the seat's final score margin over its best rival (in a solo game: "
    "over the target), in points, averaged over re-deals of what the seat cannot see"
)
WAIT_SECONDS = 30.0  # the longest a hint request waits for its answer, queue included
AT_ONCE = 64  # hint requests waiting for their answers at once (each seat's own rate limits it too)


def hints_option(options: dict[str, Any]) -> bool | None:
    """Take the creator's ``hints`` server option out of ``options``: True, False, or None (not said)."""
    value = options.pop("hints", None)
    if value is not None and not isinstance(value, bool):
        raise Unprocessable("hints must be true or false (false: no seat may ask for hints in this game)")
    return value


class HintDesk:
    """Answers hint requests: checks the seat, the game's option and the rate, then thinks."""

    def __init__(self, games: GameCache, pool: BotPool) -> None:
        self.games = games
        self.pool = pool
        self.seconds = games.settings.hint_seconds
        self.most = games.settings.hint_most
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._rate = parse_rate(games.settings.hint_rate)
        self._last: dict[str, tuple[tuple, dict[str, Any]]] = {}  # game id -> (position key, answer)
        self._lock = threading.Lock()
        self._waiting = 0  # hint requests waiting for the pool (changed on the event loop only)

    async def hint(self, game_id: str, token: Credential, n: int = 3) -> dict[str, Any]:
        """The hint of the seat to move (the route's answer): checked in a worker thread, thought
        about in the pool, waited for on the event loop (no thread is held while a hint waits)."""
        prepared = await asyncio.to_thread(self._prepare, game_id, token, n)
        if isinstance(prepared, dict):
            return prepared  # the same position: the same answer, free of the rate
        seat, state, version, host = prepared
        if self._waiting >= AT_ONCE:
            raise Busy("too many hints are being thought about: try again in a moment")
        self._waiting += 1  # only ever changed on the event loop's thread
        try:
            answer = await self._think(game_id, seat, n, state, version, host)
        finally:
            self._waiting -= 1
        with self._lock:
            self._last[game_id] = ((version, seat, n), answer)
            if len(self._last) > 2000:
                self._last.pop(next(iter(self._last)))
        return answer

    def _prepare(self, game_id: str, token: Credential, n: int) -> dict[str, Any] | tuple[Any, ...]:
        """The kept answer for this position, or what thinking about it needs (seat, state, version,
        host); refuses a seat not to move, hints turned off and a bad ``n``."""
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= self.most:
            raise Unprocessable(f"n must be a whole number from 1 to {self.most}")
        rt = self.games.read(game_id)
        with rt.lock:
            seat = self.games.mover(rt, token)
            if getattr(rt.row, "hints", None) is False:
                raise Forbidden("hints are off in this game: its creator said so")
            state = rt.state.clone()
            version = rt.version
            host = rt.row.host
        with self._lock:
            kept = self._last.get(game_id)
        if kept is not None and kept[0] == (version, seat, n):
            return kept[1]
        return seat, state, version, host

    async def _think(
        self, game_id: str, seat: int, n: int, state: Any, version: int, host: str | None
    ) -> dict[str, Any]:
        """Count the hint against the seat's rate, then have the pool think about it."""
        self._count(game_id, seat)
        seconds = self.seconds
        params = {"n": n, "seconds": seconds, "seed": state.move_number()}
        job = Job("hint", host, game_id, state, params, seconds)
        try:
            found = await asyncio.wait_for(asyncio.wrap_future(self.pool.submit(job)), WAIT_SECONDS)
        except (TimeoutError, CancelledError, asyncio.CancelledError, BotFailed, RuntimeError) as exc:
            job.done.cancel()  # still queued: taken out; already thinking: its answer is dropped
            if isinstance(exc, asyncio.CancelledError):
                raise  # the request itself was cancelled (the client went)
            why = str(exc) or "every bot worker is busy"
            raise Busy(f"no hint now ({why}): try again in a moment") from None
        return {
            "id": game_id,
            "version": version,
            "seat": seat,
            "hints": found["hints"],
            "value": VALUE,
            "seconds": found["seconds"],
        }

    def _count(self, game_id: str, seat: int) -> None:
        """Count one hint of this seat; refuse it over the rate, saying when to ask again."""
        who = f"{game_id}:{seat}"
        if not self._limiter.hit(self._rate, "hint", who):
            stats = self._limiter.get_window_stats(self._rate, "hint", who)
            raise TooManyRequests(
                f"too many hints for Seat {seat + 1}: at most {self._rate.amount} per "
                f"{self._rate.get_expiry()} s",
                retry_after=stats.reset_time - time.time(),
            )


class Hint(BaseModel):
    action: str = Field(description="the move's notation, as POST /actions takes it")
    value: float = Field(
        description="estimated final score margin over the best rival (solo: over the target)"
    )
    why: str = Field(description="why the move is good, in the game's terms, step by step")
    sentence: str = Field(description="one plain sentence of what the move does and why")
    value_text: str = Field(
        description="the value in words: the final margin expected over the leader or target"
    )
    same: list[str] = Field(description="other moves that lead to the same position (merged into this hint)")


class HintAnswer(BaseModel):
    """The answer of ``GET /api/games/{id}/hint``."""

    id: str
    version: int = Field(description="the game's version the hints are for")
    seat: int
    hints: list[Hint] = Field(description="the best moves, best first")
    value: str = Field(description="what 'value' measures")
    seconds: float = Field(description="time spent thinking")
