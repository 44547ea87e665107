"""The storage of what players share beyond their moves: the tables' chat and its mutes, and ratings.

Beside ``storage.metadata`` (as ``storage_accounts``): migration 0008 makes these tables. Times are seconds
since the epoch, as everywhere in the database.

- ``chat_messages``: one row a message, its text exactly as sent; the seat that wrote it (the name shown
  is the seat's at the time it is read: an account's name, "deleted player" once it is deleted).
- ``chat_mutes``: seat ``seat`` of a game hides the messages of its seat ``muted``.
- ``rated_games``: a row for each rated game; ``settled_at`` is set by the one transaction that moved its
  players' ratings, so that a game's end counted twice (or by two processes) counts once.
- ``ratings``: an account's rating in one game (openskill's mu, sigma; ``ordinal`` kept for ordering).
- ``rating_history``: each rated game's result for each account, and its rating after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    delete,
    desc,
    select,
)

from .storage import accounts, games, metadata, seats

chat_messages = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True),  # who held the seat then
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_chat_messages_game", "game_id", "id"),
)

chat_mutes = Table(
    "chat_mutes",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),  # who mutes
    Column("muted", Integer, primary_key=True),  # whose messages it hides
)

rated_games = Table(
    "rated_games",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("settled_at", Float, nullable=True),  # when its players' ratings moved (null: not yet)
)

ratings = Table(
    "ratings",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Index("ix_ratings_game_ordinal", "game", "ordinal"),
)

rating_history = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("game", String(32), nullable=False),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("at", Float, nullable=False),
    Column("place", Integer, nullable=False),  # 1 is first; equal places are shared
    Column("players", Integer, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),
    UniqueConstraint("account_id", "game_id", name="uq_rating_history_account_game"),
    Index("ix_rating_history_account", "account_id", "at"),
)


@dataclass(frozen=True)
class Message:
    id: int
    seat: int
    text: str
    at: float


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int


# -- chat -----------------------------------------------------------------------------------------------
def insert_message(
    conn: Connection, game_id: str, seat: int, account_id: int | None, text: str, at: float
) -> int:
    result = conn.execute(
        chat_messages.insert().values(game_id=game_id, seat=seat, account_id=account_id, text=text, at=at)
    )
    return int(result.inserted_primary_key[0])  # type: ignore[index]


def message(conn: Connection, game_id: str, message_id: int) -> Message | None:
    r = conn.execute(
        select(chat_messages).where(chat_messages.c.game_id == game_id, chat_messages.c.id == message_id)
    ).first()
    return None if r is None else Message(r.id, r.seat, r.text, r.at)


def messages(conn: Connection, game_id: str, limit: int, hidden: set[int]) -> list[Message]:
    """The newest ``limit`` messages of the game, oldest first, those of the seats in ``hidden`` left out."""
    query = select(chat_messages).where(chat_messages.c.game_id == game_id)
    if hidden:
        query = query.where(chat_messages.c.seat.not_in(sorted(hidden)))
    rows = conn.execute(query.order_by(desc(chat_messages.c.id)).limit(limit)).all()
    return [Message(r.id, r.seat, r.text, r.at) for r in reversed(rows)]


def muted_seats(conn: Connection, game_id: str, seat: int) -> set[int]:
    query = select(chat_mutes.c.muted).where(chat_mutes.c.game_id == game_id, chat_mutes.c.seat == seat)
    return {r.muted for r in conn.execute(query)}


def set_mute(conn: Connection, game_id: str, seat: int, muted: int, on: bool) -> None:
    where = (chat_mutes.c.game_id == game_id, chat_mutes.c.seat == seat, chat_mutes.c.muted == muted)
    conn.execute(delete(chat_mutes).where(*where))
    if on:
        conn.execute(chat_mutes.insert().values(game_id=game_id, seat=seat, muted=muted))


# -- ratings ------------------------------------------------------------------------------------------------
def mark_rated(conn: Connection, game_id: str) -> None:
    conn.execute(rated_games.insert().values(game_id=game_id, settled_at=None))


def is_rated(conn: Connection, game_id: str) -> bool:
    found = conn.execute(select(rated_games.c.game_id).where(rated_games.c.game_id == game_id)).first()
    return found is not None


def claim_settlement(conn: Connection, game_id: str, now: float) -> bool:
    """Mark the rated game settled in this transaction; False when it is not rated or was settled already
    (another transaction's claim waits for this one on PostgreSQL, then finds it settled)."""
    result = conn.execute(
        rated_games.update()
        .where(rated_games.c.game_id == game_id, rated_games.c.settled_at.is_(None))
        .values(settled_at=now)
    )
    return result.rowcount == 1


def unsettled_over(conn: Connection) -> list[str]:
    """The rated games that are over and whose ratings have not moved yet (a server stopped between)."""
    query = (
        select(rated_games.c.game_id)
        .select_from(rated_games.join(games, games.c.id == rated_games.c.game_id))
        .where(rated_games.c.settled_at.is_(None), games.c.status == "over")
    )
    return [r.game_id for r in conn.execute(query)]


def ratings_of(conn: Connection, game: str, account_ids: list[int]) -> dict[int, Any]:
    """The rows of the accounts' ratings in ``game`` (absent: none yet)."""
    query = select(ratings).where(ratings.c.game == game, ratings.c.account_id.in_(account_ids))
    return {r.account_id: r for r in conn.execute(query)}


def lock_ratings(conn: Connection, game: str, account_ids: list[int]) -> dict[int, Rating]:
    """The accounts' ratings in ``game`` (absent: none yet), their accounts' rows locked until the end of
    the transaction, so that two games ending at once both count (PostgreSQL; SQLite has one writer)."""
    # FOR NO KEY UPDATE: it does not wait for the rows' KEY SHARE locks that references to them take
    locking = select(accounts.c.id).where(accounts.c.id.in_(account_ids)).with_for_update(key_share=True)
    conn.execute(locking).all()
    query = select(ratings).where(ratings.c.game == game, ratings.c.account_id.in_(account_ids))
    return {r.account_id: Rating(r.mu, r.sigma, r.games) for r in conn.execute(query)}


def save_rating(
    conn: Connection, account_id: int, game: str, rating: Rating, ordinal: float, existed: bool
) -> None:
    values = {"mu": rating.mu, "sigma": rating.sigma, "ordinal": ordinal, "games": rating.games}
    if existed:
        conn.execute(
            ratings.update()
            .where(ratings.c.account_id == account_id, ratings.c.game == game)
            .values(**values)
        )
    else:
        conn.execute(ratings.insert().values(account_id=account_id, game=game, **values))


def add_history(conn: Connection, **row: Any) -> None:
    conn.execute(rating_history.insert().values(**row))


def leaderboard(conn: Connection, game: str, limit: int, offset: int) -> list[Any]:
    """Rows (name, ordinal, mu, sigma, games) of ``game``'s rated players, best first; deleted and banned
    accounts left out."""
    query = (
        select(accounts.c.name, ratings.c.ordinal, ratings.c.mu, ratings.c.sigma, ratings.c.games)
        .select_from(ratings.join(accounts, accounts.c.id == ratings.c.account_id))
        .where(ratings.c.game == game, accounts.c.deleted_at.is_(None), accounts.c.banned_at.is_(None))
        .order_by(desc(ratings.c.ordinal), accounts.c.name_key)
        .limit(limit)
        .offset(offset)
    )
    return list(conn.execute(query))


def account_ratings(conn: Connection, account_id: int) -> list[Any]:
    query = select(ratings).where(ratings.c.account_id == account_id).order_by(ratings.c.game)
    return list(conn.execute(query))


def account_history(conn: Connection, account_id: int, limit: int) -> list[Any]:
    """The account's rated results, oldest first (the newest ``limit``)."""
    query = (
        select(rating_history)
        .where(rating_history.c.account_id == account_id)
        .order_by(desc(rating_history.c.at), desc(rating_history.c.id))
        .limit(limit)
    )
    return list(reversed(conn.execute(query).all()))


def account_games(conn: Connection, account_id: int, limit: int) -> list[Any]:
    """The account's games, newest first: (id, game, status, created_at, updated_at, seat, left_to)."""
    query = (
        select(
            games.c.id,
            games.c.game,
            games.c.status,
            games.c.created_at,
            games.c.updated_at,
            seats.c.seat,
            seats.c.left_to,
        )
        .select_from(seats.join(games, games.c.id == seats.c.game_id))
        .where(seats.c.account_id == account_id)
        .order_by(desc(games.c.created_at), games.c.id)
        .limit(limit)
    )
    return list(conn.execute(query))
