"""Bots and turn timers: moves nobody sends, made in the background without blocking requests.

Bots think on a private copy of the state in a bounded set of worker threads shared by all
games (``BotScheduler``), fairly: a game has at most one bot turn waiting or thinking, waiting
turns are served in the order their games asked (a game that just moved goes to the back),
and one worker is kept for quick bots, so a game of slow bots never holds up a game of quick
ones behind it. A bot's budget counts from when it starts thinking; if it overruns that by
far, a random legal action is played instead. A move is committed only if the game is still
at the version the bot thought about, so bots in several processes, or a human answering
just as the timer ran out, never make two moves for one turn.

Bots are paced so that a person can follow them: a bot's decision is committed no sooner than
``bot_pace`` seconds (``LUDUS_BOT_PACE``, default 0.6; 0 in the tests) after the game's
previous bot decision, counted from its commit; its thinking overlaps the wait.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from .errors import ServerError
from .limits import ServerLimits
from .runtime import BotJob, Runtime, TurnClock
from .seatbots import fallback_action
from .service import GameService

log = logging.getLogger("ludus.server")

QUICK_SECONDS = 1.0  # a bot with at most this budget a move may use the worker kept for quick bots
EXPIRY_CHECK_SECONDS = 3600.0
DEFAULT_BOT_PACE = 0.6
MAX_BOT_PACE = 10.0


def bot_pace_from_env() -> float:
    """``LUDUS_BOT_PACE`` seconds between a game's consecutive bot decisions (0 to 10; default 0.6)."""
    text = os.environ.get("LUDUS_BOT_PACE", "")
    try:
        pace = float(text) if text.strip() else DEFAULT_BOT_PACE
    except ValueError:
        raise ValueError(f"LUDUS_BOT_PACE must be a number of seconds, not {text!r}") from None
    if not 0 <= pace <= MAX_BOT_PACE:
        raise ValueError(f"LUDUS_BOT_PACE must be from 0 to {MAX_BOT_PACE:g} seconds, not {pace:g}")
    return pace


def overrun_seconds(budget: float) -> float:
    """How long after it started a bot may think before a random move is played for it."""
    return budget * 2 + 1


@dataclass(eq=False)
class BotTask:
    """One bot turn in the scheduler: ``started`` gets the time it began, ``done`` its action."""

    job: BotJob
    started: Future[float] = field(default_factory=Future)
    done: Future[Any] = field(default_factory=Future)

    @property
    def slow(self) -> bool:
        return self.job.seconds > QUICK_SECONDS


