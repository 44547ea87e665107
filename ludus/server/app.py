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
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any, TypeVar

from fastapi import Depends, FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import ludus

from . import schemas
from .automation import Automation
from .errors import ServerError, Unauthorized
from .hub import Hub, PgListener, Subscriber
from .seatbots import DEFAULT_SECONDS
from .service import GameService
from .storage import NOTIFY_CHANNEL, Store

log = logging.getLogger("ludus.server")
T = TypeVar("T")

MAX_BODY_BYTES = 64 * 1024
# The browser client's routes (ludus.web) post whole records and observations.
LARGE_BODY_PATHS = {"/api/replay": 2 * 1024 * 1024, "/api/render": 2 * 1024 * 1024}
MAX_WS_MESSAGE = 16 * 1024
WORKER_THREADS = 32

DESCRIPTION = """Play ludus games online: create a game with human and bot seats, share the seat
tokens, play through HTTP and follow live through the WebSocket.

A seat token (`Authorization: Bearer <token>`) is shown once, when the seat is created or
joined. Without a token you see the spectator view. Errors answer `{"detail": "..."}`:
400 malformed JSON, 401 missing or unknown token, 403 not allowed now (not your turn, seat
left, record before the end), 404 unknown game, 409 stale version or no free seat,
413 body too large, 422 invalid request or illegal action (with the engine's reason).

Live views (not listed below, OpenAPI has no WebSockets): `WS /api/games/{id}/ws`, with the
token as the `token` query parameter or a first message `{"token": "..."}` (none: spectator).
It sends the current view at once, then the new view after every change; it accepts
`{"action", "version"}` messages too. Errors come as `{"error": {"status", "detail"}}`.
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

ERRORS = {code: {"model": schemas.ErrorBody} for code in (400, 401, 403, 404, 409, 413, 422)}


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


def _too_large(limit: int) -> JSONResponse:
    return JSONResponse({"detail": f"request body larger than {limit} bytes"}, status_code=413)


def _validation_message(exc: RequestValidationError) -> tuple[int, str]:
    parts = []
    for err in exc.errors():
        if err.get("type") == "json_invalid":
            return 400, f"malformed JSON: {err.get('ctx', {}).get('error', err.get('msg'))}"
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {err.get('msg')}")
    return 422, "; ".join(parts) or "invalid request"


def create_app(database_url: str | None = None, *, bot_seconds: float = DEFAULT_SECONDS) -> FastAPI:
    """The server app over the database at ``database_url`` (default ``LUDUS_DATABASE_URL`` or ./ludus.db).

    The schema is migrated when the app starts (its lifespan), not when it is created.
    """
    store = Store(database_url)
    service = GameService(store, bot_seconds=bot_seconds)
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

    app = FastAPI(title="ludus server", version=ludus.__version__, description=DESCRIPTION, lifespan=lifespan)
    app.state.service = service
    app.state.hub = hub
    app.state.automation = automation
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, paths=LARGE_BODY_PATHS)
    app.add_middleware(SlowRequestLog)

    async def run(fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)

    @app.exception_handler(ServerError)
    async def _server_error(request: Request, exc: ServerError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return JSONResponse({"detail": exc.detail}, status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        status, message = _validation_message(exc)
        return JSONResponse({"detail": message}, status_code=status)

    @app.post("/api/games", status_code=201, response_model=schemas.GameCreated, responses=ERRORS,
              summary="Create a game")
    async def create_game(body: schemas.CreateGame) -> JSONResponse:
        created = await run(service.create, body.game, body.options, body.seats, body.claim)
        return JSONResponse(created, status_code=201)

    @app.get("/api/games", response_model=list[schemas.OpenGame], summary="Games with a free human seat")
    async def open_games() -> JSONResponse:
        return JSONResponse(await run(service.open_games))

    @app.post("/api/games/{game_id}/join", response_model=schemas.Joined, responses=ERRORS,
              summary="Take the first free human seat")
    async def join(game_id: str) -> JSONResponse:
        return JSONResponse(await run(service.join, game_id))

    @app.get("/api/games/{game_id}", response_model=schemas.View, responses=ERRORS,
             summary="The view of the token's seat, or the spectator view without a token")
    async def view(game_id: str, token: Token) -> JSONResponse:
        return JSONResponse(await run(service.view, game_id, token))

    @app.post("/api/games/{game_id}/actions", response_model=schemas.View, responses=ERRORS,
              summary="Play an action (notation) from the view at `version`")
    async def act(game_id: str, body: schemas.ActionBody,
                  token: Token) -> JSONResponse:
        return JSONResponse(await run(service.act, game_id, token, body.action, body.version))

    @app.post("/api/games/{game_id}/undo", response_model=schemas.View, responses=ERRORS,
              summary="Take back the seat's last decision of its current turn")
    async def undo(game_id: str, token: Token, body: schemas.UndoBody | None = None) -> JSONResponse:
        version = None if body is None else body.version
        return JSONResponse(await run(service.undo, game_id, token, version))

    @app.post("/api/games/{game_id}/leave", response_model=schemas.Left, responses=ERRORS,
              summary="Leave: a bot plays the seat so the others can finish")
    async def leave(game_id: str, token: Token) -> JSONResponse:
        return JSONResponse(await run(service.leave, game_id, token))

    @app.get("/api/games/{game_id}/record", response_model=schemas.Record, responses=ERRORS,
             summary="The full record (config, seed, actions), once the game is over")
    async def record(game_id: str) -> JSONResponse:
        return JSONResponse(await run(service.record, game_id))

    @app.websocket("/api/games/{game_id}/ws")
    async def game_ws(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        """Live views: the current view at once, then one after every change.

        The token comes as the ``token`` query parameter or a first message ``{"token": ...}``
        (until then: spectator). Messages ``{"action", "version"}`` play like the HTTP route;
        errors come back as ``{"error": {"status", "detail"}}``.
        """
        await websocket.accept()
        try:
            seat, current = await run(service.view_and_seat, game_id, token)
        except ServerError as exc:
            await websocket.send_json({"error": {"status": exc.status, "detail": exc.detail}})
            await websocket.close(code=4000 + exc.status)
            return
        sub = hub.subscribe(game_id, seat)
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
        finally:
            pump.cancel()
            hub.unsubscribe(sub)

    async def _pump(websocket: WebSocket, sub: Subscriber) -> None:
        with contextlib.suppress(Exception):
            while True:
                await websocket.send_json(await sub.queue.get())

    async def _ws_message(sub: Subscriber, text: str, token: str | None) -> str | None:
        def error(status: int, detail: str) -> None:
            sub.push({"error": {"status": status, "detail": detail}})

        if len(text) > MAX_WS_MESSAGE:
            error(413, f"message larger than {MAX_WS_MESSAGE} bytes")
            return token
        try:
            message = json.loads(text)
        except json.JSONDecodeError as exc:
            error(400, f"malformed JSON: {exc}")
            return token
        if not isinstance(message, dict):
            error(422, "a message must be an object: {'token'} or {'action', 'version'}")
            return token
        try:
            if "token" in message:
                if not isinstance(message["token"], str):
                    raise_422("token must be a string")
                seat, current = await run(service.view_and_seat, sub.game_id, message["token"])
                sub.seat = seat
                sub.push(current)
                return message["token"]
            if "action" in message:
                action, version = message.get("action"), message.get("version")
                if not isinstance(action, str) or not isinstance(version, int) or isinstance(version, bool):
                    raise_422("an action message is {'action': notation string, 'version': integer}")
                await run(service.act, sub.game_id, token, action, version)
                return token
            raise_422("unknown message: send {'token'} or {'action', 'version'}")
        except ServerError as exc:
            error(exc.status, exc.detail)
        return token

    try:
        from ludus.web import mount
    except ImportError:  # the browser client is optional
        pass
    else:
        mount(app)
    return app


def raise_422(detail: str) -> None:
    from .errors import Unprocessable

    raise Unprocessable(detail)
