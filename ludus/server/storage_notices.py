"""Storage of e-mail notices (migration 0009): ``mail_log``, one row per notice sent, keyed by game,
account, kind and turn, so that a notice is sent once however often (and by however many server
processes) its change is seen; and ``server_secrets``, keys the server draws once and keeps."""

from __future__ import annotations

import secrets

from sqlalchemy import Column, Connection, Float, ForeignKey, Integer, String, Table, exists, select
from sqlalchemy.exc import IntegrityError

from .storage import Store, metadata

mail_log = Table(
    "mail_log",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("kind", String(8), primary_key=True),  # 'turn', 'invite' or 'end'
    Column("turn_key", String(32), primary_key=True),  # which turn ('turn'); '' for the others
    Column("at", Float, nullable=False),
)

server_secrets = Table(
    "server_secrets",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)


def log_once(conn: Connection, game_id: str, account_id: int, kind: str, turn_key: str, now: float) -> bool:
    """Record the notice in this transaction; False when it was recorded before. A second transaction
    recording the same notice meanwhile fails at its commit (the primary key) and sends nothing."""
    key = (
        (mail_log.c.game_id == game_id)
        & (mail_log.c.account_id == account_id)
        & (mail_log.c.kind == kind)
        & (mail_log.c.turn_key == turn_key)
    )
    if conn.execute(select(exists().where(key))).scalar():
        return False
    conn.execute(
        mail_log.insert().values(game_id=game_id, account_id=account_id, kind=kind, turn_key=turn_key, at=now)
    )
    return True


def server_secret(store: Store, name: str, create: bool = True) -> str | None:
    """The secret ``name``, drawn at random and stored the first time any server process asks for it
    with ``create`` (without: None until then)."""
    query = select(server_secrets.c.value).where(server_secrets.c.name == name)
    with store.read() as conn:
        found = conn.execute(query).scalar()
    if found is not None or not create:
        return None if found is None else str(found)
    drawn = secrets.token_hex(32)
    try:
        store.transact(lambda conn: conn.execute(server_secrets.insert().values(name=name, value=drawn)))
        return drawn
    except IntegrityError:  # another process drew it first: theirs is kept
        with store.read() as conn:
            return str(conn.execute(query).scalar_one())
