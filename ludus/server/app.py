"""The ASGI app: HTTP routes and the WebSocket, thin over ``GameService``.

Blocking work (database, rules, views) runs in worker threads, except what needs no waiting on
SQLite: a current cached view, and an action, whose write alone waits on the group committer's
thread (``Moves.play``). Bots and hints think in worker processes (``botpool``), never in this
one, served from a queue fair across the addresses that created the games (``automation``). The parts
live in modules of their own: middleware, error answers, the routes of games, of the WebSocket and of
accounts, the API docs, the app's lifespan. The settings (``settings.Settings``) are read once, here,
and handed to each part.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from fastapi import FastAPI

import ludus

from .account_games import AccountGames
from .accounts import Accounts
from .auth import SameOrigin
from .automation import Automation
from .botpool import DEFAULT_FACTORY, BotPool
from .chat import Chat
from .docs_page import DOCS_PAGE, DOCS_START, mount_docs
from .error_handlers import add_error_handlers, as_server_error, busy_response, validation_message
from .hints import HintDesk
from .hub import Hub
from .lifespan import WORKER_THREADS, make_lifespan
from .limits import BodyTimeout, ClientLimits
from .mail import Mailer
from .middleware import (
    CONTENT_SECURITY_POLICY,
    LARGE_BODY_PATHS,
    MAX_BODY_BYTES,
    SECURITY_HEADERS,
    BodyLimit,
    ErrorIds,
    SecurityHeaders,
    SlowRequestLog,
    internal_error,
    log_unexpected,
)
from .notices import Notices
from .ratings import Ratings
from .routes_accounts import add_account_routes, add_notice_routes
from .routes_games import add_game_routes
from .routes_social import add_social_routes, with_social
from .routes_tables import add_table_routes
from .routes_ws import MAX_WS_MESSAGE, add_ws_route
from .routing import BEARER, ERRORS, Token
from .service import GameService
from .sessions import Sessions
from .settings import Settings, load_settings
from .storage import Store, usable_url
from .tables import Tables

DESCRIPTION = """Play ludus games online: create a game with human and bot seats, share the seat
tokens, play through HTTP and follow live through the WebSocket.