class BotScheduler:
    """``workers`` threads that run bot turns in the order games asked, one worker kept for quick bots."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self.slow_cap = max(1, self.workers - 1)
        self._waiting: deque[BotTask] = deque()
        self._slow_busy = 0
        self._cond = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._closed = False

    def submit(self, job: BotJob) -> BotTask:
        task = BotTask(job)
        with self._cond:
            if self._closed:
                raise RuntimeError("the bot scheduler is closed")
            self._waiting.append(task)
            if len(self._threads) < self.workers:
                thread = threading.Thread(
                    target=self._work, name=f"ludus-bot-{len(self._threads)}", daemon=True
                )
                self._threads.append(thread)
                thread.start()
            self._cond.notify()
        return task

    def waiting(self) -> int:
        with self._cond:
            return len(self._waiting)

    def _next(self) -> BotTask | None:
        """The first waiting task a free worker may take (caller holds the condition)."""
        for i, task in enumerate(self._waiting):
            if not task.slow or self._slow_busy < self.slow_cap:
                del self._waiting[i]
                if task.slow:
                    self._slow_busy += 1
                return task
        return None

    def _work(self) -> None:
        while True:
            with self._cond:
                while (task := self._next()) is None:
                    if self._closed:
                        return
                    self._cond.wait()
            try:
                if task.started.set_running_or_notify_cancel() and task.done.set_running_or_notify_cancel():
                    task.started.set_result(time.monotonic())
                    try:
                        task.done.set_result(task.job.bot.step(task.job.state))
                    except BaseException as exc:
                        task.done.set_exception(exc)
            finally:
                with self._cond:
                    if task.slow:
                        self._slow_busy -= 1
                    self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            for task in self._waiting:
                task.started.cancel()
            self._waiting.clear()
            self._cond.notify_all()


class Automation:
    def __init__(
        self, service: GameService, limits: ServerLimits | None = None, bot_pace: float | None = None
    ) -> None:
        self.service = service
        self.limits = limits or service.limits
        self.bot_pace = bot_pace_from_env() if bot_pace is None else bot_pace
        self.scheduler = BotScheduler(self.limits.bot_workers)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._timers: dict[str, tuple[int, asyncio.Task[None]]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._closing = False

    def kick(self, game_id: str) -> None:
        """Something changed in ``game_id``: let its bots move or its turn timer start (in the loop)."""
        if self._closing:
            return
        if game_id in self._running:
            self._again.add(game_id)
            return
        self._running[game_id] = asyncio.get_running_loop().create_task(self._drive(game_id))

    def kick_threadsafe(self, game_id: str) -> None:
        if self.loop is not None and not self._closing:
            self.loop.call_soon_threadsafe(self.kick, game_id)

    def on_change(self, rt: Runtime) -> None:
        """Service listener (under the game's lock): kick only games where something may be due."""
        state = rt.state
        if state.is_terminal() or rt.abandoned:
            return
        if (
            rt.seats[state.current_player()].bot is not None
            or rt.idle_seat is not None
            or rt.row.turn_seconds is not None
        ):
            self.kick_threadsafe(rt.id)

    async def _drive(self, game_id: str) -> None:
        last_bot = None  # when this driver last committed a bot's decision (monotonic seconds)
        try:
            while not self._closing:
                self._again.discard(game_id)
                try:
                    job = await asyncio.to_thread(self.service.next_job, game_id)
                except ServerError:
                    return
                if isinstance(job, BotJob):
                    action = await self._think(job)
                    if last_bot is not None and self.bot_pace > 0:
                        await asyncio.sleep(max(0.0, last_bot + self.bot_pace - time.monotonic()))
                    await asyncio.to_thread(self.service.commit_bot, job, action)
                    last_bot = time.monotonic()
                    continue
                if isinstance(job, TurnClock):
                    self._start_timer(job)
                if game_id not in self._again:
                    return
        except Exception:
            log.exception("bot driver failed for game %s", game_id)
        finally:
            self._running.pop(game_id, None)

    async def _think(self, job: BotJob) -> Any:
        """The bot's action, waited for from when it starts thinking (not from when it was queued)."""
        task = self.scheduler.submit(job)
        await asyncio.wrap_future(task.started)
        try:
            done = asyncio.shield(asyncio.wrap_future(task.done))  # a worker still holds it if we give up
            return await asyncio.wait_for(done, timeout=overrun_seconds(job.seconds))
        except TimeoutError:
            log.warning(
                "bot %s overran its budget in game %s; playing a random move", job.bot_name, job.game_id
            )
            return fallback_action(job.state)

    def _start_timer(self, clock: TurnClock) -> None:
        old = self._timers.get(clock.game_id)
        if old is not None:
            if old[0] == clock.version:
                return
            old[1].cancel()
        task = asyncio.get_running_loop().create_task(self._timer(clock))
        self._timers[clock.game_id] = (clock.version, task)

    async def _timer(self, clock: TurnClock) -> None:
        try:
            await asyncio.sleep(max(0.0, clock.deadline - time.time()))
            if await asyncio.to_thread(self.service.time_out, clock):
                self.kick(clock.game_id)
        except ServerError:
            pass
        finally:
            current = self._timers.get(clock.game_id)
            if current is not None and current[0] == clock.version:
                del self._timers[clock.game_id]

    async def resume_all(self) -> None:
        """After a start or restart: idle games expire, and games with bots or timers carry on.

        A turn timer runs out at the stored deadline, so a turn whose time ran out while the
        server was down is played by a stand-in bot at once. Games with neither are loaded
        when first asked for.
        """
        await asyncio.to_thread(self.service.expire_idle)
        for game_id in await asyncio.to_thread(self.service.resumable_ids):
            self.kick(game_id)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        """Mark idle games abandoned now and then (the first check is at start-up)."""
        every = min(EXPIRY_CHECK_SECONDS, self.limits.expire_days * 86400 / 10)
        while not self._closing:
            await asyncio.sleep(every)
            try:
                await asyncio.to_thread(self.service.expire_idle)
            except Exception:
                log.exception("expiring idle games failed")

    async def close(self) -> None:
        self._closing = True
        tasks = [*self._running.values(), *(t for _, t in self._timers.values())]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.scheduler.close()
