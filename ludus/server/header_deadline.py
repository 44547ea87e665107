"""A deadline for a request's headers: a client that sends them a byte at a time is cut off.

uvicorn times out idle keep-alive connections, but every byte received cancels that timer, so a
client trickling its headers held a connection forever (19,900 of them stayed open past 25 s in a
probe). This protocol starts a clock when a connection opens and when each request on it begins,
and closes the connection if the headers are not complete within ``seconds``. The body has a
deadline of its own (``limits.BodyTimeout``); behind a reverse proxy, the proxy's own header timeout
comes first (docs/operators.md).
"""

from __future__ import annotations

import asyncio
from typing import Any


def header_deadline_protocol(seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol with a deadline of ``seconds`` for each request's headers
    (ImportError without httptools)."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class HeaderDeadline(HttpToolsProtocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._deadline is None:
                self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()  # first: a WebSocket upgrade returns from the parent early
            super().on_headers_complete()

        def _arm(self) -> None:
            self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

    return HeaderDeadline


def uvicorn_http(seconds: float) -> Any:
    """What ``uvicorn.run(http=...)`` takes: the deadline protocol where httptools is installed (the
    ``server`` extra brings it), else uvicorn's own choice."""
    try:
        return header_deadline_protocol(seconds)
    except ImportError:  # pragma: no cover - uvicorn without httptools
        return "auto"
