"""Ratings: each account's skill per game, moved by the rated games it finishes (openskill's Plackett–Luce
model, which rates any number of players and shares a place between equal results).

A game is rated when created so (``rated_at_creation``): every seat a signed-in person's (bots too when
the operator allows them: only the accounts' seats are rated). When it ends, ``Ratings.on_change`` (a
listener of the service's changes) settles it in a thread of its own: places from the game's returns
(equal returns share a place; a seat that left is last), then one transaction claims the game
(``storage_social.claim_settlement``) and moves its players' ratings, so that an end seen twice, or by
two server processes, counts once. The rating shown is openskill's ordinal (mu - 3 sigma): it rises as
the rating grows surer, and starts at 0.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection

import ludus

from . import storage_social as db
from .accounts import name_key
from .caller import Account
from .errors import Forbidden, NotFound, Unprocessable
from .storage import SeatRow
from .storage_accounts import account_by_key

if TYPE_CHECKING:
    from .game_cache import GameCache
    from .runtime import Runtime

log = logging.getLogger("ludus.server")
HISTORY_SHOWN = 200  # a player's page: its newest rated results
GAMES_SHOWN = 30  # a player's page: its newest games
DONE_KEPT = 4096  # game ids known settled (or unrated) in this process: their later changes cost nothing


def places(returns: Sequence[float], left: set[int]) -> list[int]:
    """Each seat's place, 1 the best: by returns, equal returns sharing a place; the seats in ``left`` (who
    left the game) share the last place after everyone who stayed."""
    stayed = [r for i, r in enumerate(returns) if i not in left]
    return [
        len(stayed) + 1 if i in left else 1 + sum(other > r for other in stayed)
        for i, r in enumerate(returns)
    ]


def rated_at_creation(
    rated: bool | None,
    seat_rows: list[SeatRow],
    claimed: list[int],
    account: Account | None,
    bots_allowed: bool,
    invited: Collection[int] = (),
) -> bool:
    """Whether a new game is rated: as asked, else (None) when every seat is an account's (held, or
    ``invited``: offered to a named account). A rated game needs a signed-in creator, who takes one seat
    and leaves the other people's seats for signed-in players (invited, or joining signed in), and no bot
    seat unless ``bots_allowed``; 422 saying which rule a request breaks."""
    if rated is None:
        return len(seat_rows) > 1 and all(s.account_id is not None or s.seat in invited for s in seat_rows)
    if not rated:
        return False
    if account is None:
        raise Unprocessable("a rated game is for signed-in players: sign in first (or set rated: false)")
    bots = [s.seat for s in seat_rows if s.kind != "human"]
    if bots and not bots_allowed:
        raise Unprocessable(
            f"a rated game has every seat a signed-in person's, and seat {bots[0]} is a bot on a server that "
            f"rates no game with bots (set rated: false)"
        )
    if sum(s.kind == "human" for s in seat_rows) < 2:
        raise Unprocessable("a rated game needs at least two people's seats")
    if len(claimed) > 1:
        raise Unprocessable(
            "a rated game: its creator takes one seat (claim: [n]) and leaves the others free for "
            "signed-in players to join"
        )
    return True


mark_rated = db.mark_rated  # in the creating transaction: the game is rated


def refuse_guests(conn: Connection, game_id: str) -> None:
    """Refuse (403) a guest joining a rated game: its seats are signed-in people's."""
    if db.is_rated(conn, game_id):
        raise Forbidden("this game is rated: sign in (or sign up) to join it")


def shown(ordinal: float) -> float:
    return round(ordinal, 1)


