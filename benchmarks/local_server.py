"""A ludus server in a thread of the benchmark's own process, on a free loopback port, with limits
wide enough for one machine's many clients (the browser benchmarks' common start-up)."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import uvicorn

from ludus.server.app import create_app
from ludus.server.settings import Settings


def start(db: Path, bot_seconds: float) -> tuple[uvicorn.Server, str]:
    """Serve a SQLite database at ``db``; the server and its base URL (stop: ``should_exit = True``)."""
    app = create_app(
        f"sqlite:///{db}",
        settings=Settings(
            bot_seconds=bot_seconds,
            create_rate="10000/minute",
            join_rate="10000/minute",
            ws_per_client=10000,
            bot_games_per_host=10000,
            open_tables_per_host=10000,
            lobby_per_host=10000,
        ),
    )
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}"
