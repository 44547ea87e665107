"""ASGI middleware every HTTP answer passes through: body size, slow-request log, security headers,
and the 500 answer with an error id for anything unexpected."""

from __future__ import annotations

import logging
import secrets
import time

from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .hub import JSONResponse

log = logging.getLogger("ludus.server")

MAX_BODY_BYTES = 64 * 1024
# Every route takes at most MAX_BODY_BYTES (a record file for /api/replay too: a few KiB).
LARGE_BODY_PATHS: dict[str, int] = {}

# Every page and answer: scripts, styles and everything else from this origin only (no inline
# script or style), never framed, no Referer sent on, no content-type guessing.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class HttpOnly:
    """ASGI middleware for HTTP requests: anything else (the WebSocket, the lifespan) passes through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError


class BodyLimit(HttpOnly):
    """Refuse request bodies larger than ``limit`` bytes with 413, whether announced or streamed."""

    def __init__(
        self, app: ASGIApp, limit: int = MAX_BODY_BYTES, paths: dict[str, int] | None = None
    ) -> None:
        super().__init__(app)
        self.default = limit
        self.paths = paths or {}

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = self.paths.get(scope.get("path", ""), self.default)
        if _announced_too_big(scope, limit):
            await _too_large(limit)(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise StarletteHTTPException(413, f"request body larger than {limit} bytes")
            return message

        await self.app(scope, limited, send)


def _announced_too_big(scope: Scope, limit: int) -> bool:
    """Whether the request's Content-Length is over ``limit`` (an unreadable one is left to the stream)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                if int(value) > limit:
                    return True
            except ValueError:
                pass
    return False


class SlowRequestLog(HttpOnly):
    """Log HTTP requests slower than ``threshold_ms`` (``Settings.slow_request_ms``), as measured inside
    the server, so that a slow client can be told apart from a slow server."""

    def __init__(self, app: ASGIApp, threshold_ms: float) -> None:
        super().__init__(app)
        self.threshold = threshold_ms / 1000

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        try:
            await self.app(scope, receive, send)
        finally:
            took = time.perf_counter() - started
            if took > self.threshold:
                log.warning(
                    "slow request: %s %s took %.0f ms", scope.get("method"), scope.get("path"), took * 1000
                )


class SecurityHeaders(HttpOnly):
    """Add ``SECURITY_HEADERS`` to every HTTP answer (a route may set its own instead)."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        api = scope.get("path", "").startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in SECURITY_HEADERS if name not in present]
                if api and b"cache-control" not in present:
                    headers.append((b"cache-control", b"no-store"))  # views and tokens stay out of caches
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class ErrorIds(HttpOnly):
    """An unexpected error answers JSON ``{"detail", "error_id"}`` with status 500 and logs its
    traceback under that id, so a user's report leads to the log line without showing internals."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def tracking(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        except Exception as exc:
            error_id = log_unexpected(exc, f"{scope.get('method')} {scope.get('path')}")
            if not started:
                await internal_error(error_id)(scope, receive, send)


def log_unexpected(exc: BaseException, where: str) -> str:
    """Log ``exc`` with its traceback under a new error id; return the id."""
    error_id = secrets.token_hex(8)
    log.error("unexpected error %s in %s", error_id, where, exc_info=exc)
    return error_id


def internal_error(error_id: str) -> JSONResponse:
    return JSONResponse(
        {"detail": "internal error: the server could not answer this request", "error_id": error_id},
        status_code=500,
    )


def _too_large(limit: int) -> JSONResponse:
    return JSONResponse({"detail": f"request body larger than {limit} bytes"}, status_code=413)
