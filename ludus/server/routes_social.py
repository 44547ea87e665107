"""The HTTP routes of what players share beyond their moves: a table's chat and its mutes, the ratings'
leaderboards and a player's page; and the part of the app's life they need (hearing other processes'
chat, settling the rated games that ended while no server ran)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager

from fastapi import FastAPI, Path, Query

from . import schemas_social as bodies
from .auth import SEAT_SECURITY, Who
from .chat import Chat
from .hub import JSONResponse
from .ratings import Ratings
from .routing import ERRORS, run

LEADERBOARD_PAGE = 100
GameName = Path(max_length=64, description="an installed game's name")


def add_social_routes(app: FastAPI, chat: Chat, ratings: Ratings) -> None:
    """The routes over ``chat`` and ``ratings``."""

    @app.get(
        "/api/games/{game_id}/chat",
        response_model=list[bodies.ChatMessage],
        responses=ERRORS,
        summary="The table's newest 200 chat messages, oldest first (without the seats you muted)",
        openapi_extra=SEAT_SECURITY,
    )
    async def chat_messages(game_id: str, who: Who) -> JSONResponse:
        return JSONResponse(await run(chat.messages, game_id, who))

    @app.post(
        "/api/games/{game_id}/chat",
        status_code=201,
        response_model=bodies.ChatMessage,
        responses=ERRORS,
        summary="Write in the table's chat (a seated player only: spectators read; 429 over the rate)",
        openapi_extra=SEAT_SECURITY,
    )
    async def chat_post(game_id: str, body: bodies.ChatBody, who: Who) -> JSONResponse:
        return JSONResponse(await run(chat.post, game_id, who, body.text), status_code=201)

    @app.get(
        "/api/games/{game_id}/chat/mute",
        response_model=bodies.Muted,
        responses=ERRORS,
        summary="The seats whose chat messages your seat hides",
        openapi_extra=SEAT_SECURITY,
    )
    async def chat_mutes(game_id: str, who: Who) -> JSONResponse:
        return JSONResponse({"muted": await run(chat.mutes, game_id, who)})

    @app.post(
        "/api/games/{game_id}/chat/mute",
        response_model=bodies.Muted,
        responses=ERRORS,
        summary="Hide another seat's chat messages from your seat (muted: false shows them again)",
        openapi_extra=SEAT_SECURITY,
    )
    async def chat_mute(game_id: str, body: bodies.MuteBody, who: Who) -> JSONResponse:
        return JSONResponse({"muted": await run(chat.mute, game_id, who, body.seat, body.muted)})

    @app.get(
        "/api/games/{game_id}/ratings",
        response_model=bodies.TableRatings,
        responses=ERRORS,
        summary="Whether the game is rated, and its seated accounts' ratings in its game",
    )
    async def table_ratings(game_id: str) -> JSONResponse:
        return JSONResponse(await run(ratings.table, game_id))

    @app.get(
        "/api/ratings/{game}",
        response_model=list[bodies.RatingRow],
        responses=ERRORS,
        summary="The game's rated players, best first (rating: openskill's ordinal, rounded)",
    )
    async def leaderboard(
        game: str = GameName,
        limit: int = Query(LEADERBOARD_PAGE, ge=1, le=LEADERBOARD_PAGE),
        offset: int = Query(0, ge=0, le=1_000_000),
    ) -> JSONResponse:
        return JSONResponse(await run(ratings.leaderboard, game, limit, offset))

    @app.get(
        "/api/players/{name}",
        response_model=bodies.Player,
        responses=ERRORS,
        summary="A player's ratings, rated results (for a chart) and newest games with their results",
    )
    async def player(name: str = Path(max_length=64)) -> JSONResponse:
        return JSONResponse(await run(ratings.player, name))


def with_social(
    lifespan: Callable[[FastAPI], AbstractAsyncContextManager[None]], chat: Chat, ratings: Ratings
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """``lifespan``, and within it: the chat hears other processes (PostgreSQL), the rated games over but
    not yet settled are settled; both stopped at its end."""

    @contextlib.asynccontextmanager
    async def social(app: FastAPI) -> AsyncIterator[None]:
        async with lifespan(app):
            await asyncio.to_thread(chat.start)
            await asyncio.to_thread(ratings.settle_pending)
            try:
                yield
            finally:
                chat.stop()
                ratings.close()

    return social
