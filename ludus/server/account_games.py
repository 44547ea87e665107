"""An account's games: the seats a guest's browser holds, claimed by the account it signs in to, and the
list of the games an account holds a seat of ("My games").

A claim binds each seat whose token the browser sends to the account, so that its session opens the
seat on any device (the token keeps working too). A seat already held by another account stays
theirs, and an account holds at most one seat of a game (the session names one seat): a second token
of the same game is left as it is. Each claimed game is told, as any seat change is.
"""

from __future__ import annotations

from typing import Any

from .caller import Account
from .game_cache import GameCache, account_seat
from .runtime import public_options
from .security import hash_token
from .storage import SeatRow
from .storage_accounts import HeldGame, held_games, seats_by_token_hash
from .storage_tables import Offer, TableRow, invitations, tables_of
from .table_state import waiting

STATUS_ORDER = {"your_turn": 0, "invited": 1, "waiting": 2, "open": 3, "finished": 4}

MAX_CLAIM = 100  # tokens one claim may send (a browser holds one a game)
MY_GAMES = 100  # the most games "My games" lists: the last changed


class AccountGames:
    """The service's part that binds seats to accounts and lists an account's games."""

    def __init__(self, games: GameCache) -> None:
        self.games = games
        self.store = games.store

    def claim(self, account: Account, tokens: list[str]) -> dict[str, Any]:
        """Bind the seats of ``tokens`` to ``account``: ``{"claimed": [{id, seat}], "held": [{id, seat}],
        "refused": n}`` (held: the account's already; refused: unknown tokens, seats of another account,
        a second seat of one game)."""
        hashes = sorted({hash_token(t) for t in tokens[:MAX_CLAIM]})
        with self.store.read() as conn:
            found = seats_by_token_hash(conn, hashes)
        claimed: list[dict[str, Any]] = []
        held: list[dict[str, Any]] = []
        for game_id, seat in found:
            outcome = self._claim_seat(account, game_id, seat, set(hashes))
            if outcome is not None:
                (claimed if outcome else held).append({"id": game_id, "seat": seat})
        return {"claimed": claimed, "held": held, "refused": len(hashes) - len(claimed) - len(held)}

    def _claim_seat(self, account: Account, game_id: str, seat: int, hashes: set[str]) -> bool | None:
        """True: claimed now; False: the account's already; None: refused."""
        rt = self.games.get(game_id)
        with rt.lock:

            def work(conn: Any) -> bool | None:
                self.games.sync(rt, conn, self.store.lock_game(conn, game_id))
                row = rt.seats[seat]
                if row.account_id == account.id:
                    return False
                if row.account_id is not None or row.token_hash not in hashes:
                    return None
                if account_seat(rt, account.id) is not None:
                    return None
                meta = rt.row.meta_version + 1
                self.store.update_seat(conn, game_id, seat, meta, account_id=account.id)
                self.store.notify(conn, self.games.payload(game_id, rt.row.version, meta))
                return True

            outcome = self.store.transact(work)
            if outcome:
                self.games.sync_after(rt)
            return outcome

    def games_of(self, account: Account, limit: int = MY_GAMES) -> list[dict[str, Any]]:
        """The account's games: ``{id, game, status, seat, ...}`` where status is ``your_turn`` (its seat
        is to move), ``invited`` (a seat offered to it: accept or decline), ``waiting`` (another's turn,
        or a table waiting for its players), ``open`` (a table it hosts that waits) or ``finished`` (over
        or abandoned); in that order, each the last changed first."""
        with self.store.read() as conn:
            found = held_games(conn, account.id, limit)
            invited = invitations(conn, account.id, limit)
            ids = [held.row.id for held in found] + [row.id for row, _, _ in invited]
            tables = tables_of(conn, ids)
        entries = [self._invited(row, seat, at, tables.get(row.id)) for row, seat, at in invited]
        entries += [self._entry(held, account, tables.get(held.row.id)) for held in found]
        return sorted(entries, key=lambda e: STATUS_ORDER[e["status"]])

    def _invited(self, row: Any, seat: int, created_at: float, table: TableRow | None) -> dict[str, Any]:
        rt = self.games.read(row.id)
        with rt.lock:
            seats = list(rt.seats)
        entry = self._entry(HeldGame(rt.row, created_at, seat, seats), None, table)
        return {**entry, "status": "invited"}

    def _entry(self, held: HeldGame, account: Account | None, table: TableRow | None) -> dict[str, Any]:
        row = held.row
        status = "finished"
        if row.status == "playing":
            rt = self.games.read(row.id)  # the cached game: its rules know whose turn it is
            with rt.lock:
                if waiting(rt):
                    host = account is not None and table is not None and table.host_account_id == account.id
                    status = "open" if host else "waiting"
                elif not (rt.state.is_terminal() or rt.abandoned):
                    to_move = rt.state.current_player() == held.seat and rt.seats[held.seat].bot is None
                    status = "your_turn" if to_move else "waiting"
        offers = {} if table is None else table.offers
        host_seat = None if table is None else table.host_seat
        return {
            "id": row.id,
            "game": row.game,
            "status": status,
            "seat": held.seat,
            "options": public_options(row),
            "turn_hours": None if table is None else table.turn_hours,
            "host": _host_name(held, host_seat),
            "opponents": [seat_words(s, offers.get(s.seat)) for s in held.seats if s.seat != held.seat],
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.shown_name,
                    "account": s.account_id is not None,
                    "bot": s.bot,
                    "free": s.free,
                    "invited": None if s.seat not in offers else offers[s.seat].account_name,
                }
                for s in held.seats
            ],
            "created_at": held.created_at,
            "updated_at": row.turn_started,
            "game_status": row.status,
        }


def _host_name(held: HeldGame, host_seat: int | None) -> str | None:
    """The name of the table's host (its creator, in the host's seat), if it has one and it is named."""
    if host_seat is None or not 0 <= host_seat < len(held.seats):
        return None
    return held.seats[host_seat].shown_name


def seat_words(seat: SeatRow, offer: Offer | None) -> str:
    """Who holds a seat, in a player's words: a name, a bot, an invited player, a seat still open."""
    if offer is not None:
        return f"{offer.account_name} (invited)" if offer.account_name else "a seat open to the link"
    if seat.bot is not None:
        return f"bot ({seat.bot})"
    if seat.free:
        return "an open seat"
    return seat.shown_name or f"a guest (seat {seat.seat + 1})"
