"""What every API route shares: the seat token from the Authorization header, the documented error
answers, and running blocking service calls in a worker thread."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from . import schemas
from .errors import Unauthorized

T = TypeVar("T")

BEARER = HTTPBearer(
    auto_error=False, description="the seat token returned when the seat was created or joined"
)


async def _token(
    request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)]
) -> str | None:
    """The bearer token, None without an Authorization header; any other header is refused."""
    if "authorization" not in request.headers:
        return None
    if credentials is None:
        raise Unauthorized("the Authorization header must be 'Bearer <token>'")
    return credentials.credentials


Token = Annotated[str | None, Depends(_token)]

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": schemas.ErrorBody} for code in (400, 401, 403, 404, 408, 409, 413, 422, 429, 503)
}


async def run(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a worker thread: the service blocks (database, rules, views)."""
    return await asyncio.to_thread(fn, *args)
