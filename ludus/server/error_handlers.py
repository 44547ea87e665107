"""How errors are answered: a ``ServerError`` with its status and message, a busy database with 503
and ``Retry-After``, an invalid request with 400 (malformed JSON) or 422 (what is wrong, where)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from .errors import Busy, ServerError, is_busy
from .hub import JSONResponse

log = logging.getLogger("ludus.server")


def busy_response(exc: BaseException) -> JSONResponse:
    log.warning("database busy: %s", exc)
    return JSONResponse(
        {"detail": "the database is busy: try again in a moment"},
        status_code=Busy.status,
        headers={"Retry-After": str(Busy.retry_after)},
    )


def as_server_error(exc: Exception) -> ServerError | None:
    """``exc`` as the error the client is answered with, None for an unexpected one."""
    if isinstance(exc, ServerError):
        return exc
    if is_busy(exc):
        log.warning("database busy: %s", exc)
        return Busy("the database is busy: try again in a moment")
    return None


def validation_message(exc: RequestValidationError | ValidationError) -> tuple[int, str]:
    """The status (400 for malformed JSON, else 422) and one line naming every invalid field."""
    parts = []
    for err in exc.errors():
        if err.get("type") == "json_invalid":
            return 400, f"malformed JSON: {err.get('ctx', {}).get('error', err.get('msg'))}"
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {err.get('msg')}")
    return 422, "; ".join(parts) or "invalid request"


async def _server_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServerError)
    headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
    retry_after = getattr(exc, "retry_after", None)
    if retry_after is not None:
        headers = {"Retry-After": str(retry_after)}
    return JSONResponse({"detail": exc.detail}, status_code=exc.status, headers=headers)


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    status, message = validation_message(exc)
    return JSONResponse({"detail": message}, status_code=status)


def _busy(request: Request, exc: Exception) -> JSONResponse:
    return busy_response(exc)


def busy_errors() -> list[type[Exception]]:
    """The database's "busy for now" exceptions (answered 503 with Retry-After)."""
    from sqlalchemy import exc as sa_exc

    return [sa_exc.OperationalError, sa_exc.TimeoutError]


def add_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ServerError, _server_error)
    for busy in busy_errors():
        app.add_exception_handler(busy, _busy)
    app.add_exception_handler(RequestValidationError, _invalid)
