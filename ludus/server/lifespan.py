"""The app's life: worker threads, the schema migrated, PostgreSQL's LISTEN for other processes'
changes, bots and turn timers resumed at start; all of it closed at the end (the bots' worker
processes with it)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager

from fastapi import FastAPI

from ..engine import registry
from .automation import Automation
from .hub import Hub, PgListener
from .service import GameService
from .storage import NOTIFY_CHANNEL, Store

log = logging.getLogger("ludus.server")

WORKER_THREADS = 32


class RemoteCatchUp:
    """Games changed by another process: caught up from the database, one catch-up at a time per game,
    and only for games someone here watches. ``refresh(game_id)`` catches one up (blocking)."""

    def __init__(self, refresh: Callable[[str], None], hub: Hub) -> None:
        self.refresh = refresh
        self.hub = hub
        self.refreshing: set[str] = set()
        self.again: set[str] = set()  # changed again while being caught up: catch up once more

    def changed(self, game_id: str) -> None:
        """Called in the event loop for every change another process announced."""
        if not self.hub.watched(game_id):
            return
        if game_id in self.refreshing:
            self.again.add(game_id)
            return
        self.refreshing.add(game_id)
        asyncio.get_running_loop().create_task(self._refresh(game_id))

    async def _refresh(self, game_id: str) -> None:
        try:
            while True:
                self.again.discard(game_id)
                await asyncio.to_thread(self.refresh, game_id)
                if game_id not in self.again:
                    break
        except Exception:
            log.exception("catching up game %s failed", game_id)
        finally:
            self.refreshing.discard(game_id)
            self.again.discard(game_id)


def make_lifespan(
    store: Store, service: GameService, hub: Hub, automation: Automation
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's lifespan over these parts. A change from another process is shown to this one's
    watchers but starts no bot here (``Automation.catch_up``): the process that made it drives on."""
    catch_up = RemoteCatchUp(automation.catch_up, hub)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        for failure in registry.failures():  # an installed game that does not load: said at start
            log.error("%s", failure)
        loop = asyncio.get_running_loop()
        executor = ThreadPoolExecutor(WORKER_THREADS, thread_name_prefix="ludus-worker")
        loop.set_default_executor(executor)
        await asyncio.to_thread(store.migrate)
        hub.loop = automation.loop = loop
        listener = None
        if not store.is_sqlite:

            def on_remote(game_id: str, origin: str) -> None:
                if origin != service.games.instance:
                    loop.call_soon_threadsafe(catch_up.changed, game_id)

            listener = PgListener(store.listen_url(), NOTIFY_CHANNEL, on_remote)
            listener.start()
            await asyncio.to_thread(listener.ready.wait, 10)
        await automation.resume_all()
        try:
            yield
        finally:
            await automation.close()
            if listener is not None:
                listener.stop()
            await asyncio.to_thread(store.dispose)
            executor.shutdown(wait=False, cancel_futures=True)

    return lifespan
