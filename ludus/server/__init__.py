"""The online play server: an ASGI app (FastAPI) over SQLite or PostgreSQL.

``create_app(database_url)`` builds the app; ``serve(host, port, database_url)`` runs it under
uvicorn (the ``ludus serve`` command). Imported lazily so that ``import ludus`` stays light.
"""

from __future__ import annotations

import os
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
    uvicorn.run(
        create_app(database_url),
        host=host,
        port=port,
        ws_max_size=MAX_WS_MESSAGE,
        ws_per_message_deflate=False,
        proxy_headers=True,
        forwarded_allow_ips=os.environ.get("LUDUS_FORWARDED_ALLOW_IPS", "127.0.0.1"),
        log_level="warning",
        access_log=False,
    )


def tune_gc() -> None:
    """Shorter garbage-collection pauses under load. What is loaded by now (modules, classes) is
    frozen out of every collection; the youngest generation is collected after 30,000 allocations
    (not 700: each collection has a cost of its own) and the middle one after every third of those,
    so that it never holds more than a few seconds of survivors (each game's new state after a move
    lives until the next one): pauses of ~30-90 ms and ~100-170 ms with a thousand games playing,
    where (50,000, 10) gave ~50-150 ms and ~300 ms (benchmarks/server_load.py)."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(30_000, 3, 10)


__all__ = ["create_app", "serve", "tune_gc"]
