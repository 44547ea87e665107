"""What every API route shares: the seat token from the Authorization header, the documented error
answers, and running blocking service calls in a worker thread."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from fastapi.security import HTTPBearer

from . import schemas
from .errors import Unauthorized

T = TypeVar("T")


class SeatBearer(HTTPBearer):
    """The seat token from ``Authorization: Bearer <token>``: None without that header; any other
    Authorization header is refused. One dependency, the scheme itself (as documented in the API
    schema): FastAPI solves each level of dependencies anew on every request."""

    async def __call__(self, request: Request) -> str | None:  # type: ignore[override]
        if "authorization" not in request.headers:
            return None
        credentials = await super().__call__(request)
        if credentials is None:
            raise Unauthorized("the Authorization header must be 'Bearer <token>'")
        return credentials.credentials


BEARER = SeatBearer(
    auto_error=False,
    scheme_name="HTTPBearer",
    description="the seat token returned when the seat was created or joined",
)

Token = Annotated[str | None, Depends(BEARER)]

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": schemas.ErrorBody} for code in (400, 401, 403, 404, 408, 409, 413, 422, 429, 503)
}


async def run(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a worker thread: the service blocks (database, rules, views)."""
    return await asyncio.to_thread(fn, *args)
