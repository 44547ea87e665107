"""The online play server: an ASGI app (FastAPI) over SQLite or PostgreSQL.

``create_app(database_url)`` builds the app; ``serve(host, port, database_url)`` runs it under
uvicorn (the ``ludus serve`` command). Imported lazily so that ``import ludus`` stays light.
"""

from __future__ import annotations

from typing import Any


def create_app(database_url: str | None = None, **kwargs: Any) -> Any:
    from .app import create_app as _create_app

    return _create_app(database_url, **kwargs)


def serve(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None) -> None:
    """Serve until interrupted; the database URL falls back to LUDUS_DATABASE_URL, then ./ludus.db."""
    import uvicorn

    from .app import MAX_WS_MESSAGE

    uvicorn.run(create_app(database_url), host=host, port=port, ws_max_size=MAX_WS_MESSAGE,
                log_level="warning", access_log=False)


__all__ = ["create_app", "serve"]
