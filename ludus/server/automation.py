"""Bots and turn timers: moves nobody sends, made in the background without blocking requests.

Bots think in worker processes (``botpool.BotPool``, ``LUDUS_BOT_PROCESSES`` of them), never in the
server's own, so a thinking bot slows no request. Bot turns wait in the pool's fair queue: round-robin
by host (the digest of the address that created the game), then round-robin by game within a host,
and a game has at most one bot turn waiting or thinking. A bot's budget counts from when it starts
thinking; a worker still thinking at twice the budget plus one second is killed and replaced, and the
stand-in bot's move (``Settings.standin_bot``, normally greedy, an urgent job of the pool) is played
instead, or a random legal one if that fails too. A move is committed only if the game is still at
the version the bot thought about, so a human answering just as the timer ran out never makes two
moves for one turn.

A process drives the bots of the games changed through it, and of every unfinished game when it
starts; changes caught up from other processes (``catch_up``) do not start its bots. On PostgreSQL,
a game's bots think only in the process holding the game's advisory lock (``claims.GameClaims``),
so two server processes never think about one game's turn at once.

Bots are paced so that a person can follow them: a bot's decision is committed no sooner than
``Settings.bot_pace`` seconds (``LUDUS_BOT_PACE``, default 0.6; 0 in the tests) after the game's
previous bot decision, counted from its commit; its thinking overlaps the wait.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

from .botpool import BotFailed, BotPool, Job
from .claims import GameClaims
from .errors import ServerError
from .runtime import BotJob, Runtime, TurnClock
from .seatbots import fallback_action
from .service import GameService

log = logging.getLogger("ludus.server")

STANDIN_SECONDS = 1.0  # the stand-in's budget when it plays for a bot that gave no move
EXPIRY_CHECK_SECONDS = 3600.0


class Automation:
    """Drives the games of this process: one driver task per game with something due."""

    def __init__(self, service: GameService, pool: BotPool | None = None) -> None:
        self.service = service
        self.settings = service.settings
        self.pool = pool or BotPool(self.settings.bot_processes)
        store = service.store
        self.claims = GameClaims(None if store.is_sqlite else store.listen_url())
        self.loop: asyncio.AbstractEventLoop | None = None
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._timers: dict[str, tuple[int, asyncio.Task[None]]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._closing = False
        self._remote = threading.local()  # ``game`` while catching up another process's change

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
        if getattr(self._remote, "game", None) == rt.id:
            return  # another process made this change: that process drives the game on
        state = rt.state
        if state.is_terminal() or rt.abandoned:
            return
        if (
            rt.seats[state.current_player()].bot is not None
            or rt.idle_seat is not None
            or rt.row.turn_seconds is not None
        ):
            self.kick_threadsafe(rt.id)

    def catch_up(self, game_id: str) -> None:
        """Another process changed ``game_id``: catch up and tell the listeners, but start no bot or
        timer here (blocking: call it in a worker thread)."""
        self._remote.game = game_id
        try:
            self.service.refresh(game_id)
        finally:
            self._remote.game = None

    async def _drive(self, game_id: str) -> None:
        last_bot = None  # when this driver last committed a bot's decision (monotonic seconds)
        claimed = False
        try:
            while not self._closing:
                self._again.discard(game_id)
                try:
                    job = await asyncio.to_thread(self.service.turns.next_job, game_id)
                except ServerError:
                    return
                if isinstance(job, BotJob):
                    if not claimed:
                        claimed = await asyncio.to_thread(self.claims.claim, game_id)
                        if not claimed:
                            return  # another process drives it, and looks again when it lets go
                    action = await self._think(job)
                    pace = self.settings.bot_pace
                    if last_bot is not None and pace > 0:
                        await asyncio.sleep(max(0.0, last_bot + pace - time.monotonic()))
                    await asyncio.to_thread(self.service.turns.commit_bot, job, action)
                    last_bot = time.monotonic()
                    continue
                if claimed:  # let go, then look once more: a change made meanwhile elsewhere is seen
                    claimed = False
                    await asyncio.to_thread(self.claims.release, game_id)
                    continue
                if isinstance(job, TurnClock):
                    self._start_timer(job)
                if game_id not in self._again:
                    return
        except Exception:
            log.exception("bot driver failed for game %s", game_id)
        finally:
            self._running.pop(game_id, None)
            if claimed and not self._closing:  # closing: the claims' connection goes, and its locks
                asyncio.get_running_loop().run_in_executor(None, self.claims.release, game_id)

    async def _think(self, job: BotJob) -> Any:
        """The bot's action (notation) from the pool; if it gives none, the stand-in's, else a random one."""
        try:
            return await self._ask(job, job.bot, job.seconds)
        except BotFailed as exc:
            log.warning(
                "bot %s gave no move in game %s (%s): the stand-in plays", job.bot_name, job.game_id, exc
            )
        seconds = min(STANDIN_SECONDS, self.settings.bot_max_seconds)
        try:
            return await self._ask(job, self.settings.standin_bot, seconds, urgent=True)
        except BotFailed as exc:
            log.warning("the stand-in gave no move in game %s either (%s): a random one", job.game_id, exc)
            return fallback_action(job.state)

    async def _ask(self, job: BotJob, bot: str, seconds: float, urgent: bool = False) -> Any:
        params = {"bot": bot, "seconds": seconds, "seed": job.seed}
        pooled = Job("bot", job.host, job.game_id, job.state, params, seconds)
        return await asyncio.wrap_future(self.pool.submit(pooled, urgent))

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
            if await asyncio.to_thread(self.service.turns.time_out, clock):
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
        every = min(EXPIRY_CHECK_SECONDS, self.settings.expire_days * 86400 / 10)
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
        await asyncio.to_thread(self.pool.close)
        await asyncio.to_thread(self.claims.close)
