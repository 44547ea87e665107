"""The HTTP routes of tables that wait and tables that last: accept or decline an invitation, start a
waiting table with bots, hand a late seat to a bot, and the rematch."""

from __future__ import annotations

from fastapi import FastAPI, Path, Request

from . import schemas_tables as bodies
from .auth import MaybeSignedIn, SignedIn, Who
from .hub import JSONResponse
from .limits import client_address
from .routing import ERRORS, run
from .tables import Tables


def add_table_routes(app: FastAPI, tables: Tables) -> None:
    @app.post(
        "/api/games/{game_id}/accept",
        response_model=bodies.Accepted,
        responses=ERRORS,
        summary="Accept the signed-in account's invitation: take the seat offered to it",
    )
    async def accept(game_id: str, account: SignedIn) -> JSONResponse:
        return JSONResponse(await run(tables.accept, game_id, account))

    @app.post(
        "/api/games/{game_id}/decline",
        response_model=bodies.Declined,
        responses=ERRORS,
        summary="Decline the signed-in account's invitation: the seat stays offered by the link",
    )
    async def decline(game_id: str, account: SignedIn) -> JSONResponse:
        return JSONResponse(await run(tables.decline, game_id, account))

    @app.post(
        "/api/games/{game_id}/start",
        response_model=bodies.Started,
        responses=ERRORS,
        summary="The host starts a waiting table: bots of the level given take the seats not taken",
    )
    async def start(game_id: str, body: bodies.StartBody, who: Who) -> JSONResponse:
        return JSONResponse(await run(tables.start, game_id, who, body.bots))

    @app.post(
        "/api/games/{game_id}/seats/{seat}/bot",
        response_model=bodies.HandedOver,
        responses=ERRORS,
        summary="Turn-based, rule 'others': once its time to move has passed, hand the seat to a bot for good",
    )
    async def hand_over(game_id: str, who: Who, seat: int = Path(ge=0, le=15)) -> JSONResponse:
        return JSONResponse(await run(tables.hand_over, game_id, who, seat))

    @app.post(
        "/api/games/{game_id}/rematch",
        status_code=201,
        response_model=bodies.Rematch,
        responses=ERRORS,
        summary="A finished game's table again: the caller's seat held, the others invited",
    )
    async def rematch(game_id: str, who: Who, account: MaybeSignedIn, request: Request) -> JSONResponse:
        made = await run(tables.rematch, game_id, who, account, client_address(request.scope))
        return JSONResponse(made, status_code=201)
