"""The server's limits: what one client, one game or all bots together may take.

Every limit is configurable through ``ServerLimits`` (or ``LUDUS_*`` environment variables, read
once when the app is built) and documented in the README's server section. Refusals are 429 with
a ``Retry-After`` header and a JSON reason, never a silent drop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from typing import Any

from limits import parse as parse_rate
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import ServerError


def env_fields(cls: type, prefix: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """Values of the settings dataclass ``cls`` from the environment: field ``x`` from ``PREFIX_X``,
    converted to the type of its default; ``overrides`` win."""
    values: dict[str, Any] = {}
    for f in fields(cls):
        raw = os.environ.get(f"{prefix}{f.name.upper()}")
        if raw is not None:
            kind: Callable[[str], Any] = type(f.default)
            values[f.name] = kind(raw) if kind is not str else raw
    values.update(overrides)
    return values


class TooManyRequests(ServerError):
    """A limit of this server is reached; ``retry_after`` (seconds) says when to try again."""

    status = 429

    def __init__(self, detail: str, retry_after: float = 1.0) -> None:
        super().__init__(detail)
        self.retry_after = max(1, math.ceil(retry_after))


@dataclass(frozen=True)
class ServerLimits:
    """Caps of one server process. Field ``x`` is read from ``LUDUS_X`` by ``from_env``."""

    # bots and hints thinking at once, each in a worker process of its own (``botpool``); further ones
    # wait in a queue served round-robin by the games' hosts, then by game
    bot_processes: int = max(1, (os.cpu_count() or 2) - 1)
    bot_max_seconds: float = 5.0  # a bot's time a move is capped to this (``ismcts:seconds=10`` -> 5 s)
    max_bot_games: int = 200  # unfinished games with a bot seat; creating one more is refused (429)
    bot_games_per_host: int = 20  # unfinished games with a bot seat one address (or account) created
    open_tables_per_host: int = 5  # one address's games with a seat offered in the lobby (GET /api/games)
    lobby_per_host: int = 3  # the most open tables of one address the lobby lists (its newest)
    min_turn_seconds: float = 10.0  # the shortest turn timer a game may ask for
    expire_days: float = 14.0  # an unfinished game idle this long is marked abandoned (kept as a record)
    create_rate: str = "30/minute"  # game creations per client address
    join_rate: str = "60/minute"  # joins per client address
    replay_rate: str = "600/minute"  # replay steps per client address (a viewer asks at most ~500)
    ws_per_game: int = 64  # open WebSockets on one game
    ws_per_client: int = 32  # open WebSockets from one client address
    body_seconds: float = 10.0  # a request body must arrive within this (slow clients get 408)
    header_seconds: float = 5.0  # a request's headers must arrive within this, or the connection is closed
    lobby_page: int = 100  # the most games one lobby page lists

    @classmethod
    def from_env(cls, **overrides: object) -> ServerLimits:
        limits = cls(**env_fields(cls, "LUDUS_", overrides))
        for rate in (limits.create_rate, limits.join_rate):
            parse_rate(rate)  # a bad rate is an error at start-up, not at the first request
        return limits


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

    def __init__(self, app: ASGIApp, limits: ServerLimits) -> None:
        self.app = app
        self.rates = RateLimiter(
            {"create": limits.create_rate, "join": limits.join_rate, "replay": limits.replay_rate}
        )
        self.sockets = SocketCounter(limits.ws_per_game, limits.ws_per_client)

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
