"""Creating, listing and joining games: checking what the creator asked for before anything is stored."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import ludus
from ludus.engine import Game, OptionError

from .caller import Account, Credential
from .errors import Conflict, Forbidden, Unprocessable
from .game_cache import GameCache, account_seat, shared_game
from .hints import hints_option
from .limits import TooManyRequests
from .names import same_reading
from .ratings import mark_rated, rated_at_creation, refuse_guests
from .runtime import play_forced, public_options
from .schemas import display_name
from .seatbots import bot_names, canonical_kind
from .security import hash_token, host_key, new_game_id, new_token
from .storage import GameRow, SeatRow
from .storage_lobby import count_host_games, open_games
from .storage_tables import LINK, Offer, TableRow, insert_table, set_offer, start_turn
from .table_setup import SeatPlan, plan_seats, turn_based
from .table_state import waiting, waiting_for

MAX_TURN_SECONDS = 7 * 24 * 3600


class Lobby:
    """The service's part that makes games and seats people in them."""

    def __init__(self, games: GameCache) -> None:
        self.games = games
        self.store = games.store
        self.settings = games.settings

    def create(
        self,
        game: str,
        options: dict[str, Any],
        seat_kinds: list[str],
        claim: list[int] | None = None,
        names: list[str | None] | None = None,
        host: str | None = None,
        account: Account | None = None,
        turn_hours: int | None = None,
        on_timeout: str | None = None,
        rated: bool | None = None,
        also: Callable[[Any, str], None] | None = None,
    ) -> dict[str, Any]:
        """A new game; ``host``: the creator's client address (``security.host_key`` keeps a digest),
        whose caps on games with bots and open tables it must fit (429 otherwise), as the server's;
        ``account``: the signed-in creator, who holds the first human seat claimed (shown by its name).
        A seat of ``seat_kinds`` may be ``{"kind": "human", "invite": NAME}`` (offered to that account),
        ``{"kind": "human", "open": true}`` (listed in the open lobby) or ``{"kind": "human", "link":
        true}`` (anyone with the link); the table waits until every person's seat is taken
        (``table_state``). ``turn_hours`` (1 to 336) makes it turn-based, ``on_timeout`` its rule.
        ``also(conn, id)`` runs in the transaction that stores the game (raising, it stores nothing)."""
        if game not in ludus.game_names():
            raise Unprocessable(f"unknown game {game!r}; known games: {', '.join(ludus.game_names())}")
        options = dict(options)
        hints = hints_option(options)
        turn_seconds = self._turn_seconds(options.pop("turn_seconds", None))
        if turn_hours is not None or on_timeout is not None:
            turn_seconds, on_timeout = turn_based(turn_hours, on_timeout, turn_seconds)
        with self.store.read() as conn:
            plan: SeatPlan = plan_seats(conn, seat_kinds, account)
        seat_kinds = canonical_kinds(plan.kinds)
        loaded = _load_game(game, options, len(seat_kinds))
        humans = [i for i, kind in enumerate(seat_kinds) if kind == "human" and i not in plan.offered]
        if claim is None:
            claim = [i for i in humans if i not in plan.open]
        for i in claim:
            if i not in humans:
                raise Unprocessable(f"claim: seat {i} is not a human seat (an offered seat is not claimed)")
        names = _seat_names(names, seat_kinds)
        creator = None if host is None else host_key(host)
        bots = any(kind != "human" for kind in seat_kinds)
        offered = bool(set(humans) - set(claim))  # a seat offered in the lobby: an open table
        if bots or offered:
            with self.store.read() as conn:  # refused before any work; counted again with the insert
                self.room(conn, creator, bots, offered)
        tokens = {i: new_token() for i in claim}
        table = TableRow(
            True,
            None if account is None else account.id,
            min(claim, default=None),
            turn_hours,
            on_timeout,
            offers={i: Offer(kind, account_id, name) for i, (kind, account_id, name) in plan.offered.items()},
        )
        seed = secrets.randbits(63)
        state = loaded.new_initial_state(seed=seed)
        row = GameRow(
            new_game_id(),
            game,
            dict(loaded.config),
            seed,
            turn_seconds,
            0,
            0,
            0,
            "over" if state.is_terminal() else "playing",
            hints=hints,
            host=creator,
        )
        held = min(claim, default=None) if account is not None else None  # the creator's own seat
        seat_rows = [
            SeatRow(
                i,
                kind,
                hash_token(tokens[i]) if i in tokens else None,
                i in tokens or i in plan.offered,
                None,
                names[i],
            )
            for i, kind in enumerate(seat_kinds)
        ]
        if held is not None and account is not None:
            seat_rows[held] = replace(seat_rows[held], account_id=account.id, account_name=account.name)
        invited = {i for i, offer in table.offers.items() if offer.account_id is not None}
        rated = rated_at_creation(rated, seat_rows, claim, account, self.settings.rated_bots_allowed, invited)
        rt = self.games.get(row.id)
        with rt.lock:
            rt.row, rt.seats, rt.state, rt.version, rt.owners, rt.forced = row, seat_rows, state, 0, [], []
            rt.table = table
            moves = play_forced(state)  # a single-choice start is played before anyone sees it

            def work(conn: Any) -> float:
                if bots or offered:  # no other creation counts and inserts meanwhile
                    self.store.lock_creations(conn)
                    self.room(conn, creator, bots, offered)
                at = self.store.insert_game(conn, row, seat_rows)
                insert_table(conn, row.id, table)
                if also is not None:
                    also(conn, row.id)
                if rated:  # ratings.py: its end moves its players' ratings
                    mark_rated(conn, row.id)
                return self.games.commit_moves(rt, conn, row, moves, state) if moves else at

            try:
                row.turn_started = self.store.transact(work)
            except BaseException:
                rt.row = None  # type: ignore[assignment]  # nothing was stored: the cache keeps none of it
                self.games.forget(row.id)
                raise
            if moves:
                self.games.adopt(rt, row, moves, [True] * len(moves), state, row.turn_started)
            self.games.changed(rt)
        return {
            "id": row.id,
            "game": game,
            "options": rt.public_options(),
            "rated": rated,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.shown_name,
                    **({"token": tokens[i]} if i in tokens else {}),
                    **(
                        {"offer": table.offers[i].offer, "invited": table.offers[i].account_name}
                        if i in table.offers
                        else {}
                    ),
                }
                for i, s in enumerate(seat_rows)
            ],
        }

    def _turn_seconds(self, turn_seconds: Any) -> float | None:
        """The turn timer asked for, checked against the server's range (None: no timer)."""
        if turn_seconds is None:
            return None
        if (
            not isinstance(turn_seconds, int | float)
            or isinstance(turn_seconds, bool)
            or not 0 < turn_seconds <= MAX_TURN_SECONDS
        ):  # range first: 10**400 is no float
            raise Unprocessable(f"turn_seconds must be a number of seconds in (0, {MAX_TURN_SECONDS}]")
        if turn_seconds < self.settings.min_turn_seconds:
            raise Unprocessable(
                f"turn_seconds must be at least {self.settings.min_turn_seconds:g} on this server"
            )
        return turn_seconds

    def room(self, conn: Any, host: str | None, bots: bool, offered: bool) -> None:
        """Refuse a new game with bots while the server, or its creator ``host`` (``security.host_key``;
        None: not known, not counted), runs its limit of them; and a new open table while its creator
        holds its limit of those."""
        if bots:
            playing = self.store.count_bot_games(conn)
            if playing >= self.settings.max_bot_games:
                raise TooManyRequests(
                    f"this server already runs {playing} unfinished games with bots (its "
                    f"limit): try again later, or play with human seats",
                    retry_after=60,
                )
        if host is None or not (bots or offered):
            return
        with_bots, open_tables = count_host_games(conn, host, time.time(), self.games.expiry_seconds())
        if bots and with_bots >= self.settings.bot_games_per_host:
            raise TooManyRequests(
                f"this address already has {with_bots} unfinished games with bots (the limit of one "
                f"address): a place frees when one is over, so finish one (or leave it: a stand-in bot "
                f"then plays your seat to the end), or play with human seats only",
                retry_after=60,
            )
        if offered and open_tables >= self.settings.open_tables_per_host:
            raise TooManyRequests(
                f"this address already has {open_tables} open tables, games with a seat offered in the "
                f"lobby (the limit of one address): one frees its place once its free "
                f"seats are taken (join them yourself, or wait for players) or it is over; or claim "
                f"every human seat",
                retry_after=60,
            )

    def join(self, game_id: str, name: str | None = None, account: Account | None = None) -> dict[str, Any]:
        """Take the first free human seat; a signed-in ``account`` holds it (shown by the account's name),
        unless it holds a seat of this game already (409)."""
        name = _checked_name(name)
        rt = self.games.get(game_id)
        with rt.lock:

            def work(conn: Any) -> tuple[int, str]:
                row = self.store.lock_game(conn, game_id)
                self.games.sync(rt, conn, row)
                if rt.state.is_terminal():
                    raise Conflict("the game is over")
                if rt.abandoned:
                    raise Conflict("this game was abandoned")
                offers = {} if rt.table is None else rt.table.offers
                free = [s for s in rt.seats if s.free or (s.seat in offers and offers[s.seat].offer == LINK)]
                if not free:
                    raise Conflict("no free seat in this game")
                if account is None:  # a rated game's seats are signed-in people's
                    refuse_guests(conn, game_id)
                seat, token = free[0].seat, new_token()
                starts = waiting(rt) and all(w["seat"] == seat for w in waiting_for(rt))
                held = None if account is None else account_seat(rt, account.id)
                if held is not None:
                    raise Conflict(f"your account already holds Seat {held + 1} of this game")
                _not_taken([name if s.seat == seat else s.shown_name for s in rt.seats], seat)
                meta = rt.row.meta_version + 1
                named: dict[str, Any] = (
                    {} if name is None else {"name": name}
                )  # none given: the creator's name for the seat stays
                if account is not None:
                    named["account_id"] = account.id
                self.store.update_seat(
                    conn, game_id, seat, meta, claimed=True, token_hash=hash_token(token), **named
                )
                if seat in offers:
                    set_offer(conn, game_id, seat, None)
                if starts:  # the last seat taken: the table starts, its first turn now
                    start_turn(conn, game_id)
                self.store.notify(conn, self.games.payload(game_id, rt.row.version, meta))
                return seat, token

            seat, token = self.store.transact(work)
            self.games.sync_after(rt)
            return {"id": game_id, "seat": seat, "token": token}

    def rename(self, game_id: str, token: Credential, name: str | None) -> dict[str, Any]:
        """The token's seat takes the display name ``name`` (None or blank: none), e.g. a person who
        came by an invite link; the same name again changes nothing."""
        name = _checked_name(name)
        rt = self.games.get(game_id)
        with rt.lock:

            def work(conn: Any) -> int:
                self.games.sync(rt, conn, self.store.lock_game(conn, game_id))
                seat = self.games.seat_of(rt, token)
                self.games.not_abandoned(rt)
                left_to = rt.seats[seat].left_to
                if left_to is not None:
                    raise Forbidden(
                        f"Seat {seat + 1} left this game ({left_to} plays it now): its name stays"
                    )
                if rt.seats[seat].account_id is not None:
                    raise Forbidden(f"Seat {seat + 1} is held by an account: it shows the account's name")
                _not_taken([name if s.seat == seat else s.shown_name for s in rt.seats], seat)
                if rt.seats[seat].name != name:
                    meta = rt.row.meta_version + 1
                    self.store.update_seat(conn, game_id, seat, meta, name=name)
                    self.store.notify(conn, self.games.payload(game_id, rt.row.version, meta))
                return seat

            seat = self.store.transact(work)
            self.games.sync_after(rt)
            return {"id": game_id, "seat": seat, "name": name}

    def open_games(self, limit: int | None = None, offset: int = 0) -> list[dict[str, Any]]:
        """One page of joinable games, newest first (idle ones about to expire are left out), at most
        ``lobby_per_host`` of one creator's: its newest (the others stay joinable by their links)."""
        limit = self.settings.lobby_page if limit is None else limit
        if not 1 <= limit <= self.settings.lobby_page or not 0 <= offset <= 1_000_000:
            raise Unprocessable(
                f"limit must be from 1 to {self.settings.lobby_page}, offset from 0 to 1000000"
            )
        with self.store.read() as conn:
            found = open_games(
                conn, limit, offset, time.time(), self.games.expiry_seconds(), self.settings.lobby_per_host
            )
        return [
            {
                "id": row.id,
                "game": row.game,
                "options": public_options(row),
                "seats": [
                    {
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.shown_name,
                        "account": s.account_id is not None,
                        "free": s.free,
                        "bot": s.bot,
                    }
                    for s in seat_rows
                ],
                "free_seats": sum(s.free for s in seat_rows),
            }
            for row, seat_rows in found
        ]


