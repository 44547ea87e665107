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
    uvicorn.run(create_app(database_url), host=host, port=port, ws_max_size=MAX_WS_MESSAGE,
                ws_per_message_deflate=False, proxy_headers=True,
                forwarded_allow_ips=os.environ.get("LUDUS_FORWARDED_ALLOW_IPS", "127.0.0.1"),
                log_level="warning", access_log=False)


def tune_gc() -> None:
    """Fewer full garbage collections: each one walks every cached game (200 ms with a few hundred
    games held), stalling every request meanwhile. What is loaded by now (modules, classes) is frozen
    out of them; the youngest generation is collected after 50,000 allocations instead of 700, so a
    full collection comes about 70 times less often."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 10, 10)


__all__ = ["create_app", "serve", "tune_gc"]
