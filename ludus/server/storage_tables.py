"""Storage of tables that wait for their players (migration 0007): a game's waiting-room and turn-based
settings (``tables``) and the seats offered to a named account or to anyone with the link
(``seat_offers``). A game stored before has no ``tables`` row: it never waits.

An offered seat is stored taken (``seats.claimed``) with no token and no account until someone takes
it: the open lobby lists only free seats, and ``join`` takes an offered seat only by the link.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from sqlalchemy import Boolean, Column, Connection, ForeignKey, Index, Integer, String, Table, select

from .storage import GameRow, accounts, game_row, games, metadata

INVITE, LINK = "invite", "link"

tables = Table(
    "tables",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("waits", Boolean, nullable=False),  # a waiting room: no move until every person's seat is taken
    Column("host_account_id", Integer, ForeignKey("accounts.id"), nullable=True),
    Column("host_seat", Integer, nullable=True),  # the creator's seat (a guest host's token names it)
    Column(
        "turn_hours", Integer, nullable=True
    ),  # turn-based: hours to move (games.turn_seconds holds it too)
    Column("on_timeout", String(8), nullable=True),  # 'bot' or 'others', with turn_hours
    Column("rematch_id", String(32), nullable=True),  # the game made by a rematch of this one
)

seat_offers = Table(
    "seat_offers",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("offer", String(8), nullable=False),  # INVITE or LINK
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True),  # the invited account
    Index("ix_seat_offers_account", "account_id"),
)


@dataclass
class Offer:
    """A seat offered and not yet taken: to ``account_id`` (named ``account_name``), or by the link."""

    offer: str
    account_id: int | None = None
    account_name: str | None = None


@dataclass
class TableRow:
    """A game's ``tables`` row with its seats still offered."""

    waits: bool
    host_account_id: int | None = None
    host_seat: int | None = None
    turn_hours: int | None = None
    on_timeout: str | None = None
    rematch_id: str | None = None
    offers: dict[int, Offer] = field(default_factory=dict)


def load_table(conn: Connection, game_id: str) -> TableRow | None:
    """The game's table (None: a game made before tables, or by a client that never waits)."""
    r = conn.execute(select(tables).where(tables.c.game_id == game_id)).first()
    if r is None:
        return None
    found = conn.execute(
        select(seat_offers, accounts.c.name)
        .select_from(seat_offers.outerjoin(accounts, seat_offers.c.account_id == accounts.c.id))
        .where(seat_offers.c.game_id == game_id)
    )
    offers = {o.seat: Offer(o.offer, o.account_id, o.name) for o in found}
    return TableRow(
        bool(r.waits), r.host_account_id, r.host_seat, r.turn_hours, r.on_timeout, r.rematch_id, offers
    )


def tables_of(conn: Connection, game_ids: list[str]) -> dict[str, TableRow]:
    """``load_table`` of many games in two queries (a game without a table is left out)."""
    if not game_ids:
        return {}
    found = {
        r.game_id: TableRow(
            bool(r.waits), r.host_account_id, r.host_seat, r.turn_hours, r.on_timeout, r.rematch_id
        )
        for r in conn.execute(select(tables).where(tables.c.game_id.in_(game_ids)))
    }
    for o in conn.execute(
        select(seat_offers, accounts.c.name)
        .select_from(seat_offers.outerjoin(accounts, seat_offers.c.account_id == accounts.c.id))
        .where(seat_offers.c.game_id.in_(list(found)))
    ):
        found[o.game_id].offers[o.seat] = Offer(o.offer, o.account_id, o.name)
    return found


def insert_table(conn: Connection, game_id: str, table: TableRow) -> None:
    conn.execute(
        tables.insert().values(
            game_id=game_id,
            waits=table.waits,
            host_account_id=table.host_account_id,
            host_seat=table.host_seat,
            turn_hours=table.turn_hours,
            on_timeout=table.on_timeout,
            rematch_id=table.rematch_id,
        )
    )
    if table.offers:
        conn.execute(
            seat_offers.insert(),
            [
                {"game_id": game_id, "seat": seat, "offer": o.offer, "account_id": o.account_id}
                for seat, o in table.offers.items()
            ],
        )


def set_offer(
    conn: Connection, game_id: str, seat: int, offer: str | None, account_id: int | None = None
) -> None:
    """The seat's offer becomes ``offer`` (None: taken, no offer left)."""
    conn.execute(seat_offers.delete().where(seat_offers.c.game_id == game_id, seat_offers.c.seat == seat))
    if offer is not None:
        conn.execute(
            seat_offers.insert().values(game_id=game_id, seat=seat, offer=offer, account_id=account_id)
        )


def set_rematch(conn: Connection, game_id: str, rematch_id: str) -> None:
    """Record the rematch of ``game_id`` (a game made before tables gets a row that never waits)."""
    done = conn.execute(tables.update().where(tables.c.game_id == game_id).values(rematch_id=rematch_id))
    if done.rowcount == 0:
        insert_table(conn, game_id, TableRow(False, rematch_id=rematch_id))


def start_turn(conn: Connection, game_id: str) -> float:
    """The table starts: its first turn begins now (``games.updated_at``, where turn deadlines count
    from)."""
    now = time.time()
    conn.execute(games.update().where(games.c.id == game_id).values(updated_at=now))
    return now


def invitations(conn: Connection, account_id: int, limit: int) -> list[tuple[GameRow, int, float]]:
    """The unfinished games with a seat offered to the account, the newest first: (game, seat, its
    creation time)."""
    rows = conn.execute(
        select(games, seat_offers.c.seat.label("offered_seat"))
        .select_from(seat_offers.join(games, seat_offers.c.game_id == games.c.id))
        .where(
            seat_offers.c.account_id == account_id, seat_offers.c.offer == INVITE, games.c.status == "playing"
        )
        .order_by(games.c.created_at.desc(), games.c.id)
        .limit(limit)
    ).all()
    return [(game_row(r), r.offered_seat, r.created_at) for r in rows]