class Ratings:
    """The ratings over the service's ``games`` (their store and settings)."""

    def __init__(self, games: GameCache) -> None:
        self.games = games
        self.store = games.store
        self.model = PlackettLuce()
        self._done: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="ludus-ratings")

    # -- a game's end ----------------------------------------------------------------------------------
    def on_change(self, rt: Runtime) -> None:
        """Service listener (under the game's lock, maybe on the event loop): a game just over is settled
        in the ratings' thread, never here."""
        if rt.state is None or not rt.state.is_terminal():
            return
        with self._lock:
            if rt.id in self._done:
                return
        self._pool.submit(self._settle_logged, rt.id)

    def _settle_logged(self, game_id: str) -> None:
        try:
            self.settle(game_id)
        except Exception:
            log.exception("rating game %s failed", game_id)
            return
        with self._lock:
            self._done[game_id] = None
            while len(self._done) > DONE_KEPT:
                self._done.popitem(last=False)

    def settle(self, game_id: str) -> bool:
        """Move the ratings of the accounts of rated game ``game_id``, once it is over; whether this call
        did (False: not over, not rated, or settled already, here or by another process)."""
        rt = self.games.read(game_id)
        with rt.lock:
            if not rt.state.is_terminal():
                return False
            game = rt.row.game
            placed = places(rt.state.returns(), {s.seat for s in rt.seats if s.left_to is not None})
            players = [(s.account_id, placed[s.seat]) for s in rt.seats if s.account_id is not None]
        now = time.time()

        def work(conn: Connection) -> bool:
            if not db.claim_settlement(conn, game_id, now):
                return False
            if len(players) > 1:
                self._rate(conn, game, game_id, players, len(placed), now)
            return True

        return self.store.transact(work)

    def _rate(
        self,
        conn: Connection,
        game: str,
        game_id: str,
        players: list[tuple[int, int]],
        seats: int,
        now: float,
    ) -> None:
        ids = [account_id for account_id, _ in players]
        before = db.lock_ratings(conn, game, ids)
        teams = [
            [
                self.model.rating()
                if i not in before
                else self.model.rating(mu=before[i].mu, sigma=before[i].sigma)
            ]
            for i in ids
        ]
        after = self.model.rate(teams, ranks=[float(place) for _, place in players])
        for (account_id, place), (rating,) in zip(players, after, strict=True):
            old = before.get(account_id)
            new = db.Rating(rating.mu, rating.sigma, 1 + (old.games if old else 0))
            ordinal = rating.ordinal()
            db.save_rating(conn, account_id, game, new, ordinal, old is not None)
            db.add_history(
                conn,
                account_id=account_id,
                game=game,
                game_id=game_id,
                at=now,
                place=place,
                players=seats,
                mu=rating.mu,
                sigma=rating.sigma,
                ordinal=ordinal,
            )

    def settle_pending(self) -> None:
        """Settle the rated games that ended while no server was there to (blocking: at start)."""
        with self.store.read() as conn:
            pending = db.unsettled_over(conn)
        for game_id in pending:
            self._pool.submit(self._settle_logged, game_id)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    # -- what pages show ---------------------------------------------------------------------------------
    def leaderboard(self, game: str, limit: int, offset: int) -> list[dict[str, Any]]:
        if game not in ludus.game_names():
            raise NotFound(f"no game {game[:40]!r}; known games: {', '.join(ludus.game_names())}")
        with self.store.read() as conn:
            rows = db.leaderboard(conn, game, limit, offset)
        return [
            {"name": r.name, "rating": shown(r.ordinal), "games": r.games, "mu": r.mu, "sigma": r.sigma}
            for r in rows
        ]

    def table(self, game_id: str) -> dict[str, Any]:
        """Whether the game is rated (and then whether its host may start it with bots: only where the
        server rates games with bots), and the ratings in its game of the accounts at its seats."""
        rt = self.games.read(game_id)
        with rt.lock:
            game = rt.row.game
            held = {s.seat: s.account_id for s in rt.seats if s.account_id is not None}
        with self.store.read() as conn:
            rated = db.is_rated(conn, game_id)
            found = db.ratings_of(conn, game, list(held.values()))
        return {
            "rated": rated,
            "bots_allowed": not rated or self.games.settings.rated_bots_allowed,
            "seats": [
                {"seat": seat, "rating": shown(found[a].ordinal), "games": found[a].games}
                for seat, a in held.items()
                if a in found
            ],
        }

    def player(self, name: str) -> dict[str, Any]:
        """A player's ratings, rated results (oldest first) and newest games, each with its result."""
        with self.store.read() as conn:
            account = account_by_key(conn, name_key(name))
            if account is None:
                raise NotFound(f"no player {name[:40]!r}")
            ratings = db.account_ratings(conn, account.id)
            history = db.account_history(conn, account.id, HISTORY_SHOWN)
            games = db.account_games(conn, account.id, GAMES_SHOWN)
        rated = {h.game_id: h for h in history}
        return {
            "name": account.name,
            "ratings": [{"game": r.game, "rating": shown(r.ordinal), "games": r.games} for r in ratings],
            "history": [
                {
                    "game": h.game,
                    "game_id": h.game_id,
                    "at": h.at,
                    "place": h.place,
                    "players": h.players,
                    "rating": shown(h.ordinal),
                }
                for h in history
            ],
            "games": [self._result(g, rated.get(g.id)) for g in games],
        }

    def _result(self, g: Any, rated: Any) -> dict[str, Any]:
        """One game of a player's page: its place once over (from its rating when rated)."""
        place, players = (rated.place, rated.players) if rated is not None else self._place(g)
        return {
            "id": g.id,
            "game": g.game,
            "status": g.status,
            "created_at": g.created_at,
            "updated_at": g.updated_at,
            "seat": g.seat,
            "left": g.left_to is not None,
            "rated": rated is not None,
            "place": place,
            "players": players,
        }

    def _place(self, g: Any) -> tuple[int | None, int | None]:
        if g.status != "over":
            return None, None
        try:
            rt = self.games.read(g.id)
            with rt.lock:
                left = {s.seat for s in rt.seats if s.left_to is not None}
                placed = places(rt.state.returns(), left)
        except Exception:  # a game no longer installed, say: its result is not known here
            log.warning("no result for game %s", g.id, exc_info=True)
            return None, None
        return placed[g.seat], len(placed)
