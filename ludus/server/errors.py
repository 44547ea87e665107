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
