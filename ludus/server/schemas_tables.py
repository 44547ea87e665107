"""Request and response bodies of the tables' routes (invitations, start, hand-over, rematch)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from .schemas import MAX_KIND_LENGTH, SeatCreated, Strict


class StartBody(Strict):
    bots: str = Field(
        min_length=1,
        max_length=MAX_KIND_LENGTH,
        description="the bots that take every seat not taken: a bot's name or 'name:seconds=S'",
    )


class Accepted(BaseModel):
    id: str
    seat: int
    token: str = Field(description="shown once: the seat's token (the session opens the seat too)")


class Declined(BaseModel):
    id: str
    seat: int
    offer: str = Field(description="'link': the seat stays offered to anyone with the game's link")


class Started(BaseModel):
    id: str
    bots: str
    seats: list[int] = Field(description="the seats the bots took")


class HandedOver(BaseModel):
    id: str
    seat: int
    bot: str = Field(description="the bot that plays the seat from now on")


class Rematch(BaseModel):
    id: str = Field(description="the new game's id (the old game's view shows it as 'rematch')")
    seat: int | None = Field(
        default=None, description="the caller's seat in it (null: a rematch made before)"
    )
    seats: list[SeatCreated] = Field(
        default_factory=list,
        description="the new game's seats, as POST /api/games answers (a guest caller's token shown once)",
    )
