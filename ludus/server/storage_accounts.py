"""The accounts' storage: accounts (``storage.accounts``, beside the games' tables, whose seat rows show
their names), their sessions and password-reset tokens; and the queries of an account's seats.

Sessions and reset tokens are kept only as sha256 hashes of the random values their holders have, as
seat tokens are. Times are seconds since the epoch, as everywhere in the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Connection, Float, ForeignKey, Index, Integer, String, Table, select

from .storage import SEAT_ROWS, GameRow, SeatRow, accounts, game_row, games, metadata, seat_row, seats

sessions = Table(
    "sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),  # sha256 of the cookie's random id
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    Index("ix_sessions_account", "account_id"),
    Index("ix_sessions_expires", "expires_at"),
)

password_resets = Table(
    "password_resets",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # sha256 of the link's token
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("used_at", Float, nullable=True),
    Index("ix_password_resets_account", "account_id"),
)


@dataclass(frozen=True)
class AccountRow:
    id: int
    name: str
    password_hash: str
    email: str | None
    notify_email: bool
    created_at: float
    banned_at: float | None
    deleted_at: float | None


def _account(r: Any) -> AccountRow:
    return AccountRow(
        r.id, r.name, r.password_hash, r.email, bool(r.notify_email), r.created_at, r.banned_at, r.deleted_at
    )


# -- accounts ---------------------------------------------------------------------------------------------
def account_by_key(conn: Connection, name_key: str) -> AccountRow | None:
    """The account of that name (``accounts.name_key``), deleted ones left out."""
    r = conn.execute(
        select(accounts).where(accounts.c.name_key == name_key, accounts.c.deleted_at.is_(None))
    ).first()
    return None if r is None else _account(r)


def account_by_id(conn: Connection, account_id: int) -> AccountRow | None:
    r = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
    return None if r is None else _account(r)


def insert_account(
    conn: Connection, name: str, name_key: str, password_hash: str, email: str | None, now: float
) -> int:
    result = conn.execute(
        accounts.insert().values(
            name=name,
            name_key=name_key,
            password_hash=password_hash,
            email=email,
            notify_email=True,
            created_at=now,
        )
    )
    return int(result.inserted_primary_key[0])  # type: ignore[index]


def set_password(conn: Connection, account_id: int, password_hash: str) -> None:
    conn.execute(accounts.update().where(accounts.c.id == account_id).values(password_hash=password_hash))


def set_notify_email(conn: Connection, account_id: int, on: bool) -> None:
    conn.execute(accounts.update().where(accounts.c.id == account_id).values(notify_email=on))


def list_accounts(conn: Connection, deleted: bool = False) -> list[AccountRow]:
    query = select(accounts).order_by(accounts.c.created_at, accounts.c.id)
    if not deleted:
        query = query.where(accounts.c.deleted_at.is_(None))
    return [_account(r) for r in conn.execute(query)]


def set_banned(conn: Connection, account_id: int, at: float | None) -> None:
    conn.execute(accounts.update().where(accounts.c.id == account_id).values(banned_at=at))
    if at is not None:
        end_sessions(conn, account_id)


def delete_account(conn: Connection, account_id: int, now: float) -> None:
    """Forget what the account held of its person (password, e-mail, sessions, name) but keep the row, so
    that its games keep their seats, shown as ``storage.DELETED_PLAYER``; its name is free again. Every
    game it sat in is told (``meta_version``), so that every server's cache shows the seat anew."""
    conn.execute(
        accounts.update()
        .where(accounts.c.id == account_id)
        .values(
            name=f"deleted-{account_id}",
            name_key=f"#deleted-{account_id}",  # '#' is in no name: the name can be taken again
            password_hash="",
            email=None,
            notify_email=False,
            deleted_at=now,
        )
    )
    end_sessions(conn, account_id)
    conn.execute(password_resets.delete().where(password_resets.c.account_id == account_id))
    held = select(seats.c.game_id).where(seats.c.account_id == account_id)
    conn.execute(games.update().where(games.c.id.in_(held)).values(meta_version=games.c.meta_version + 1))


# -- sessions ---------------------------------------------------------------------------------------------
def insert_session(conn: Connection, id_hash: str, account_id: int, now: float, expires_at: float) -> None:
    conn.execute(
        sessions.insert().values(
            id_hash=id_hash, account_id=account_id, created_at=now, expires_at=expires_at, last_seen=now
        )
    )


