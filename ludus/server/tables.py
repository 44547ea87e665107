"""The service's part for tables that wait and tables that last: accepting or declining an invitation,
the host starting a waiting table with bots, handing a late seat to a bot (turn-based, rule 'others'),
and the rematch of a finished game. Each change is one transaction under the game row's lock, its
listeners told after the commit, as every seat change."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import select

from .caller import Account, Caller, Credential, as_caller
from .errors import Conflict, Forbidden, NotFound, Unprocessable
from .game_cache import GameCache, account_seat
from .lobby import Lobby, canonical_kinds
from .runtime import Runtime
from .security import hash_token, new_token
from .storage import games
from .storage_accounts import account_by_id
from .storage_social import is_rated
from .storage_tables import INVITE, LINK, set_offer, set_rematch, start_turn, tables
from .table_state import table_of, waiting, waiting_for
from .views import turn_deadline

T = TypeVar("T")


class Tables:
    """Invitations, the waiting room's start, the hand-over of a late seat, and rematches."""

    def __init__(self, games: GameCache, lobby: Lobby, clock: Callable[[], float] = time.time) -> None:
        self.games = games
        self.store = games.store
        self.lobby = lobby
        self.clock = clock

    def _change(self, game_id: str, change: Callable[[Runtime, Any, int], T]) -> T:
        """Run ``change(rt, conn, meta)`` under the game's row lock with the game synced; the seats'
        version moves and the other processes and listeners are told once it is committed."""
        rt = self.games.get(game_id)
        with rt.lock:

            def work(conn: Any) -> T:
                self.games.sync(rt, conn, self.store.lock_game(conn, game_id))
                meta = rt.row.meta_version + 1
                out = change(rt, conn, meta)
                # every change of a table moves its seats' version (update_seat does, a table's change too)
                conn.execute(games.update().where(games.c.id == game_id).values(meta_version=meta))
                self.store.notify(conn, self.games.payload(game_id, rt.row.version, meta))
                return out

            out = self.store.transact(work)
            self.games.sync_after(rt)
            return out

    def _invitation(self, rt: Runtime, account: Account) -> int:
        table = table_of(rt)
        offers = {} if table is None else table.offers
        seat = next((s for s, o in offers.items() if o.offer == INVITE and o.account_id == account.id), None)
        if seat is None:
            raise Forbidden("you have no invitation to this game (declined, taken, or never offered)")
        self.games.not_abandoned(rt)
        return seat

    def accept(self, game_id: str, account: Account) -> dict[str, Any]:
        """The invited account takes its seat (and a token for API clients); the table starts when it
        was the last seat to take."""

        def change(rt: Runtime, conn: Any, meta: int) -> dict[str, Any]:
            seat = self._invitation(rt, account)
            held = account_seat(rt, account.id)
            if held is not None:
                raise Conflict(f"your account already holds seat {held} of this game")
            starts = all(w["seat"] == seat for w in waiting_for(rt))
            token = new_token()
            self.store.update_seat(
                conn, game_id, seat, meta, claimed=True, token_hash=hash_token(token), account_id=account.id
            )
            set_offer(conn, game_id, seat, None)
            if starts and waiting(rt):
                start_turn(conn, game_id)
            return {"id": game_id, "seat": seat, "token": token}

        return self._change(game_id, change)

    def decline(self, game_id: str, account: Account) -> dict[str, Any]:
        """The invited account says no: the seat stays offered to anyone with the link."""

        def change(rt: Runtime, conn: Any, meta: int) -> dict[str, Any]:
            seat = self._invitation(rt, account)
            set_offer(conn, game_id, seat, LINK)
            return {"id": game_id, "seat": seat, "offer": LINK}

        return self._change(game_id, change)

    def start(self, game_id: str, who: Credential, bots: str) -> dict[str, Any]:
        """The host starts the waiting table: every seat not taken gets a bot ``bots`` (a bot's kind)."""
        kind = canonical_kinds([bots])[0]
        if kind == "human":
            raise Unprocessable("bots: give a bot's name (or 'name:seconds=S'), not 'human'")

        def change(rt: Runtime, conn: Any, meta: int) -> dict[str, Any]:
            self._host_only(rt, who)
            if not waiting(rt):
                raise Conflict("this table is not waiting: it has started")
            if is_rated(conn, game_id) and not self.games.settings.rated_bots_allowed:
                raise Conflict(
                    "this table is rated and this server rates no game with bots: wait for players"
                )
            self.lobby.room(conn, rt.row.host, True, False)
            filled = [w["seat"] for w in waiting_for(rt)]
            for seat in filled:
                self.store.update_seat(
                    conn,
                    game_id,
                    seat,
                    meta,
                    kind=kind,
                    claimed=True,
                    token_hash=None,
                    account_id=None,
                    name=None,
                )
                set_offer(conn, game_id, seat, None)
            start_turn(conn, game_id)
            return {"id": game_id, "bots": kind, "seats": filled}

        return self._change(game_id, change)

    def _host_only(self, rt: Runtime, who: Credential) -> None:
        table = table_of(rt)
        caller = as_caller(who)
        if table is None:
            raise Conflict("this game has no waiting room")
        if caller.account_id is not None and caller.account_id == table.host_account_id:
            return
        if caller.token is not None and table.host_seat is not None:
            if self.games.seat_of(rt, Caller(caller.token)) == table.host_seat:
                return
        elif caller.account_id is None and caller.token is None:
            self.games.seat_of(rt, caller)  # 401: no credential
        raise Forbidden("only the table's host (its creator) may start it")

    def hand_over(self, game_id: str, who: Credential, seat: int) -> dict[str, Any]:
        """Another seated person gives the late seat ``seat`` to a bot for good (turn-based tables with
        the rule 'others', once the turn's deadline has passed)."""

        def change(rt: Runtime, conn: Any, meta: int) -> dict[str, Any]:
            mine = self.games.seat_of(rt, who)
            table = table_of(rt)
            if table is None or table.on_timeout != "others":
                raise Conflict(
                    "only a turn-based table with the rule 'others' lets the others hand a seat over"
                )
            if not 0 <= seat < len(rt.seats):
                raise NotFound(f"no seat {seat} in this game")
            if seat == mine:
                raise Forbidden("hand your own seat over by leaving (POST /api/games/{id}/leave)")
            if rt.seats[mine].left_to is not None:
                raise Forbidden(f"seat {mine} left this game: it decides nothing more")
            if rt.state.is_terminal():
                raise Conflict("the game is over")
            self.games.not_abandoned(rt)
            if rt.state.current_player() != seat or rt.seats[seat].bot is not None:
                raise Conflict(f"seat {seat} is not a person to move")
            deadline = turn_deadline(rt)
            if deadline is None or self.clock() < deadline:
                raise Conflict(f"seat {seat}'s time to move has not run out yet (deadline {deadline})")
            bot = self.games.settings.standin_bot
            self.store.update_seat(conn, game_id, seat, meta, left_to=bot)
            return {"id": game_id, "seat": seat, "bot": bot}

        return self._change(game_id, change)

    def rematch(
        self, game_id: str, who: Credential, account: Account | None, host: str | None
    ) -> dict[str, Any]:
        """The same table again (game, options, seats): the caller holds their seat, every other
        account's seat is an invitation to it (a link seat if that account is banned or deleted since),
        bots stay, guests' seats are offered by the link. The first rematch claims the old game in the
        transaction that stores the new one, so that every later or simultaneous call answers it."""
        rt = self.games.read(game_id)
        with rt.lock:
            seat = self.games.seat_of(rt, who)
            if not rt.state.is_terminal():
                raise Conflict("a rematch is for a finished game")
            table = table_of(rt)
            if table is not None and table.rematch_id is not None:
                return {"id": table.rematch_id, "seat": None}
            row = rt.row
            kinds: list[Any] = [
                s.kind if s.kind != "human" or s.seat == seat else s.account_id for s in rt.seats
            ]
            options = dict(row.config)
            if row.hints is not None:
                options["hints"] = row.hints
            turn_hours = None if table is None else table.turn_hours
            if row.turn_seconds is not None and turn_hours is None:
                options["turn_seconds"] = row.turn_seconds
            on_timeout = None if table is None else table.on_timeout
            mine = account if account is not None and rt.seats[seat].account_id == account.id else None
        seats = self._rematch_seats(kinds)

        def claim(conn: Any, new_id: str) -> None:
            locked = self.store.lock_game(conn, game_id)  # simultaneous rematches wait here, in turn
            made = conn.execute(select(tables.c.rematch_id).where(tables.c.game_id == game_id)).scalar()
            if locked is None or made is not None:
                raise _MadeBefore(made)
            set_rematch(conn, game_id, new_id)
            meta = locked.meta_version + 1
            conn.execute(games.update().where(games.c.id == game_id).values(meta_version=meta))
            self.store.notify(conn, self.games.payload(game_id, locked.version, meta))

        try:
            created = self.lobby.create(
                row.game,
                options,
                seats,
                [seat],
                None,
                host,
                mine,
                turn_hours,
                on_timeout if turn_hours else None,
                also=claim,
            )
        except _MadeBefore as before:
            if before.game_id is None:
                raise NotFound(f"no game {game_id!r}") from None
            return {"id": before.game_id, "seat": None}
        with rt.lock:
            self.games.sync_after(rt)  # the old game's view names its rematch
        return {**created, "seat": seat}

    def _rematch_seats(self, kinds: list[Any]) -> list[Any]:
        """The rematch's seats from the old ones (a bot's kind, "human" for the caller, an account's id
        for another account's seat, None for a guest's): an account that may still play is invited by
        its name as it is now, any other seat is offered by the link."""
        with self.store.read() as conn:
            found = {k: account_by_id(conn, k) for k in kinds if isinstance(k, int)}
        seats: list[Any] = []
        for kind in kinds:
            invitee = found.get(kind) if isinstance(kind, int) else None
            if isinstance(kind, str):
                seats.append(kind)
            elif invitee is not None and invitee.banned_at is None and invitee.deleted_at is None:
                seats.append({"kind": "human", "invite": invitee.name})
            else:
                seats.append({"kind": "human", "link": True})
        return seats


class _MadeBefore(Exception):
    """Raised in a rematch's transaction: the old game's rematch ``game_id`` was made first (None: the
    old game is gone)."""

    def __init__(self, game_id: str | None) -> None:
        super().__init__(game_id)
        self.game_id = game_id
