"""The WebSocket of a game: live views, and actions sent over the same connection.

A seat's token comes as the first message ``{"token": ...}`` (until then: spectator), never in the
URL, where logs and proxies would keep it: a ``token`` query parameter is refused. A signed-in
account's session cookie, sent with the handshake from this site's own pages (``auth.same_origin``),
opens the seat the account holds from the start, without any message. Messages
``{"action", "version"}`` play like the HTTP route, with its limits; errors come back as
``{"error": {"status", "detail"}}``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import orjson
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from . import schemas
from .auth import account_of, origin_of, same_origin
from .caller import NOBODY, Caller
from .error_handlers import as_server_error, validation_message
from .hub import Hub, Subscriber, dumps
from .middleware import log_unexpected
from .routing import run
from .service import GameService

MAX_WS_MESSAGE = 16 * 1024  # a larger message is answered with an error; the socket stays open
MAX_WS_FRAME = 1024 * 1024  # a larger frame is not read at all: the socket is closed (1009)


def add_ws_route(app: FastAPI, service: GameService, hub: Hub) -> None:
    """The game's WebSocket route over ``service`` and ``hub``."""

    @app.websocket("/api/games/{game_id}/ws")
    async def game_ws(websocket: WebSocket, game_id: str) -> None:
        """Live views: the current view at once, then one after every change.

        A seat's token comes as the first message ``{"token": ...}`` (until then: spectator, or the
        seat of the signed-in account), never in the URL, where logs and proxies would keep it: a
        ``token`` query parameter is refused.
        Messages ``{"action", "version"}`` play like the HTTP route, with its limits; errors come
        back as ``{"error": {"status", "detail"}}``.
        """
        await GameSocket(service, hub, websocket, game_id).serve()


class GameSocket:
    """One WebSocket connection to one game."""

    def __init__(self, service: GameService, hub: Hub, websocket: WebSocket, game_id: str) -> None:
        self.service = service
        self.hub = hub
        self.websocket = websocket
        self.game_id = game_id
        self.who: Caller = NOBODY  # the seat token of the first message, the session's account

    async def serve(self) -> None:
        websocket = self.websocket
        await websocket.accept()
        if "token" in websocket.query_params:
            detail = 'send the seat token as the first message {"token": ...}, never in the URL'
            await websocket.send_json({"error": {"status": 400, "detail": detail}})
            await websocket.close(code=4400, reason=detail[:120])
            return
        opened = await self._first_view()
        if opened is None:
            return
        seat, current = opened
        sub = self.hub.subscribe(self.game_id, seat)
        sub.patches = websocket.query_params.get("patches") == "1"  # JSON patches after the first view
        sub.push(current)
        pump = asyncio.get_running_loop().create_task(self._pump(sub))
        try:
            await self._receive_all(sub)
        except WebSocketDisconnect:
            pass
        except Exception as exc:
            await self._crash(exc)
        finally:
            pump.cancel()
            self.hub.unsubscribe(sub)

    async def _first_view(self) -> tuple[int | None, dict[str, Any]] | None:
        """The view to start with (the spectator's, or the signed-in account's seat); None when refused
        (the socket is then closed)."""
        try:
            public = origin_of(self.service.settings.public_url)
            if same_origin(self.websocket.scope, public):  # another site's page gets no seat of the session
                account = await account_of(self.websocket)
                self.who = NOBODY if account is None else Caller(None, account.id)
            return await run(self.service.view_and_seat, self.game_id, self.who)
        except Exception as exc:
            refusal = as_server_error(exc)
            if refusal is None:
                await self._crash(exc)
                return None
            await self.websocket.send_json({"error": {"status": refusal.status, "detail": refusal.detail}})
            await self.websocket.close(code=4000 + refusal.status, reason=refusal.detail[:120])
            return None

    async def _receive_all(self, sub: Subscriber) -> None:
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            await self._message(sub, text)

    async def _crash(self, exc: Exception) -> None:
        """An unexpected error: logged with an id, told to the client, the socket closed (1011)."""
        error_id = log_unexpected(exc, f"WS /api/games/{self.game_id}/ws")
        with contextlib.suppress(Exception):
            await self.websocket.send_json(
                {"error": {"status": 500, "detail": "internal error", "error_id": error_id}}
            )
            await self.websocket.close(code=1011, reason=f"internal error {error_id}")

    async def _pump(self, sub: Subscriber) -> None:
        with contextlib.suppress(Exception):
            while True:
                message = await sub.queue.get()
                await self.websocket.send_text(message if isinstance(message, str) else dumps(message))

    async def _message(self, sub: Subscriber, text: str) -> None:
        """Answer one message: a new token (the view of its seat) or an action to play."""

        def error(status: int, detail: str) -> None:
            sub.push({"error": {"status": status, "detail": detail}})

        message = _parsed(text, error)
        if message is None:
            return
        try:
            if "token" in message:
                new_token = schemas.TokenMessage.model_validate(message).token
                who = Caller(new_token, self.who.account_id)
                seat, current = await run(self.service.view_and_seat, sub.game_id, who)
                sub.seat = seat
                sub.push(current)
                self.who = who
                return
            if "action" in message:
                body = schemas.ActionBody.model_validate(message)
                await self.service.moves.play(sub.game_id, self.who, body.action, body.version, body.then)
                return
            error(422, "unknown message: send {'token'} or {'action', 'version'}")
        except ValidationError as exc:
            error(*validation_message(exc))
        except Exception as exc:
            refusal = as_server_error(exc)
            if refusal is None:
                raise
            error(refusal.status, refusal.detail)


def _parsed(text: str, error: Any) -> dict[str, Any] | None:
    """The message as an object, or None once ``error`` was told why it is not one."""
    if len(text) > MAX_WS_MESSAGE or len(text.encode("utf-8", "surrogatepass")) > MAX_WS_MESSAGE:
        error(413, f"message larger than {MAX_WS_MESSAGE} bytes")
        return None
    try:
        message = orjson.loads(text)  # refuses nesting deeper than 1,024 and lone surrogates itself
    except ValueError as exc:
        error(400, f"malformed JSON: {str(exc)[:200] or type(exc).__name__}")
        return None
    if not isinstance(message, dict):
        error(422, "a message must be an object: {'token'} or {'action', 'version'}")
        return None
    return message
