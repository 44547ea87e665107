"""The lobby's queries: the open tables a page at a time (at most so many of one creator's), and what
one creator holds (games with bots, open tables).

Each goes through an index: games by (status, created_at) or (status, host), and a game's seats by
their key (an EXISTS per game row, never a pass over every seat).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, exists, func, select

from .storage import SEAT_ROWS, GameRow, SeatRow, game_row, games, seat_row, seats

# a seat a person may still take; a seat a bot plays (its own kind, or a stand-in for a seat that left)
FREE_SEAT = exists().where(
    seats.c.game_id == games.c.id,
    seats.c.kind == "human",
    seats.c.claimed.is_(False),
    seats.c.left_to.is_(None),
)
BOT_SEAT = exists().where(
    seats.c.game_id == games.c.id, (seats.c.kind != "human") | seats.c.left_to.is_not(None)
)


def live(now: float, idle_seconds: float) -> Any:
    """An unfinished game that ``Store.expire_idle`` leaves alone at ``now``: a person at the table
    played within ``idle_seconds``, or within twice its time to move."""
    renewed = func.coalesce(games.c.renewed_at, games.c.updated_at)
    return (renewed >= now - idle_seconds) | (
        games.c.turn_seconds.is_not(None) & (renewed >= now - 2 * games.c.turn_seconds)
    )


def open_games(
    conn: Connection,
    limit: int,
    offset: int,
    now: float | None = None,
    idle_seconds: float | None = None,
    per_host: int | None = None,
) -> list[tuple[GameRow, list[SeatRow]]]:
    """Joinable games, newest first: still playing, a free human seat, not about to expire (at ``now``
    with ``idle_seconds``); ``per_host``: at most that many of one creator's, its newest (a game of
    no known creator is its own)."""
    where = [games.c.status == "playing", FREE_SEAT]
    if now is not None and idle_seconds is not None:
        where.append(live(now, idle_seconds))
    newest = (games.c.created_at.desc(), games.c.id)
    query = select(games).where(*where)
    if per_host is not None:  # each open game's rank among its creator's, in one pass over them
        rank = func.row_number().over(partition_by=func.coalesce(games.c.host, games.c.id), order_by=newest)
        ranked = select(games.c.id, rank.label("rank")).where(*where).subquery()
        query = select(games).join(ranked, ranked.c.id == games.c.id).where(ranked.c.rank <= per_host)
    found = [game_row(r) for r in conn.execute(query.order_by(*newest).limit(limit).offset(offset))]
    by_game: dict[str, list[SeatRow]] = {g.id: [] for g in found}
    if found:
        for r in conn.execute(
            SEAT_ROWS.where(seats.c.game_id.in_(list(by_game))).order_by(seats.c.game_id, seats.c.seat)
        ):
            by_game[r.game_id].append(seat_row(r))
    return [(g, by_game[g.id]) for g in found]


def count_host_games(conn: Connection, host: str, now: float, idle_seconds: float) -> tuple[int, int]:
    """The unfinished games with a bot seat, and the open tables (as ``open_games`` lists them), that
    the creator ``host`` (``security.host_key``) holds."""
    mine = select(func.count()).select_from(games).where(games.c.status == "playing", games.c.host == host)
    with_bots = conn.execute(mine.where(BOT_SEAT)).scalar_one()
    open_tables = conn.execute(mine.where(FREE_SEAT, live(now, idle_seconds))).scalar_one()
    return int(with_bots), int(open_tables)
