"""The online play server: an ASGI app (FastAPI) over SQLite or PostgreSQL.

``create_app(database_url, settings=...)`` builds the app; ``serve(host, port, settings)`` runs it
under uvicorn (the ``ludus serve`` command). Imported lazily so that ``import ludus`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .settings import Settings


def create_app(database_url: str | None = None, **kwargs: Any) -> Any:
    from .app import create_app as _create_app

    return _create_app(database_url, **kwargs)


def serve(host: str = "127.0.0.1", port: int = 8000, settings: Settings | None = None) -> None:
    """Serve until interrupted, with ``settings`` (None: read from the environment now)."""
    import uvicorn

    from .header_deadline import uvicorn_http
    from .routes_ws import MAX_WS_FRAME
    from .settings import load_settings

    tune_gc()
    settings = settings or load_settings()

    # No permessage-deflate: compressing every view cost a tenth of the server's CPU for a few KiB.
    # X-Forwarded-For is believed only from ``forwarded_allow_ips`` (default: 127.0.0.1, a proxy on
    # this host), so that rate limits count the real client behind a reverse proxy.
    uvicorn.run(
        create_app(settings=settings),
        host=host,
        port=port,
        http=uvicorn_http(settings.header_seconds),
        ws_max_size=MAX_WS_FRAME,  # up to this, a message over MAX_WS_MESSAGE gets an error reply
        ws_per_message_deflate=False,
        proxy_headers=True,
        forwarded_allow_ips=settings.forwarded_allow_ips,
        log_level="warning",
        access_log=False,
    )


YOUNG_GC_SECONDS = 0.25
FULL_GC_SECONDS = 600.0
QUIET_CHECK_EVERY = 8  # while young collections find no garbage, one tick in this many still collects


def tune_gc(
    young_seconds: float = YOUNG_GC_SECONDS,
    full_seconds: float = FULL_GC_SECONDS,
    quiet_every: int = QUIET_CHECK_EVERY,
) -> None:
    """Short garbage-collection pauses under load: every ``young_seconds`` the young objects are
    collected and what survives is frozen out of every later collection; everything is collected
    together every ``full_seconds`` (0: never).

    Python's own trigger counts allocations minus deallocations, and each game's state dies one
    move after it is made (an old object): the young generation then grew far past its threshold
    between collections (pauses up to ~140 ms with a thousand games playing), and the older ones
    walked every game's state (80-100 ms). Collected by time, a young collection walks only what the
    last quarter second made and kept. Frozen objects are still freed by their reference counts when
    they die (a move leaves no reference cycle behind: tests/server/test_cycles.py); a cycle frozen
    while alive waits for the next full collection.

    Moves make no garbage cycles, so under steady play a young collection finds nothing, yet walked
    the new states' references into old objects scattered in memory (~15 ms of CPU, holding the GIL,
    four times a second with a thousand games). After two young collections in a row that find
    nothing, only one tick in ``quiet_every`` collects (the others freeze at once); the first that
    finds garbage brings back a collection every tick. A cycle made in a skipped tick waits for the
    next full collection.
    """
    import gc
    import threading

    gc.collect()
    gc.freeze()
    gc.disable()
    if not any(t.name == "ludus-gc" for t in threading.enumerate()):
        threading.Thread(
            target=_collections,
            args=(young_seconds, full_seconds, max(1, quiet_every)),
            name="ludus-gc",
            daemon=True,
        ).start()


def _collections(young_seconds: float, full_seconds: float, quiet_every: int) -> None:
    """``tune_gc``'s thread: the young collections, and the full ones."""
    import gc
    import time

    last_full = time.monotonic()
    tick = quiet = 0  # quiet: young collections in a row that found no garbage
    while True:
        time.sleep(young_seconds)
        tick += 1
        if full_seconds > 0 and time.monotonic() - last_full >= full_seconds:
            gc.unfreeze()
            gc.collect()
            last_full = time.monotonic()
        elif young_due(tick, quiet, quiet_every):
            quiet = 0 if gc.collect(0) else quiet + 1
        gc.freeze()


def young_due(tick: int, quiet: int, quiet_every: int) -> bool:
    """Whether tick ``tick`` collects the young objects, after ``quiet`` collections in a row that found
    no garbage: every tick until two found none, then one in ``quiet_every``."""
    return quiet < 2 or tick % quiet_every == 0


__all__ = ["create_app", "serve", "tune_gc"]