def session_account(conn: Connection, id_hash: str, now: float) -> tuple[AccountRow, float, float] | None:
    """The account of a live session (not expired, the account neither banned nor deleted), with the
    session's ``expires_at`` and ``last_seen``; None otherwise."""
    r = conn.execute(
        select(accounts, sessions.c.expires_at.label("s_expires"), sessions.c.last_seen.label("s_seen"))
        .select_from(sessions.join(accounts, sessions.c.account_id == accounts.c.id))
        .where(
            sessions.c.id_hash == id_hash,
            sessions.c.expires_at > now,
            accounts.c.banned_at.is_(None),
            accounts.c.deleted_at.is_(None),
        )
    ).first()
    return None if r is None else (_account(r), r.s_expires, r.s_seen)


def slide_session(conn: Connection, id_hash: str, now: float, expires_at: float) -> None:
    conn.execute(
        sessions.update().where(sessions.c.id_hash == id_hash).values(last_seen=now, expires_at=expires_at)
    )


def end_session(conn: Connection, id_hash: str) -> None:
    conn.execute(sessions.delete().where(sessions.c.id_hash == id_hash))


def end_sessions(conn: Connection, account_id: int) -> None:
    conn.execute(sessions.delete().where(sessions.c.account_id == account_id))


def purge_expired(conn: Connection, now: float) -> None:
    """Drop the sessions and reset tokens that have expired (they open nothing: only to keep tables small)."""
    conn.execute(sessions.delete().where(sessions.c.expires_at <= now))
    conn.execute(password_resets.delete().where(password_resets.c.expires_at <= now))


# -- password resets --------------------------------------------------------------------------------------
def insert_reset(conn: Connection, token_hash: str, account_id: int, now: float, expires_at: float) -> None:
    conn.execute(
        password_resets.insert().values(
            token_hash=token_hash, account_id=account_id, created_at=now, expires_at=expires_at
        )
    )


def reset_account(conn: Connection, token_hash: str, now: float) -> AccountRow | None:
    """The account a reset token opens: unused, unexpired, the account not deleted."""
    r = conn.execute(
        select(accounts)
        .select_from(password_resets.join(accounts, password_resets.c.account_id == accounts.c.id))
        .where(
            password_resets.c.token_hash == token_hash,
            password_resets.c.used_at.is_(None),
            password_resets.c.expires_at > now,
            accounts.c.deleted_at.is_(None),
        )
    ).first()
    return None if r is None else _account(r)


def use_resets(conn: Connection, account_id: int, now: float) -> None:
    """Every open reset token of the account is used up (a password was just set)."""
    conn.execute(
        password_resets.update()
        .where(password_resets.c.account_id == account_id, password_resets.c.used_at.is_(None))
        .values(used_at=now)
    )


# -- seats of accounts ------------------------------------------------------------------------------------
def seats_by_token_hash(conn: Connection, token_hashes: list[str]) -> list[tuple[str, int]]:
    """(game id, seat) of every seat whose token hash is one of ``token_hashes``."""
    if not token_hashes:
        return []
    rows = conn.execute(
        select(seats.c.game_id, seats.c.seat)
        .where(seats.c.token_hash.in_(token_hashes))
        .order_by(seats.c.game_id, seats.c.seat)
    )
    return [(r.game_id, r.seat) for r in rows]


@dataclass
class HeldGame:
    """A game an account holds a seat of: the game's row (``turn_started``: its last change), when it was
    created, the account's seat, and every seat of the table."""

    row: GameRow
    created_at: float
    seat: int
    seats: list[SeatRow]


def held_games(conn: Connection, account_id: int, limit: int) -> list[HeldGame]:
    """The newest ``limit`` games the account holds a seat of, the last changed first."""
    rows = conn.execute(
        select(games, seats.c.seat.label("held_seat"))
        .select_from(seats.join(games, seats.c.game_id == games.c.id))
        .where(seats.c.account_id == account_id)
        .order_by(games.c.updated_at.desc(), games.c.id)
        .limit(limit)
    ).all()
    found = [HeldGame(game_row(r), r.created_at, r.held_seat, []) for r in rows]
    by_id = {g.row.id: g for g in found}
    if by_id:
        for r in conn.execute(
            SEAT_ROWS.where(seats.c.game_id.in_(list(by_id))).order_by(seats.c.game_id, seats.c.seat)
        ):
            by_id[r.game_id].seats.append(seat_row(r))
    return found
