"""The HTTP routes of games: create, list, join, name, view, act, undo, leave, hint, record.

A seat is named by its token (``Authorization: Bearer``) or by the session of the account holding it
(``auth``): a signed-in creator or joiner holds the seat taken, and acts for it from any device."""

from __future__ import annotations

from fastapi import FastAPI, Query, Request

from . import schemas
from .auth import SEAT_SECURITY, MaybeSignedIn, Who, caller_of
from .hints import HintAnswer, HintDesk
from .hub import JSONResponse, JSONText
from .limits import client_address
from .routing import ERRORS, run
from .service import GameService
from .views import timed_view_text


def add_game_routes(app: FastAPI, service: GameService, hints: HintDesk) -> None:
    """The routes over ``service`` and its parts; the lobby's page size and the hint count come from its
    settings.

    Added to the app itself, not through an ``APIRouter``: an included router is one more step of
    route matching on every request.
    """
    lobby_page = service.settings.lobby_page

    @app.post(
        "/api/games",
        status_code=201,
        response_model=schemas.GameCreated,
        responses=ERRORS,
        summary="Create a game",
    )
    async def create_game(body: schemas.CreateGame, request: Request, account: MaybeSignedIn) -> JSONResponse:
        created = await run(
            service.lobby.create,
            body.game,
            body.options,
            [s if isinstance(s, str) else s.model_dump(exclude_none=True) for s in body.seats],
            body.claim,
            body.names,
            client_address(request.scope),
            account,
            body.turn_hours,
            body.on_timeout,
            body.rated,
        )
        return JSONResponse(created, status_code=201)

    @app.get(
        "/api/games",
        response_model=list[schemas.OpenGame],
        responses=ERRORS,
        summary="Joinable games (a free human seat, still playing), newest first, a page at a time",
    )
    async def open_games(
        limit: int = Query(lobby_page, ge=1, le=lobby_page), offset: int = Query(0, ge=0, le=1_000_000)
    ) -> JSONResponse:
        return JSONResponse(await run(service.lobby.open_games, limit, offset))

    @app.post(
        "/api/games/{game_id}/join",
        response_model=schemas.Joined,
        responses=ERRORS,
        summary="Take the first free human seat (held by the signed-in account, if any)",
    )
    async def join(
        game_id: str, account: MaybeSignedIn, body: schemas.JoinBody | None = None
    ) -> JSONResponse:
        return JSONResponse(
            await run(service.lobby.join, game_id, None if body is None else body.name, account)
        )

    @app.post(
        "/api/games/{game_id}/name",
        response_model=schemas.Named,
        responses=ERRORS,
        summary="Give the token's seat a display name (null or blank: none)",
    )
    async def rename(game_id: str, body: schemas.NameBody, who: Who) -> JSONResponse:
        return JSONResponse(await run(service.lobby.rename, game_id, who, body.name))

    @app.get(
        "/api/games/{game_id}",
        response_model=schemas.View,
        responses=ERRORS,
        summary="The view of the token's seat (or the session's account's), else the spectator view",
        openapi_extra=SEAT_SECURITY,
    )
    async def view(game_id: str, request: Request) -> JSONText:
        who = await caller_of(request)
        now = service.view_now(game_id, who)  # a current cached view needs no worker thread
        return JSONText(now if now is not None else await run(service.view_text, game_id, who))

    @app.post(
        "/api/games/{game_id}/actions",
        response_model=schemas.View,
        responses=ERRORS,
        summary="Play an action (notation) from the view at `version`",
        openapi_extra=SEAT_SECURITY,
    )
    async def act(game_id: str, body: schemas.ActionBody, request: Request) -> JSONText:
        who = await caller_of(request)
        return JSONText(
            await service.moves.play(game_id, who, body.action, body.version, body.then, timed_view_text)
        )

    @app.post(
        "/api/games/{game_id}/undo",
        response_model=schemas.View,
        responses=ERRORS,
        summary="Take back the seat's last decision of its current turn",
    )
    async def undo(game_id: str, who: Who, body: schemas.UndoBody | None = None) -> JSONResponse:
        version = None if body is None else body.version
        return JSONResponse(await run(service.moves.undo, game_id, who, version))

    @app.post(
        "/api/games/{game_id}/leave",
        response_model=schemas.Left,
        responses=ERRORS,
        summary="Leave: a bot plays the seat so the others can finish",
    )
    async def leave(game_id: str, who: Who) -> JSONResponse:
        return JSONResponse(await run(service.moves.leave, game_id, who))

    @app.get(
        "/api/games/{game_id}/hint",
        response_model=HintAnswer,
        responses=ERRORS,
        summary="The best moves for the seat to move, with their values and why (its token only)",
    )
    async def game_hint(game_id: str, who: Who, n: int = Query(3, ge=1, le=hints.most)) -> JSONResponse:
        return JSONResponse(await hints.hint(game_id, who, n))

    @app.get(
        "/api/games/{game_id}/record",
        response_model=schemas.Record,
        responses=ERRORS,
        summary="The full record (config, seed, actions), once the game is over",
    )
    async def record(game_id: str) -> JSONResponse:
        return JSONResponse(await run(service.record, game_id))