def canonical_kinds(seat_kinds: list[str]) -> list[str]:
    """Each seat's kind as stored: 'human' or a bot's canonical spec, never as sent."""
    out = []
    for i, kind in enumerate(seat_kinds):
        try:
            out.append(canonical_kind(kind))
        except ValueError as exc:
            raise Unprocessable(
                f"seat {i}: {kind[:40]!r} is neither 'human' nor a bot ({exc}); bots: {', '.join(bot_names())}"
            ) from None
    return out


def _load_game(game: str, options: dict[str, Any], seats: int) -> Game:
    """The game with ``options`` (players: one per seat unless given), refused unless it has ``seats`` seats."""
    try:
        game_class = ludus.engine.registry.game_class(game)
        if "players" in {o.name for o in game_class.options} and "players" not in options:
            options["players"] = seats
        loaded = shared_game(game, game_class.validate_options(options))  # keyed by the whole config
    except OptionError as exc:
        raise Unprocessable(str(exc)) from None
    except TypeError as exc:
        raise Unprocessable(f"bad options for {game}: {exc}") from None
    if loaded.num_players != seats:
        raise Unprocessable(
            f"this {game} configuration has {loaded.num_players} seats, but {seats} were given"
        )
    return loaded


def _checked_name(name: str | None, where: str = "name") -> str | None:
    """``schemas.display_name``, a bad name refused with 422 saying where it was."""
    try:
        return display_name(name)
    except ValueError as exc:
        raise Unprocessable(f"{where}: {exc}") from None


