"""The online play server: an ASGI app (FastAPI) over SQLite or PostgreSQL.

``create_app(database_url)`` builds the app; ``serve(host, port, database_url)`` runs it under
uvicorn (the ``ludus serve`` command). Imported lazily so that ``import ludus`` stays light.
"""

from __future__ import annotations

import gc
import os
import threading
import time
from typing import Any


def create_app(database_url: str | None = None, **kwargs: Any) -> Any:
    from .app import create_app as _create_app

    return _create_app(database_url, **kwargs)


def serve(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None) -> None:
    """Serve until interrupted; the database URL falls back to LUDUS_DATABASE_URL, then ./ludus.db."""
    import uvicorn

    from .app import MAX_WS_MESSAGE

    tune_gc()

    # No permessage-deflate: compressing every view cost a tenth of the server's CPU for a few KiB.
    # X-Forwarded-For is believed only from LUDUS_FORWARDED_ALLOW_IPS (default: 127.0.0.1, a proxy
    # on this host), so that rate limits count the real client behind a reverse proxy.
    uvicorn.run(create_app(database_url), host=host, port=port, ws_max_size=MAX_WS_MESSAGE,
                ws_per_message_deflate=False, proxy_headers=True,
                forwarded_allow_ips=os.environ.get("LUDUS_FORWARDED_ALLOW_IPS", "127.0.0.1"),
                log_level="warning", access_log=False)


def tune_gc(young: float = 0.05, middle: float = 0.25, full: float = 600.0) -> threading.Thread:
    """Short garbage-collection pauses under load: collections on a clock, not on allocation counts.

    Each move leaves a new game state (~35 containers, ~1,000 references) that lives until the
    game's next move, a second or so. CPython starts a collection when *net* allocations pass a
    threshold, and a state replacing the one it frees adds nothing to that count, so the young
    generation grew to 50,000-200,000 objects between collections with a thousand games playing:
    pauses of 30-300 ms. Collected every ``young`` seconds it holds only that short while's states
    (a few ms), the middle generation every ``middle`` seconds, and everything (the only way to
    free reference cycles that lived long) every ``full`` seconds. What is loaded by now (modules,
    classes) is frozen out of every collection. Returns the daemon thread that collects.
    """
    gc.collect()
    gc.freeze()
    gc.disable()

    def collect() -> None:
        ticks = 0
        per_middle = max(1, round(middle / young))
        per_full = max(1, round(full / young))
        while True:
            time.sleep(young)
            ticks += 1
            gc.collect(2 if ticks % per_full == 0 else 1 if ticks % per_middle == 0 else 0)

    thread = threading.Thread(target=collect, name="ludus-gc", daemon=True)
    thread.start()
    return thread


__all__ = ["create_app", "serve", "tune_gc"]
