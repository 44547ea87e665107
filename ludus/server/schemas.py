"""Request and response bodies, so that the published OpenAPI schema documents the API."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt

from .names import readable

MAX_ACTION_LENGTH = 500
MAX_KIND_LENGTH = 32
MAX_TOKEN_LENGTH = 128
# Seat numbers and versions: real JSON integers (not "0", false or 0.0), in a range any database column holds.
Seat = Annotated[StrictInt, Field(ge=0, le=15)]
Version = Annotated[StrictInt, Field(ge=0, le=2**62)]
Kind = Annotated[str, Field(min_length=1, max_length=MAX_KIND_LENGTH)]
MAX_NAME_LENGTH = 32
NAME_RULES = (
    f"at most {MAX_NAME_LENGTH} characters, no control or invisible characters, at least 2 letters or "
    "digits, at most 2 combining marks on a character, not reading as a bot's or level's name or as another "
    "seat's name at the table"
)


def display_name(value: str | None) -> str | None:
    """A player's display name as stored: trimmed, NFC, 1 to ``MAX_NAME_LENGTH`` characters, no control
    or format characters (they could hide text or reorder what others read), and a name people can
    read (``names.readable``: visible letters, no invisible fillers, no stacked marks, no bot's name);
    blank -> None. Raises ValueError saying what is wrong. (Another seat's name at the same table is
    checked by the lobby, which knows the table.)"""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError("a display name is text")
    text = unicodedata.normalize("NFC", value).strip()
    if not text:
        return None
    if len(text) > MAX_NAME_LENGTH:
        raise ValueError(f"a display name has at most {MAX_NAME_LENGTH} characters, not {len(text)}")
    bad = next(
        (c for c in text if unicodedata.category(c)[0] == "C" or unicodedata.category(c) in ("Zl", "Zp")),
        None,
    )
    if bad is not None:
        raise ValueError(f"a display name may not hold control characters (U+{ord(bad):04X})")
    readable(text)
    return text


DisplayName = Annotated[str | None, Field(max_length=4 * MAX_NAME_LENGTH), AfterValidator(display_name)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatOffer(Strict):
    """A person's seat offered at creation: to a named account, to the open lobby, or by the link."""

    kind: Literal["human"]
    invite: str | None = Field(
        default=None, min_length=1, max_length=64, description="an account's name: the seat is offered to it"
    )
    open: Literal[True] | None = Field(default=None, description="true: listed in the open lobby")
    link: Literal[True] | None = Field(default=None, description="true: for anyone with the game's link")


class CreateGame(Strict):
    game: str = Field(
        description="an installed game's name (an unknown one is refused with the list of known games)",
        max_length=64,
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="the game's options (as for ludus.load_game); 'players' defaults to the number of "
        "seats; 'turn_seconds' (server option) lets a bot play a human seat idle that long; 'hints': false "
        "(server option) refuses GET /api/games/{id}/hint in this game",
    )
    seats: list[Kind | SeatOffer] = Field(
        min_length=1,
        max_length=16,
        description="'human', a bot name or 'name:seconds=S', one per seat; stored as "
        "'human', 'name' or 'name:seconds=S' whatever the spacing sent; or a person's seat offered: "
        "{'kind': 'human', 'invite': NAME} (shown in that account's games as an invitation), "
        "{'kind': 'human', 'open': true} (the open lobby) or {'kind': 'human', 'link': true} (anyone "
        "with the link). A table with a seat not taken waits (no legal actions) until every seat is "
        "taken or its host starts it (POST /api/games/{id}/start)",
    )
    turn_hours: Annotated[StrictInt, Field(ge=1, le=336)] | None = Field(
        default=None,
        description="turn-based: hours to move (1 to 336), not with options.turn_seconds; the view's "
        "turn_deadline is when they pass",
    )
    on_timeout: Literal["bot", "others"] | None = Field(
        default=None,
        description="turn-based: when the time to move passes, 'bot' (default) plays that turn, 'others' lets "
        "any other seated person hand the seat to a bot for good (POST /api/games/{id}/seats/{seat}/bot)",
    )
    rated: StrictBool | None = Field(
        default=None,
        description="a rated game (its end moves its players' ratings): every seat a signed-in person's (bots "
        "only where the server allows them); the creator takes one seat; default: true when every seat is an "
        "account's (held or invited), else false",
    )
    claim: list[Seat] | None = Field(
        max_length=16,
        default=None,
        description="human seats whose tokens the creator takes now (default: all); the others stay "
        "free for POST /api/games/{id}/join",
    )
    names: list[DisplayName] | None = Field(
        max_length=16,
        default=None,
        description=f"display names of the human seats, one per seat (null or blank: none; bots keep "
        f"theirs): {NAME_RULES}",
    )


class SeatCreated(BaseModel):
    seat: int
    kind: str
    name: str | None = Field(default=None, description="the player's display name, if given")
    token: str | None = Field(default=None, description="shown once: keep it to play this seat")
    offer: str | None = Field(default=None, description="'invite' or 'link': the seat waits for its player")
    invited: str | None = Field(default=None, description="the invited account's name")


class GameCreated(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    rated: bool = Field(default=False, description="whether the game is rated")
    seats: list[SeatCreated]


class JoinBody(Strict):
    name: DisplayName = Field(default=None, description=f"the joining player's display name ({NAME_RULES})")


class NameBody(Strict):
    name: DisplayName = Field(description=f"the seat's display name ({NAME_RULES}; null or blank: none)")


class Named(BaseModel):
    id: str
    seat: int
    name: str | None


class Joined(BaseModel):
    id: str
    seat: int
    token: str = Field(description="shown once: keep it to play this seat")


class Left(BaseModel):
    id: str
    seat: int
    bot: str = Field(description="the bot that plays the seat from now on")


class SeatInfo(BaseModel):
    seat: int
    kind: str
    name: str | None = Field(
        default=None,
        description="the name everyone sees: the account's name for a seat an account holds ('deleted "
        "player' once it is deleted), else the display name its player gave (null: none)",
    )
    account: bool = Field(default=False, description="an account holds this seat: its name is that account's")
    free: bool
    bot: str | None = None
    left: bool = False
    timed_out: int = Field(
        default=0,
        description="actions a stand-in bot played for this seat because its "
        "turn timer ran out (the log marks each one with 'timed_out' and 'played_by')",
    )


class OpenGame(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    free_seats: int


class View(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    version: int = Field(description="changes with every action or undo; send it back with an action")
    ply: int = Field(description="number of actions played")
    seat: int | None = Field(description="the seat this view is for; null for a spectator")
    current_player: int = Field(description="seat to move; -4 once the game is over")
    terminal: bool
    status: str = Field(
        description="'playing', 'over', or 'abandoned' (unfinished and idle past the server's "
        "expiry, default 14 days: kept as a record, no more moves)"
    )
    scores: list[int]
    winners: list[int]
    observation: dict[str, Any] = Field(description="what this seat (or a spectator) may see")
    legal_actions: list[str] = Field(description="notation of the legal actions, only for the seat to move")
    seats: list[SeatInfo]
    turn_deadline: float | None = Field(
        description="with a turn timer: when a bot plays the turn of the human seat to move, in seconds since "
        "the epoch (the time the turn began, i.e. the last action, undo or the game's creation, plus "
        "turn_seconds; it survives a server restart); null without a timer, when a bot is to move, or once "
        "the game is over"
    )
    waiting: bool = Field(
        default=False, description="the table waits for its players: nobody moves until it starts"
    )
    waiting_for: list[dict[str, Any]] = Field(
        default_factory=list,
        description="the seats still to be taken: {seat, offer: 'invite' | 'link' | 'open', name (invited)}",
    )
    rematch: str | None = Field(default=None, description="the id of the game a rematch of this one made")
    table: dict[str, Any] | None = Field(
        default=None, description="{host_seat, turn_hours, on_timeout} (null: a game made before tables)"
    )
    server_time: float = Field(
        description="the server's clock when this view was made (seconds since the epoch): count down with "
        "turn_deadline - server_time to be free of the client's clock error"
    )


class ActionBody(Strict):
    action: str = Field(max_length=MAX_ACTION_LENGTH, description="an action in the game's notation")
    version: Version = Field(description="the version of the view the action was chosen from")
    then: list[Annotated[str, Field(max_length=MAX_ACTION_LENGTH)]] = Field(
        default_factory=list,
        max_length=7,
        description="more actions of the same seat played after it, all or "
        "nothing (e.g. the view's after_skip.skip before the move; at most 8 in all)",
    )


class UndoBody(Strict):
    version: Version | None = Field(default=None, description="the version of the view (optional)")


class Record(BaseModel):
    game: str
    config: dict[str, Any]
    seed: int
    actions: list[str]
    names: list[str | None] | None = Field(
        default=None,
        description="each seat's name as the table showed it (an account's name; null: unnamed, read as "
        "'Seat N'); only when some seat had one",
    )


class ErrorBody(BaseModel):
    detail: str = Field(description="what is wrong")
    error_id: str | None = Field(
        default=None,
        description="with a 500 only: quote it to the operator, who "
        "finds the traceback in the server log under that id",
    )


class TokenMessage(Strict):
    """The first WebSocket message of a seat: its token (the URL carries none)."""

    token: str = Field(max_length=MAX_TOKEN_LENGTH)
