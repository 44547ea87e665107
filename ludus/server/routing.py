"""What every API route shares: the seat token from the Authorization header, the documented error
answers, and running blocking service calls in a worker thread."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from fastapi.security import HTTPBearer
from fastapi.security.utils import get_authorization_scheme_param
from starlette.requests import HTTPConnection

from . import schemas
from .errors import Unauthorized

T = TypeVar("T")


def seat_token(request: HTTPConnection) -> str | None:
    """The seat token of ``Authorization: Bearer <token>``: None without that header; any other
    Authorization header is refused."""
    authorization = request.headers.get("authorization")
    if authorization is None:
        return None
    scheme, credentials = get_authorization_scheme_param(authorization)
    if not (scheme and credentials) or scheme.lower() != "bearer":
        raise Unauthorized("the Authorization header must be 'Bearer <token>'")
    return credentials


class SeatBearer(HTTPBearer):
    """``seat_token`` as the routes' dependency: the scheme itself, as documented in the API schema."""

    async def __call__(self, request: Request) -> str | None:  # type: ignore[override]
        return seat_token(request)


BEARER = SeatBearer(
    auto_error=False,
    scheme_name="HTTPBearer",
    description="the seat token returned when the seat was created or joined",
)

Token = Annotated[str | None, Depends(BEARER)]
# The routes of play read the token with ``seat_token`` (FastAPI solves a dependency anew on every
# request, a good part of a view's cost); they declare the scheme in the schema as ``Token`` does.
BEARER_SECURITY: dict[str, Any] = {"security": [{BEARER.scheme_name: []}]}

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": schemas.ErrorBody} for code in (400, 401, 403, 404, 408, 409, 413, 422, 429, 503)
}


async def run(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a worker thread: the service blocks (database, rules, views)."""
    return await asyncio.to_thread(fn, *args)