def _seat_names(names: list[str | None] | None, seat_kinds: list[str]) -> list[str | None]:
    """The display name of each seat (``schemas.display_name``); only a human seat takes one."""
    if names is None:
        return [None] * len(seat_kinds)
    if len(names) != len(seat_kinds):
        raise Unprocessable(f"names: give one per seat ({len(seat_kinds)}), not {len(names)}")
    out: list[str | None] = []
    for i, (name, kind) in enumerate(zip(names, seat_kinds, strict=True)):
        name = _checked_name(name, f"names: seat {i}")
        if name is not None and kind != "human":
            raise Unprocessable(f"names: seat {i} is a bot ({kind}); only a person's seat takes a name")
        out.append(name)
        _not_taken(out, i, f"names: seat {i}")
    return out


def _not_taken(names: list[str | None], seat: int, where: str = "name") -> None:
    """Refuse (422) seat ``seat``'s name ``names[seat]`` if it reads as another seat's at the table
    (``names.same_reading``): nobody takes the creator's name, or a lookalike of it."""
    name = names[seat]
    for other, taken in enumerate(names):
        if other != seat and name is not None and taken is not None and same_reading(taken, name):
            raise Unprocessable(
                f"{where}: {name!r} reads as {taken!r}, seat {other}'s name at this table: choose another"
            )
