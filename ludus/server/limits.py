"""The server's limits on clients: rates per address, open WebSockets, slow bodies.

Every limit is a field of the server's ``Settings`` (``docs/settings.md``). Refusals are 429 with a
``Retry-After`` header and a JSON reason, never a silent drop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from limits import parse as parse_rate
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import ServerError

if TYPE_CHECKING:
    from .settings import Settings


class TooManyRequests(ServerError):
    """A limit of this server is reached; ``retry_after`` (seconds) says when to try again."""

    status = 429

    def __init__(self, detail: str, retry_after: float = 1.0) -> None:
        super().__init__(detail)
        self.retry_after = max(1, math.ceil(retry_after))


class RateLimiter:
    """Per-client-address moving-window limits (the ``limits`` library, in memory, per process)."""

    def __init__(self, rates: dict[str, str]) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._rates = {name: parse_rate(rate) for name, rate in rates.items()}

    def hit(self, what: str, client: str) -> None:
        """Count one ``what`` (e.g. 'create') by ``client``; raise TooManyRequests over the rate."""
        rate = self._rates[what]
        if not self._limiter.hit(rate, what, client):
            stats = self._limiter.get_window_stats(rate, what, client)
            raise TooManyRequests(
                f"too many {what} requests from {client}: at most {rate.amount} per {rate.get_expiry()} s",
                retry_after=stats.reset_time - time.time(),
            )


class SocketCounter:
    """Open WebSockets per game and per client address, each with a cap."""

    def __init__(self, per_game: int, per_client: int) -> None:
        self.per_game, self.per_client = per_game, per_client
        self._games: Counter[str] = Counter()
        self._clients: Counter[str] = Counter()
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def admit(self, game_id: str, client: str) -> Iterator[None]:
        """Hold one socket's place for the ``with`` block; raise TooManyRequests if a cap is reached."""
        with self._lock:
            if self._games[game_id] >= self.per_game:
                raise TooManyRequests(f"this game has {self.per_game} open WebSockets already", 5)
            if self._clients[client] >= self.per_client:
                raise TooManyRequests(f"{client} has {self.per_client} open WebSockets already", 5)
            self._games[game_id] += 1
            self._clients[client] += 1
        try:
            yield
        finally:
            with self._lock:
                for counter, key in ((self._games, game_id), (self._clients, client)):
                    counter[key] -= 1
                    if counter[key] <= 0:
                        del counter[key]


def client_address(scope: Scope) -> str:
    """The client's address as the server sees it (after uvicorn's X-Forwarded-For handling)."""
    client = scope.get("client")
    return client[0] if client else "unknown"


class BodyTimeout:
    """Answer 408 when a request body has not fully arrived ``seconds`` after the request began.

    uvicorn has no timeout for a body sent slowly, so a client trickling bytes would hold a
    connection and a worker forever; this bounds it from the first byte of the request on.
    """

    def __init__(self, app: ASGIApp, seconds: float = 10.0) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        deadline = time.monotonic() + self.seconds
        done = False

        async def timed() -> Message:
            nonlocal done
            if done:
                return await receive()
            try:
                # a timeout scope, not wait_for: no task of its own for each piece of every body
                async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                    message = await receive()
            except TimeoutError:
                raise HTTPException(
                    408, f"the request body did not arrive within {self.seconds:g} s"
                ) from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                done = True
            return message

        await self.app(scope, timed, send)


_GAME_WS = re.compile(r"^/api/games/([^/]+)/ws$")
_JOIN = re.compile(r"^/api/games/[^/]+/join$")
_GAME_REPLAY = re.compile(r"^/api/games/[^/]+/replay(?:/.*)?$")  # a step, or any path below
_RATED_POSTS = {"/api/games": "create", "/api/replay": "replay"}


def _refusal(exc: TooManyRequests) -> JSONResponse:
    return JSONResponse(
        {"detail": exc.detail}, status_code=exc.status, headers={"Retry-After": str(exc.retry_after)}
    )


def _rated(method: str | None, path: str) -> str | None:
    """Which per-address rate an HTTP request counts against, if any."""
    if method == "POST":
        return _RATED_POSTS.get(path) or ("join" if _JOIN.match(path) else None)
    return "replay" if method == "GET" and _GAME_REPLAY.match(path) else None


class ClientLimits:
    """Per client address: the rate of game creations, joins and replay steps, and the open WebSockets.

    A refused request is answered 429 with ``Retry-After`` and ``{"detail"}``; a WebSocket over
    a cap is accepted, told ``{"error": {"status": 429, "detail"}}`` and closed with code 4429.
    """

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.rates = RateLimiter(
            {"create": settings.create_rate, "join": settings.join_rate, "replay": settings.replay_rate}
        )
        self.sockets = SocketCounter(settings.ws_per_game, settings.ws_per_client)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http":
            what = _rated(scope.get("method"), path)
            if what is not None:
                try:
                    self.rates.hit(what, client_address(scope))
                except TooManyRequests as exc:
                    await _refusal(exc)(scope, receive, send)
                    return
        elif scope["type"] == "websocket" and (match := _GAME_WS.match(path)):
            try:
                admitted = self.sockets.admit(match.group(1), client_address(scope))
                admitted.__enter__()
            except TooManyRequests as exc:
                await _refuse_socket(exc, receive, send)
                return
            try:
                await self.app(scope, receive, send)
            finally:
                admitted.__exit__(None, None, None)
            return
        await self.app(scope, receive, send)


async def _refuse_socket(exc: TooManyRequests, receive: Receive, send: Send) -> None:
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    body = json.dumps({"error": {"status": exc.status, "detail": exc.detail, "retry_after": exc.retry_after}})
    await send({"type": "websocket.send", "text": body})
    await send({"type": "websocket.close", "code": 4000 + exc.status, "reason": exc.detail[:120]})
