"""The browser client: static HTML, CSS and ES modules (no build step), served by the server.

``mount(app)`` adds the pages (``/``, ``/games/{id}``, ``/replay``), the static files and the
few endpoints the pages need besides the game API (game metadata, SVG rendering, replay).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

STATIC_DIR = Path(__file__).parent / "static"


def mount(app: Any) -> None:
    """Serve the client from a FastAPI ``app`` (imported lazily: ludus.web needs no server to load)."""
    from .routes import mount as _mount

    _mount(app)


__all__ = ["STATIC_DIR", "mount"]
