"""Errors the API answers with: each carries its HTTP status and a message saying what is wrong."""


class ServerError(Exception):
    status = 400

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class BadRequest(ServerError):
    status = 400


class Unauthorized(ServerError):
    status = 401


class Forbidden(ServerError):
    status = 403


class NotFound(ServerError):
    status = 404


class Conflict(ServerError):
    status = 409


class Unprocessable(ServerError):
    status = 422


class Busy(ServerError):
    """The database is busy (locked by another writer, or out of connections): try again shortly."""

    status = 503
    retry_after = 2


def is_busy(exc: BaseException) -> bool:
    """Whether ``exc`` says the database is busy or unreachable for now, not that the request is wrong."""
    try:
        from sqlalchemy import exc as sa_exc
    except ImportError:  # pragma: no cover - the server extra brings SQLAlchemy
        return False
    return isinstance(exc, sa_exc.OperationalError | sa_exc.TimeoutError)
