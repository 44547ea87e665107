"""Live updates: WebSocket subscribers of each game, and PostgreSQL LISTEN across processes.

After every committed change the service calls ``Hub.publish`` (in the thread that made it, under
the game's lock, so the state is the committed one); the hub computes one view per subscribed
seat and hands it to each connection's queue in the event loop. Other processes learn of
changes through ``NOTIFY`` (sent inside the committing transaction) and catch up from the
database before pushing.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
from starlette.responses import JSONResponse as _StarletteJSON
from starlette.responses import Response

from . import patches
from .views import timed_view_text, view_of

if TYPE_CHECKING:
    from .runtime import Runtime

log = logging.getLogger("ludus.server")
QUEUE_SIZE = 64


def dumps(value: Any) -> str:
    """JSON text of a view or message (orjson: a fifth of the standard library's time per view)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


class JSONResponse(_StarletteJSON):
    """Starlette's JSONResponse, encoded by orjson."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)


class JSONText(Response):
    """An answer that is JSON text already (a view kept as text): sent as it is, not encoded again."""

    media_type = "application/json"


@dataclass(eq=False)
class Subscriber:
    game_id: str
    seat: int | None
    queue: asyncio.Queue[Any] = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))
    patches: bool = False  # the client applies JSON patches after the first view (patches.py)

    def push(self, view: dict[str, Any] | str) -> None:
        """Queue a view or message (a dict, or its JSON text already made for every subscriber)."""
        if self.queue.full():  # a slow client skips to the newest views
            self.queue.get_nowait()
        self.queue.put_nowait(view)


class Hub:
    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._subs: dict[str, set[Subscriber]] = {}
        self._lock = threading.Lock()

    def subscribe(self, game_id: str, seat: int | None) -> Subscriber:
        sub = Subscriber(game_id, seat)
        with self._lock:
            self._subs.setdefault(game_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        with self._lock:
            subs = self._subs.get(sub.game_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.game_id]

    def watched(self, game_id: str) -> bool:
        with self._lock:
            return bool(self._subs.get(game_id))

    def publish(self, rt: Runtime) -> None:
        """Push the new views of ``rt`` (called under ``rt.lock`` after a commit)."""
        key = (rt.version, rt.row.meta_version)
        if key == rt.published:
            return
        rt.published = key
        with self._lock:
            subs = list(self._subs.get(rt.id, ()))
        if not subs or self.loop is None:
            return
        # one view, encoded once, per seat watched (a patch of it for the clients that asked)
        plain = [sub for sub in subs if not sub.patches]
        pushes = [(sub, timed_view_text(rt, sub.seat)) for sub in plain]
        if len(plain) < len(subs):
            pushes += patches.messages(
                [sub for sub in subs if sub.patches], lambda seat: view_of(rt, seat), dumps
            )
        try:
            here = asyncio.get_running_loop() is self.loop
        except RuntimeError:  # a worker thread
            here = False
        if here:
            _push_all(pushes)
        else:  # one wake-up of the event loop for all of them
            self.loop.call_soon_threadsafe(_push_all, pushes)

    def send(self, game_id: str, message: dict[str, Any]) -> None:
        """Push ``message`` (not a view: e.g. ``{"chat": ...}``) to every subscriber of ``game_id``, from
        any thread; encoded once for all of them."""
        with self._lock:
            subs = list(self._subs.get(game_id, ()))
        if not subs or self.loop is None:
            return
        text = dumps(message)
        pushes = [(sub, text) for sub in subs]
        try:
            here = asyncio.get_running_loop() is self.loop
        except RuntimeError:
            here = False
        if here:
            _push_all(pushes)
        else:
            self.loop.call_soon_threadsafe(_push_all, pushes)


def _push_all(pushes: list[tuple[Subscriber, str]]) -> None:
    for sub, view in pushes:
        sub.push(view)


class PgListener:
    """A thread that LISTENs for other processes' changes and hands them to ``on_change``."""

    def __init__(self, conninfo: str, channel: str, on_change: Callable[[str, str], None]) -> None:
        self.conninfo = conninfo
        self.channel = channel
        self.on_change = on_change
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ludus-pg-listen", daemon=True)
        self.ready = threading.Event()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()  # the thread ends within one notifies() timeout; no need to wait for it

    def deliver(self, payload: str) -> None:
        """Hand one notice to ``on_change``: its game and the process that sent it (its last word)."""
        game_id, _, rest = payload.partition(" ")
        self.on_change(game_id, rest.rsplit(" ", 1)[-1])

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {self.channel}")
                    self.ready.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.2):
                            self.deliver(note.payload)
            except Exception:
                if self._stop.is_set():
                    return
                log.exception("LISTEN connection lost; reconnecting")
                self._stop.wait(1.0)
