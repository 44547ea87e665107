"""Bots and turn timers: moves nobody sends, made in the background without blocking requests.

A bot thinks in a small thread pool of its own, on a private copy of the state, within its
time budget (past it, a random legal action is played instead). Its move is committed only
if the game is still at the version it thought about, so bots in several processes, or a
human answering just as the timer ran out, never make two moves for one turn.
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor

from .errors import ServerError
from .seatbots import fallback_action, seat_bot
from .service import BotJob, GameService, Runtime, TurnClock

log = logging.getLogger("ludus.server")


class Automation:
    def __init__(self, service: GameService, bot_threads: int = 2) -> None:
        self.service = service
        self.pool = ThreadPoolExecutor(bot_threads, thread_name_prefix="ludus-bot")
        self.loop: asyncio.AbstractEventLoop | None = None
        self._running: dict[str, asyncio.Task] = {}
        self._again: set[str] = set()
        self._timers: dict[str, tuple[int, asyncio.Task]] = {}
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
        if state.is_terminal():
            return
        if rt.seats[state.current_player()].bot is not None or rt.idle_seat is not None \
                or rt.row.turn_seconds is not None:
            self.kick_threadsafe(rt.id)

    async def _drive(self, game_id: str) -> None:
        try:
            while not self._closing:
                self._again.discard(game_id)
                try:
                    job = await asyncio.to_thread(self.service.next_job, game_id)
                except ServerError:
                    return
                if isinstance(job, BotJob):
                    action = await self._think(job)
                    await asyncio.to_thread(self.service.commit_bot, job, action)
                    continue
                if isinstance(job, TurnClock):
                    self._start_timer(job)
                if game_id not in self._again:
                    return
        except Exception:
            log.exception("bot driver failed for game %s", game_id)
        finally:
            self._running.pop(game_id, None)

    async def _think(self, job: BotJob):
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self.pool, job.bot.step, job.state)
        try:
            _name, seconds = seat_bot(job.bot_name, self.service.bot_seconds)
            return await asyncio.wait_for(future, timeout=seconds * 2 + 1)
        except TimeoutError:
            log.warning("bot %s overran its budget in game %s; playing a random move", job.bot_name, job.game_id)
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
        """After a start or restart: every unfinished game's bots and timers carry on.

        A turn timer runs out at the stored deadline, so a turn whose time ran out while the
        server was down is played by a stand-in bot at once.
        """
        for game_id in await asyncio.to_thread(self.service.playing_ids):
            self.kick(game_id)

    async def close(self) -> None:
        self._closing = True
        tasks = [*self._running.values(), *(t for _, t in self._timers.values())]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.pool.shutdown(wait=False, cancel_futures=True)
