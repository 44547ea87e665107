"""The server's settings: one object, read from ``LUDUS_*`` environment variables once, when the app is
built (``create_app``) or ``ludus serve`` starts, and handed to every part that needs one.

Field ``x`` is read from ``LUDUS_X``; a value that does not fit its field stops the server at start-up,
naming the variable (``load_settings``), never at the first request that needs it. ``docs/settings.md``
is ``settings_table()``: a test keeps it exactly so.
"""

from __future__ import annotations

import os
from typing import Any, Literal
from urllib.parse import urlsplit

from limits import parse as parse_rate
from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .. import bots
from .mail import SmtpServer, email_address
from .seatbots import DEFAULT_SECONDS, MAX_SEAT_SECONDS
from .storage import DEFAULT_URL, usable_url

ENV_PREFIX = "LUDUS_"


def _all_cpus_but_one() -> int:
    return max(1, (os.cpu_count() or 2) - 1)


class Settings(BaseSettings):
    """Every setting of one server process, each from the environment variable ``LUDUS_<NAME>``."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, env_ignore_empty=True, frozen=True)

    # -- the database ------------------------------------------------------------------------------------
    database_url: str = Field(
        default=DEFAULT_URL,
        description="the database: `sqlite:///path.db` or `postgresql+psycopg://user:pw@host/db` "
        "(`ludus serve --database` overrides it)",
    )
    db_busy_seconds: float = Field(
        default=10.0,
        gt=0,
        description="how long a write waits for another process's SQLite lock (PostgreSQL: for a row lock, "
        "`lock_timeout`) before the request is answered 503 with `Retry-After`",
    )
    sqlite_synchronous: Literal["FULL", "NORMAL"] = Field(
        default="FULL",
        description="SQLite's `synchronous`: `FULL` puts every commit on disk before the move is "
        "acknowledged; `NORMAL` may lose the last moves to a power cut (never to a crash of the server)",
    )

    # -- bots --------------------------------------------------------------------------------------------
    bot_seconds: float = Field(
        default=DEFAULT_SECONDS,
        gt=0,
        le=MAX_SEAT_SECONDS,
        description="a bot seat's time a decision when its kind does not say `seconds`",
    )
    bot_max_seconds: float = Field(
        default=5.0,
        gt=0,
        description="a bot's time a move at most: `ismcts:seconds=10` thinks 5 s on this server (the seat kind "
        "still says 10). A worker still thinking at twice its budget plus 1 s is killed and replaced, and "
        "the stand-in's move is played",
    )
    bot_processes: int = Field(
        default_factory=_all_cpus_but_one,
        ge=1,
        description="bots, hints and replay steps thinking at once, each in a worker process of its own "
        "(started when first needed). Further ones wait, served round-robin by the address that created "
        "the game, then by game; one bot turn per game at a time",
        json_schema_extra={"shown_default": "CPUs − 1 (at least 1)"},
    )
    bot_pace: float = Field(
        default=0.6,
        ge=0,
        le=10,
        description="seconds between a game's consecutive bot decisions, counted from the commit of the "
        "one before, so that a person can follow them (the thinking overlaps the wait)",
    )
    standin_bot: str = Field(
        default="greedy",
        description="the bot that takes over a seat whose player left or let the turn timer run out",
    )

    # -- caps on games -----------------------------------------------------------------------------------
    max_bot_games: int = Field(
        default=200,
        ge=0,
        description="unfinished games with a bot seat; creating one more answers 429 with `Retry-After`",
    )
    bot_games_per_host: int = Field(
        default=20,
        ge=0,
        description="unfinished games with a bot seat (or a stand-in for a seat that left) created from one "
        "client address; one more answers 429 with `Retry-After` until one of them is over",
    )
    open_tables_per_host: int = Field(
        default=5,
        ge=0,
        description="open tables created from one client address: unfinished games with a human seat "
        "offered in the lobby (not claimed, not left); one more answers 429 until a seat is taken or a "
        "game is over",
    )
    lobby_per_host: int = Field(
        default=3,
        ge=1,
        description="the most open tables of one client address the lobby lists (its newest; the others "
        "stay joinable by their links)",
    )
    lobby_page: int = Field(default=100, ge=1, le=10_000, description="the most games one lobby page lists")
    min_turn_seconds: float = Field(
        default=10.0, gt=0, description="the shortest `turn_seconds` a game may ask for (422 below it)"
    )
    expire_days: float = Field(
        default=14.0,
        gt=0,
        description="an unfinished game where no person at the table played for this long (nor for twice "
        "its `turn_seconds`) is marked `abandoned` (checked at start-up and hourly): kept with its record, "
        "gone from the lobby, no more moves (403) or joins (409)",
    )

    # -- rates and connections of one client address -----------------------------------------------------
    create_rate: str = Field(
        default="30/minute",
        description="game creations per client address (`limits` notation: `10/second`, `100/hour`, …)",
    )
    join_rate: str = Field(default="60/minute", description="joins per client address")
    replay_rate: str = Field(
        default="600/minute",
        description="replay steps (`GET /api/games/{id}/replay`, `POST /api/replay`) per client address; "
        "the replay viewer asks at most 500 a minute",
    )
    ws_per_game: int = Field(default=64, ge=1, description="open WebSockets on one game")
    ws_per_client: int = Field(default=32, ge=1, description="open WebSockets from one client address")

    # -- hints -------------------------------------------------------------------------------------------
    hint_seconds: float = Field(default=1.0, gt=0, le=60, description="the most time one hint may think")
    hint_rate: str = Field(default="4/minute", description="hints per seat of a game (over it: 429)")
    hint_most: int = Field(
        default=5, ge=1, le=50, description="the most moves one hint may list (its largest `n`)"
    )

    # -- HTTP --------------------------------------------------------------------------------------------
    body_seconds: float = Field(
        default=10.0,
        gt=0,
        description="a request body must have arrived this long after the request began, else 408",
    )
    header_seconds: float = Field(
        default=5.0,
        gt=0,
        description="a request's headers must have arrived this long after the connection opened (or, on a "
        "kept-alive connection, after the request's first byte), else the connection is closed",
    )
    forwarded_allow_ips: str = Field(
        default="127.0.0.1",
        description="the proxies whose `X-Forwarded-For` is believed (comma-separated addresses, `*` for "
        "any), so that limits count the client behind them",
    )
    slow_request_ms: float = Field(
        default=500.0,
        ge=0,
        description="HTTP requests slower than this, measured inside the server, are logged",
    )

    # -- accounts and mail --------------------------------------------------------------------------------
    session_days: float = Field(
        default=30.0,
        gt=0,
        le=3650,
        description="a signed-in session ends after this many days without use (each use moves the end on)",
    )
    signin_rate: str = Field(
        default="10/minute",
        description="sign-ins, sign-ups and password-reset requests per client address (over it: 429 with "
        "`Retry-After`)",
    )
    signin_account_rate: str = Field(
        default="10/hour",
        description="failed sign-ins (or password checks) per account name, from any address (over it: 429 "
        "with `Retry-After`, even for the right password)",
    )
    smtp: str | None = Field(
        default=None,
        description="the mail server: `smtp://[user:password@]host:port` (STARTTLS when it offers it, login "
        "with the user) or `smtps://...` (TLS from the start); unset: no e-mail (passwords are reset by the "
        "operator, `ludus accounts reset`). Needs `mail_from` and `public_url` (`ludus serve --smtp`)",
        json_schema_extra={"shown_default": "none"},
    )
    mail_from: str | None = Field(
        default=None,
        description="the From address of the server's e-mails (`ludus serve --mail-from`)",
        json_schema_extra={"shown_default": "none"},
    )
    public_url: str | None = Field(
        default=None,
        description="the address people open the server at, e.g. `https://games.example.org`: the links in "
        "e-mails and of `ludus accounts reset` start with it, and a request whose `Origin` is it counts as "
        "same-origin (`ludus serve --public-url`)",
        json_schema_extra={"shown_default": "none"},
    )

    # -- chat and ratings ---------------------------------------------------------------------------------
    chat_rate: str = Field(
        default="10/minute", description="chat messages per seat of a game (over it: 429 with `Retry-After`)"
    )
    rated_bots_allowed: bool = Field(
        default=False,
        description="a rated game may have bot seats (only the accounts' seats are rated); else every seat of "
        "a rated game is a signed-in person's",
    )

    @field_validator("database_url")
    @classmethod
    def _usable_url(cls, url: str) -> str:
        return usable_url(url)

    @field_validator(
        "create_rate",
        "join_rate",
        "replay_rate",
        "hint_rate",
        "signin_rate",
        "signin_account_rate",
        "chat_rate",
    )
    @classmethod
    def _rate(cls, rate: str) -> str:
        parse_rate(rate)  # ValueError: "couldn't parse rate limit string ..."
        return rate

    @field_validator("smtp")
    @classmethod
    def _smtp_url(cls, url: str | None) -> str | None:
        if url is not None:
            SmtpServer.parse(url)
        return url

    @field_validator("mail_from")
    @classmethod
    def _mail_from(cls, address: str | None) -> str | None:
        return None if address is None else email_address(address)

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, url: str | None) -> str | None:
        if url is None:
            return None
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
            raise ValueError("the public URL is http(s)://host[:port][/path], e.g. https://games.example.org")
        return url.strip().rstrip("/")

    @model_validator(mode="after")
    def _mail_needs_sender_and_links(self) -> Settings:
        if self.smtp is not None and (self.mail_from is None or self.public_url is None):
            raise ValueError(
                f"{ENV_PREFIX}SMTP needs {ENV_PREFIX}MAIL_FROM (the sender) and {ENV_PREFIX}PUBLIC_URL (the "
                "links' start) too (ludus serve --smtp ... --mail-from ... --public-url ...)"
            )
        return self

    @field_validator("standin_bot")
    @classmethod
    def _known_bot(cls, name: str) -> str:
        if name not in bots.names():
            raise ValueError(f"no bot {name!r}; bots: {', '.join(bots.names())}")
        return name


class SettingsError(ValueError):
    """Settings that do not fit: the message names each variable and says what is wrong, on one line."""


def load_settings(**overrides: Any) -> Settings:
    """The settings from the environment, ``overrides`` (a command's flags) winning; SettingsError if
    any does not fit."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            name = f"{ENV_PREFIX}{str(error['loc'][0]).upper()}" if error["loc"] else "settings"
            problems.append(f"{name}: {error['msg']}")
        raise SettingsError("; ".join(problems)) from None


def settings_table() -> str:
    """``docs/settings.md``: every setting, its variable, default and meaning, as Markdown."""
    lines = [
        "# Server settings",
        "",
        "The server reads these environment variables once, when it starts, into one settings object",
        "(`ludus.server.settings.Settings`); a value that does not fit stops it at once with a message",
        "naming the variable. Tests and embedders pass `create_app(settings=Settings(...))` instead.",
        "This page is generated by `ludus.server.settings.settings_table()` (a test keeps it so).",
        "",
        "| Variable | Default | What it sets |",
        "|---|---|---|",
    ]
    for name, field in Settings.model_fields.items():
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        shown = extra.get("shown_default") or _shown(field.default)
        description = (field.description or "").replace("|", "\\|")
        lines.append(f"| `{ENV_PREFIX}{name.upper()}` | {shown} | {description} |")
    return "\n".join(lines) + "\n"


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return f"`{value}`"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