A seat token (`Authorization: Bearer <token>`) is shown once, when the seat is created or
joined. Without a token you see the spectator view. A person may also sign up (`POST /api/accounts`)
or in (`POST /api/session`): the session cookie then opens the seats its account holds (those it
created, joined or claimed with `POST /api/me/claim`) on any device, in the view, the moves and the
WebSocket; a change sent with the cookie must come from this site's pages (`Origin`), else 403.
Errors answer `{"detail": "..."}`:
400 malformed JSON, 401 missing or unknown token, 403 not allowed now (not your turn, seat
left, record before the end), 404 unknown game, 409 stale version or no free seat,
413 body too large, 422 invalid request or illegal action (with the engine's reason).

Live views (not listed below, OpenAPI has no WebSockets): `WS /api/games/{id}/ws`. A seat sends
its token as the first message `{"token": "..."}` (without one: the spectator view; a `token`
query parameter is refused with close code 4400: URLs end up in logs). It sends the
current view at once, then the new view after every change; it accepts `{"action", "version"}`
messages with the limits of the HTTP route. Errors come as `{"error": {"status", "detail"}}`;
messages over 16 KiB are refused with an error (the socket stays open; a frame over 1 MiB closes it, 1009).

A busy database answers 503 with `Retry-After`; an unexpected error answers 500 with
`{"detail", "error_id"}` (the server log has the traceback under that id).
"""


def create_app(
    database_url: str | None = None, *, settings: Settings | None = None, bot_factory: str = DEFAULT_FACTORY
) -> FastAPI:
    """The server app with ``settings`` (None: read from the environment now, ``load_settings``) over the
        database at ``database_url`` (None: the settings' ``database_url``).

        A person is a guest, known by the tokens of their seats, or signed in to an account (``accounts``,
    ``sessions``, the cookie read by ``auth``), whose seats its session opens on any device.

        The schema is migrated when the app starts (its lifespan), not when it is created. ``bot_factory``
        names (``module:function(kind, seconds, seed)``) what builds the bots in the worker processes:
        tests give bots of their own this way, since a monkeypatch does not reach other processes.
    """
    settings = settings or load_settings()
    if database_url is not None:
        settings = settings.model_copy(update={"database_url": usable_url(database_url)})
    store = Store(settings.database_url, settings.db_busy_seconds, settings.sqlite_synchronous)
    service = GameService(store, settings)
    hub = Hub()
    automation = Automation(service, pool=BotPool(settings.bot_processes, bot_factory))
    chat, ratings = Chat(service.games, hub), Ratings(service.games)  # table chat and ratings (routes_social)
    service.games.listeners = [hub.publish, automation.on_change, ratings.on_change]
    sessions = Sessions(store, settings.session_days)
    mailer = Mailer.from_settings(settings.smtp, settings.mail_from)
    notices = Notices(store, mailer, settings.public_url)  # e-mail notices: turns, invitations, ends
    service.games.listeners.append(notices.on_change)
    accounts = Accounts(store, settings, sessions, mailer)

    app = FastAPI(
        title="ludus server",
        version=ludus.__version__,
        description=DESCRIPTION,
        lifespan=_closing(
            with_social(make_lifespan(store, service, hub, automation), chat, ratings),
            accounts.close,
            notices.close,
            mailer.close,
        ),
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.service = service
    app.state.hub = hub
    app.state.automation = automation
    app.state.sessions = sessions
    app.state.accounts = accounts
    app.state.mailer = mailer
    app.state.notices = notices
    app.state.chat, app.state.ratings = chat, ratings
    app.add_middleware(SameOrigin, public_url=settings.public_url)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, paths=LARGE_BODY_PATHS)
    app.add_middleware(SlowRequestLog, threshold_ms=settings.slow_request_ms)
    app.add_middleware(ErrorIds)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(ClientLimits, settings=settings)
    app.add_middleware(BodyTimeout, seconds=settings.body_seconds)
    mount_docs(app)
    add_error_handlers(app)
    # ludus.server.hints: the seat to move asks for its best moves, thought about in the bots' pool
    hints = app.state.hints = HintDesk(service.games, automation.pool)
    add_game_routes(app, service, hints)
    add_table_routes(app, Tables(service.games, service.lobby))  # invitations, waiting room, rematch
    add_ws_route(app, service, hub)
    add_account_routes(app, accounts, AccountGames(service.games))
    add_notice_routes(app, notices)
    add_social_routes(app, chat, ratings)
    _mount_web(app)
    _play_routes_first(app)
    return app


PLAY_PATHS = ("/api/games/{game_id}", "/api/games/{game_id}/actions")  # asked for on every move


def _play_routes_first(app: FastAPI) -> None:
    """Match the routes of play first: a request is matched against the routes in order, and the
    view and action routes came after the docs, the lobby and joining (a dozen patterns tried on
    every move). The API schema still lists the routes as they were declared."""
    declared = list(app.router.routes)
    play = [route for route in declared if getattr(route, "path", None) in PLAY_PATHS]
    app.router.routes = play + [route for route in declared if all(route is not p for p in play)]
    make_schema = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            matched = app.router.routes
            app.router.routes = declared + matched[len(declared) :]  # any added since, at the end
            try:
                make_schema()
            finally:
                app.router.routes = matched
        return app.openapi_schema  # type: ignore[return-value]

    app.openapi = openapi  # type: ignore[method-assign]


def _closing(
    lifespan: Callable[[FastAPI], AbstractAsyncContextManager[None]], *closers: Callable[[], None]
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """``lifespan``, then ``closers`` called at its end (the threads of mail and accounts)."""

    @contextlib.asynccontextmanager
    async def closing(app: FastAPI) -> AsyncIterator[None]:
        try:
            async with lifespan(app):
                yield
        finally:
            for close in closers:
                close()

    return closing


def _mount_web(app: FastAPI) -> None:
    try:
        from ludus.web import mount
    except ImportError:  # the browser client is optional
        return
    mount(app)


__all__ = [
    "BEARER",
    "CONTENT_SECURITY_POLICY",
    "DESCRIPTION",
    "DOCS_PAGE",
    "DOCS_START",
    "ERRORS",
    "LARGE_BODY_PATHS",
    "MAX_BODY_BYTES",
    "MAX_WS_MESSAGE",
    "SECURITY_HEADERS",
    "WORKER_THREADS",
    "BodyLimit",
    "ErrorIds",
    "SecurityHeaders",
    "SlowRequestLog",
    "Token",
    "as_server_error",
    "busy_response",
    "create_app",
    "internal_error",
    "log_unexpected",
    "validation_message",
]
