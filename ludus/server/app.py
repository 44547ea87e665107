"""The ASGI app: HTTP routes and the WebSocket, thin over ``GameService``.

Blocking work (database, rules, views) runs in worker threads; bots think in a pool of
their own; the event loop only moves bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any, TypeVar

from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import ludus

from . import schemas
from .automation import Automation
from .errors import Busy, ServerError, Unauthorized, is_busy
from .hints import HintAnswer, HintDesk
from .hub import Hub, JSONResponse, PgListener, Subscriber, dumps
from .limits import BodyTimeout, ClientLimits, ServerLimits
from .seatbots import DEFAULT_SECONDS
from .service import GameService
from .storage import NOTIFY_CHANNEL, Store

log = logging.getLogger("ludus.server")
T = TypeVar("T")

MAX_BODY_BYTES = 64 * 1024
# Every route takes at most MAX_BODY_BYTES (a record file for /api/replay too: a few KiB).
LARGE_BODY_PATHS: dict[str, int] = {}
MAX_WS_MESSAGE = 16 * 1024
WORKER_THREADS = 32

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

DESCRIPTION = """Play ludus games online: create a game with human and bot seats, share the seat
tokens, play through HTTP and follow live through the WebSocket.

A seat token (`Authorization: Bearer <token>`) is shown once, when the seat is created or
joined. Without a token you see the spectator view. Errors answer `{"detail": "..."}`:
400 malformed JSON, 401 missing or unknown token, 403 not allowed now (not your turn, seat
left, record before the end), 404 unknown game, 409 stale version or no free seat,
413 body too large, 422 invalid request or illegal action (with the engine's reason).

Live views (not listed below, OpenAPI has no WebSockets): `WS /api/games/{id}/ws`. A seat sends
its token as the first message `{"token": "..."}` (without one: the spectator view; a `token`
query parameter is refused with close code 4400: URLs end up in logs). It sends the
current view at once, then the new view after every change; it accepts `{"action", "version"}`
messages with the limits of the HTTP route. Errors come as `{"error": {"status", "detail"}}`;
messages over 16 KiB are refused.

A busy database answers 503 with `Retry-After`; an unexpected error answers 500 with
`{"detail", "error_id"}` (the server log has the traceback under that id).
"""

BEARER = HTTPBearer(auto_error=False, description="the seat token returned when the seat was created or joined")


async def _token(request: Request,
                 credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)]) -> str | None:
    """The bearer token, None without an Authorization header; any other header is refused."""
    if "authorization" not in request.headers:
        return None
    if credentials is None:
        raise Unauthorized("the Authorization header must be 'Bearer <token>'")
    return credentials.credentials


Token = Annotated[str | None, Depends(_token)]

ERRORS = {code: {"model": schemas.ErrorBody} for code in (400, 401, 403, 404, 408, 409, 413, 422, 429, 503)}


class BodyLimit:
    """Refuse request bodies larger than ``limit`` bytes with 413, whether announced or streamed."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES, paths: dict[str, int] | None = None) -> None:
        self.app = app
        self.default = limit
        self.paths = paths or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.paths.get(scope.get("path", ""), self.default)
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    too_big = int(value) > limit
                except ValueError:
                    too_big = False
                if too_big:
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


class SlowRequestLog:
    """Log HTTP requests slower than ``LUDUS_SLOW_REQUEST_MS`` (default 500 ms), as measured inside
    the server, so that a slow client can be told apart from a slow server."""

    def __init__(self, app: ASGIApp, threshold_ms: float | None = None) -> None:
        self.app = app
        self.threshold = (threshold_ms if threshold_ms is not None
                          else float(os.environ.get("LUDUS_SLOW_REQUEST_MS", "500"))) / 1000

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        try:
            await self.app(scope, receive, send)
        finally:
            took = time.perf_counter() - started
            if took > self.threshold:
                log.warning("slow request: %s %s took %.0f ms", scope.get("method"), scope.get("path"), took * 1000)


class SecurityHeaders:
    """Add ``SECURITY_HEADERS`` to every HTTP answer (a route may set its own instead)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
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


class ErrorIds:
    """An unexpected error answers JSON ``{"detail", "error_id"}`` with status 500 and logs its
    traceback under that id, so a user's report leads to the log line without showing internals."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
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
    return JSONResponse({"detail": "internal error: the server could not answer this request",
                         "error_id": error_id}, status_code=500)


def busy_response(exc: BaseException) -> JSONResponse:
    log.warning("database busy: %s", exc)
    return JSONResponse({"detail": "the database is busy: try again in a moment"}, status_code=Busy.status,
                        headers={"Retry-After": str(Busy.retry_after)})


def as_server_error(exc: Exception) -> ServerError | None:
    """``exc`` as the error the client is answered with, None for an unexpected one."""
    if isinstance(exc, ServerError):
        return exc
    if is_busy(exc):
        log.warning("database busy: %s", exc)
        return Busy("the database is busy: try again in a moment")
    return None


def _too_large(limit: int) -> JSONResponse:
    return JSONResponse({"detail": f"request body larger than {limit} bytes"}, status_code=413)


def _validation_message(exc: RequestValidationError | ValidationError) -> tuple[int, str]:
    parts = []
    for err in exc.errors():
        if err.get("type") == "json_invalid":
            return 400, f"malformed JSON: {err.get('ctx', {}).get('error', err.get('msg'))}"
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {err.get('msg')}")
    return 422, "; ".join(parts) or "invalid request"


def create_app(database_url: str | None = None, *, bot_seconds: float = DEFAULT_SECONDS,
               limits: ServerLimits | None = None) -> FastAPI:
    """The server app over the database at ``database_url`` (default ``LUDUS_DATABASE_URL`` or ./ludus.db).

    The schema is migrated when the app starts (its lifespan), not when it is created.
    """
    store = Store(database_url)
    limits = limits or ServerLimits.from_env()  # ludus.server.limits: caps, rates, expiry
    service = GameService(store, bot_seconds=bot_seconds, limits=limits)
    hub = Hub()
    automation = Automation(service)
    service.listeners = [hub.publish, automation.on_change]

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        executor = ThreadPoolExecutor(WORKER_THREADS, thread_name_prefix="ludus-worker")
        loop.set_default_executor(executor)
        await asyncio.to_thread(store.migrate)
        hub.loop = automation.loop = loop
        listener = None
        if not store.is_sqlite:

            def on_remote(game_id: str, origin: str) -> None:
                if origin != service.instance:
                    loop.call_soon_threadsafe(_remote_change, game_id)

            listener = PgListener(store.listen_url(), NOTIFY_CHANNEL, on_remote)
            listener.start()
            await asyncio.to_thread(listener.ready.wait, 10)
        await automation.resume_all()
        try:
            yield
        finally:
            await automation.close()
            if listener is not None:
                listener.stop()
            await asyncio.to_thread(store.dispose)
            executor.shutdown(wait=False, cancel_futures=True)

    refreshing: set[str] = set()
    again: set[str] = set()  # changed again while being caught up: catch up once more

    def _remote_change(game_id: str) -> None:
        if not hub.watched(game_id):
            return
        if game_id in refreshing:
            again.add(game_id)
            return
        refreshing.add(game_id)
        asyncio.get_running_loop().create_task(_refresh(game_id))

    async def _refresh(game_id: str) -> None:
        try:
            while True:
                again.discard(game_id)
                await asyncio.to_thread(service.refresh, game_id)
                if game_id not in again:
                    break
        except Exception:
            log.exception("catching up game %s failed", game_id)
        finally:
            refreshing.discard(game_id)
            again.discard(game_id)

    app = FastAPI(title="ludus server", version=ludus.__version__, description=DESCRIPTION, lifespan=lifespan,
                  docs_url=None, redoc_url=None)
    app.state.service = service
    app.state.hub = hub
    app.state.automation = automation
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, paths=LARGE_BODY_PATHS)
    app.add_middleware(SlowRequestLog)
    app.add_middleware(ErrorIds)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(ClientLimits, limits=limits)
    app.add_middleware(BodyTimeout, seconds=limits.body_seconds)
    _mount_docs(app)

    async def run(fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)

    @app.exception_handler(ServerError)
    async def _server_error(request: Request, exc: ServerError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        if getattr(exc, "retry_after", None) is not None:
            headers = {"Retry-After": str(exc.retry_after)}
        return JSONResponse({"detail": exc.detail}, status_code=exc.status, headers=headers)

    for busy in _busy_errors():
        app.add_exception_handler(busy, lambda request, exc: busy_response(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        status, message = _validation_message(exc)
        return JSONResponse({"detail": message}, status_code=status)

    @app.post("/api/games", status_code=201, response_model=schemas.GameCreated, responses=ERRORS,
              summary="Create a game")
    async def create_game(body: schemas.CreateGame) -> JSONResponse:
        created = await run(service.create, body.game, body.options, body.seats, body.claim, body.names)
        return JSONResponse(created, status_code=201)

    @app.get("/api/games", response_model=list[schemas.OpenGame], responses=ERRORS,
             summary="Joinable games (a free human seat, still playing), newest first, a page at a time")
    async def open_games(limit: int = Query(limits.lobby_page, ge=1, le=limits.lobby_page),
                         offset: int = Query(0, ge=0, le=1_000_000)) -> JSONResponse:
        return JSONResponse(await run(service.open_games, limit, offset))

    @app.post("/api/games/{game_id}/join", response_model=schemas.Joined, responses=ERRORS,
              summary="Take the first free human seat")
    async def join(game_id: str, body: schemas.JoinBody | None = None) -> JSONResponse:
        return JSONResponse(await run(service.join, game_id, None if body is None else body.name))

    @app.get("/api/games/{game_id}", response_model=schemas.View, responses=ERRORS,
             summary="The view of the token's seat, or the spectator view without a token")
    async def view(game_id: str, token: Token) -> JSONResponse:
        now = service.view_now(game_id, token)  # a current cached view needs no worker thread
        return JSONResponse(now if now is not None else await run(service.view, game_id, token))

    @app.post("/api/games/{game_id}/actions", response_model=schemas.View, responses=ERRORS,
              summary="Play an action (notation) from the view at `version`")
    async def act(game_id: str, body: schemas.ActionBody,
                  token: Token) -> JSONResponse:
        return JSONResponse(await run(service.act, game_id, token, body.action, body.version, body.then))

    @app.post("/api/games/{game_id}/undo", response_model=schemas.View, responses=ERRORS,
              summary="Take back the seat's last decision of its current turn")
    async def undo(game_id: str, token: Token, body: schemas.UndoBody | None = None) -> JSONResponse:
        version = None if body is None else body.version
        return JSONResponse(await run(service.undo, game_id, token, version))

    @app.post("/api/games/{game_id}/leave", response_model=schemas.Left, responses=ERRORS,
              summary="Leave: a bot plays the seat so the others can finish")
    async def leave(game_id: str, token: Token) -> JSONResponse:
        return JSONResponse(await run(service.leave, game_id, token))

    hints = app.state.hints = HintDesk(service)  # ludus.server.hints: the seat to move asks for its best moves

    @app.get("/api/games/{game_id}/hint", response_model=HintAnswer, responses=ERRORS,
             summary="The best moves for the seat to move, with their values and why (its token only)")
    async def game_hint(game_id: str, token: Token,
                        n: int = Query(3, ge=1, le=hints.settings.most)) -> JSONResponse:
        return JSONResponse(await run(hints.hint, game_id, token, n))

    @app.get("/api/games/{game_id}/record", response_model=schemas.Record, responses=ERRORS,
             summary="The full record (config, seed, actions), once the game is over")
    async def record(game_id: str) -> JSONResponse:
        return JSONResponse(await run(service.record, game_id))

    @app.websocket("/api/games/{game_id}/ws")
    async def game_ws(websocket: WebSocket, game_id: str) -> None:
        """Live views: the current view at once, then one after every change.

        A seat's token comes as the first message ``{"token": ...}`` (until then: spectator), never
        in the URL, where logs and proxies would keep it: a ``token`` query parameter is refused.
        Messages ``{"action", "version"}`` play like the HTTP route, with its limits; errors come
        back as ``{"error": {"status", "detail"}}``.
        """
        await websocket.accept()
        if "token" in websocket.query_params:
            detail = "send the seat token as the first message {\"token\": ...}, never in the URL"
            await websocket.send_json({"error": {"status": 400, "detail": detail}})
            await websocket.close(code=4400, reason=detail[:120])
            return
        token: str | None = None
        try:
            seat, current = await run(service.view_and_seat, game_id, token)
        except Exception as exc:
            refusal = as_server_error(exc)
            if refusal is None:
                await _ws_crash(websocket, exc, game_id)
                return
            await websocket.send_json({"error": {"status": refusal.status, "detail": refusal.detail}})
            await websocket.close(code=4000 + refusal.status, reason=refusal.detail[:120])
            return
        sub = hub.subscribe(game_id, seat)
        sub.patches = websocket.query_params.get("patches") == "1"  # JSON patches after the first view
        sub.push(current)
        pump = asyncio.get_running_loop().create_task(_pump(websocket, sub))
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    text = (message.get("bytes") or b"").decode("utf-8", "replace")
                token = await _ws_message(sub, text, token)
        except WebSocketDisconnect:
            pass
        except Exception as exc:
            await _ws_crash(websocket, exc, game_id)
        finally:
            pump.cancel()
            hub.unsubscribe(sub)

    async def _ws_crash(websocket: WebSocket, exc: Exception, game_id: str) -> None:
        """An unexpected error: logged with an id, told to the client, the socket closed (1011)."""
        error_id = log_unexpected(exc, f"WS /api/games/{game_id}/ws")
        with contextlib.suppress(Exception):
            await websocket.send_json({"error": {"status": 500, "detail": "internal error", "error_id": error_id}})
            await websocket.close(code=1011, reason=f"internal error {error_id}")

    async def _pump(websocket: WebSocket, sub: Subscriber) -> None:
        with contextlib.suppress(Exception):
            while True:
                message = await sub.queue.get()
                await websocket.send_text(message if isinstance(message, str) else dumps(message))

    async def _ws_message(sub: Subscriber, text: str, token: str | None) -> str | None:
        def error(status: int, detail: str) -> None:
            sub.push({"error": {"status": status, "detail": detail}})

        if len(text) > MAX_WS_MESSAGE:
            error(413, f"message larger than {MAX_WS_MESSAGE} bytes")
            return token
        try:
            message = json.loads(text)
        except (ValueError, RecursionError) as exc:  # RecursionError: nested too deep to read
            error(400, f"malformed JSON: {str(exc)[:200] or type(exc).__name__}")
            return token
        if not isinstance(message, dict):
            error(422, "a message must be an object: {'token'} or {'action', 'version'}")
            return token
        try:
            if "token" in message:
                new_token = schemas.TokenMessage.model_validate(message).token
                seat, current = await run(service.view_and_seat, sub.game_id, new_token)
                sub.seat = seat
                sub.push(current)
                return new_token
            if "action" in message:
                body = schemas.ActionBody.model_validate(message)
                await run(service.act, sub.game_id, token, body.action, body.version, body.then)
                return token
            error(422, "unknown message: send {'token'} or {'action', 'version'}")
        except ValidationError as exc:
            error(*_validation_message(exc))
        except Exception as exc:
            refusal = as_server_error(exc)
            if refusal is None:
                raise
            error(refusal.status, refusal.detail)
        return token

    try:
        from ludus.web import mount
    except ImportError:  # the browser client is optional
        pass
    else:
        mount(app)
    return app


def _busy_errors() -> list[type[Exception]]:
    """The database's "busy for now" exceptions (answered 503 with Retry-After)."""
    from sqlalchemy import exc as sa_exc

    return [sa_exc.OperationalError, sa_exc.TimeoutError]


DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>ludus server — API</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/start.js"></script>
</body>
</html>
"""
DOCS_START = 'SwaggerUIBundle({url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true});\n'


def _mount_docs(app: FastAPI) -> None:
    """The API docs (Swagger UI) from files this server holds: no page loads anything from another
    origin, and the start-up script is a file, so the Content-Security-Policy holds on /docs too."""
    import importlib.util
    from pathlib import Path

    from fastapi.staticfiles import StaticFiles

    # Swagger UI 5 (OpenAPI 3.1) as the swagger-ui-py package ships it; its Python code is not used.
    spec = importlib.util.find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        return  # without the package: no /docs (the OpenAPI schema stays at /openapi.json)
    swagger_ui_path = Path(next(iter(spec.submodule_search_locations))) / "static"
    if not (swagger_ui_path / "swagger-ui-bundle.js").exists():
        return

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(DOCS_PAGE)

    @app.get("/docs/start.js", include_in_schema=False)
    def docs_start() -> Response:
        return Response(DOCS_START, media_type="text/javascript")

    app.mount("/docs/assets", StaticFiles(directory=swagger_ui_path), name="swagger-ui")
