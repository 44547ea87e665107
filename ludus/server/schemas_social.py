"""Request and response bodies of the chat and the ratings (``routes_social``), for the API schema."""

from __future__ import annotations

from pydantic import BaseModel, Field, StrictBool

from .chat import MAX_CHAT_LENGTH
from .schemas import Seat, Strict


class ChatBody(Strict):
    text: str = Field(
        max_length=4 * MAX_CHAT_LENGTH,
        description=f"the message: 1 to {MAX_CHAT_LENGTH} characters once trimmed, no control characters but "
        "the newline; kept as sent (trimmed) and shown as text, never as markup",
    )


class ChatMessage(BaseModel):
    id: int
    seat: int = Field(description="the seat that wrote it")
    name: str | None = Field(description="the seat's name (an account's name when one holds it; null: none)")
    text: str
    at: float = Field(description="when it was sent, in seconds since the epoch")


class MuteBody(Strict):
    seat: Seat = Field(description="the seat whose messages to hide from you (or to show again)")
    muted: StrictBool = Field(default=True, description="true: hide them; false: show them again")


class Muted(BaseModel):
    muted: list[int] = Field(description="the seats whose messages you hide")


class RatingRow(BaseModel):
    name: str
    rating: float = Field(description="openskill's ordinal (mu - 3 sigma), rounded: 0 to start with")
    games: int = Field(description="rated games played")
    mu: float
    sigma: float


class SeatRating(BaseModel):
    seat: int
    rating: float
    games: int


class TableRatings(BaseModel):
    rated: bool = Field(description="whether the game is rated")
    bots_allowed: bool = Field(
        description="whether bots may take its seats (POST /api/games/{id}/start): false on a rated game "
        "unless the server's setting rated_bots_allowed is true"
    )
    seats: list[SeatRating] = Field(description="the ratings of the seats held by rated accounts")


class PlayerRating(BaseModel):
    game: str
    rating: float
    games: int


class RatedResult(BaseModel):
    game: str
    game_id: str
    at: float
    place: int = Field(description="1 is first; equal results share a place; leaving is last")
    players: int
    rating: float = Field(description="the rating after this game")


class PlayerGame(BaseModel):
    id: str
    game: str
    status: str
    created_at: float
    updated_at: float
    seat: int
    left: bool
    rated: bool
    place: int | None = Field(description="the player's place once the game is over (null: not over)")
    players: int | None


class Player(BaseModel):
    name: str
    ratings: list[PlayerRating]
    history: list[RatedResult] = Field(description="rated results, oldest first (the newest 200)")
    games: list[PlayerGame] = Field(description="the newest 30 games, newest first")
