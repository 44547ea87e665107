"""Request and response bodies of the accounts' routes (``routes_accounts``), for the OpenAPI schema."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from .account_games import MAX_CLAIM
from .accounts import NAME_RULES
from .mail import MAX_EMAIL_LENGTH
from .passwords import MAX_LENGTH, MIN_LENGTH
from .schemas import MAX_TOKEN_LENGTH, Strict

Name = Annotated[str, Field(max_length=64, description=f"the account's name: {NAME_RULES}")]
Password = Annotated[str, Field(max_length=MAX_LENGTH)]
NEW_PASSWORD = f"at least {MIN_LENGTH} characters (at most {MAX_LENGTH}), not among the most used passwords, not the name"


class SignUp(Strict):
    name: Name = Field(description=f"{NAME_RULES}; unique ignoring case")
    password: Password = Field(description=NEW_PASSWORD)
    email: str | None = Field(
        default=None,
        max_length=MAX_EMAIL_LENGTH,
        description="optional: where password-reset links (and notices) go; null or blank: none",
    )


class SignIn(Strict):
    name: Name
    password: Password


class Me(BaseModel):
    name: str
    email: str | None
    notify_email: bool = Field(description="whether notices may be e-mailed to the address")
    created_at: float = Field(description="when the account was made, in seconds since the epoch")
    mail: bool = Field(
        description="whether this server sends e-mail (else passwords are reset by its operator)"
    )


class MeChange(Strict):
    notify_email: bool = Field(
        strict=True, description="whether notices may be e-mailed (your turn, invited, game over)"
    )


class PasswordChange(Strict):
    current: Password = Field(description="the password now")
    password: Password = Field(description=f"the new password: {NEW_PASSWORD}")


class ClaimBody(Strict):
    tokens: list[Annotated[str, Field(max_length=MAX_TOKEN_LENGTH)]] = Field(
        max_length=MAX_CLAIM, description="the seat tokens this browser holds (its own seats, not invites)"
    )


class SeatRef(BaseModel):
    id: str
    seat: int


class Claimed(BaseModel):
    claimed: list[SeatRef] = Field(description="seats bound to the account now")
    held: list[SeatRef] = Field(description="seats the account held already")
    refused: int = Field(
        description="tokens of no seat, of another account's seat, or of a second seat of one game"
    )


class MyGameSeat(BaseModel):
    seat: int
    name: str | None
    account: bool
    bot: str | None
    free: bool
    invited: str | None = Field(default=None, description="the account a seat not yet taken is offered to")


class MyGame(BaseModel):
    id: str
    game: str
    status: Literal["your_turn", "invited", "waiting", "open", "finished"] = Field(
        description="your_turn: the account's seat is to move; invited: a seat offered to the account "
        "(POST /api/games/{id}/accept or /decline); waiting: another's turn, or a table waiting for its "
        "players; open: a table the account hosts that waits; finished: over or abandoned"
    )
    seat: int = Field(description="the account's seat (invited: the seat offered)")
    options: dict[str, Any]
    turn_hours: int | None = Field(
        default=None, description="a turn-based table's hours to move (null: real-time)"
    )
    host: str | None = Field(default=None, description="the name of the table's host (who invites you)")
    opponents: list[str] = Field(
        default=[],
        description="the other seats in words: a name, 'NAME (invited)', 'bot (KIND)', an open seat",
    )
    seats: list[MyGameSeat]
    created_at: float
    updated_at: float = Field(description="the last move (or the creation), in seconds since the epoch")
    game_status: str = Field(description="the game's own status: playing, over or abandoned")


class ResetRequest(Strict):
    name: Name


class ResetAccepted(BaseModel):
    detail: str
    mail: bool = Field(
        description="whether this server sends e-mail (if not, its operator makes reset links)"
    )


class ResetConfirm(Strict):
    token: str = Field(max_length=MAX_TOKEN_LENGTH, description="the token of the reset link (#token=...)")
    password: Password = Field(description=f"the new password: {NEW_PASSWORD}")
