"""The games being played: every rule of the API, independent of HTTP.

A game in memory (``Runtime``) is a cache of what the database holds: before each use it
is checked against the game row's ``version`` (actions, undos) and ``meta_version`` (joins,
leaves), and brought up to date if another process changed it. Every change is one
database transaction that holds the game row's write lock and is committed before the
caller is answered; the cache changes only after the commit, so an error changes nothing.
Methods are blocking: the app calls them in worker threads.
"""

from __future__ import annotations

import logging
import random
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

import ludus
from ludus.engine import IllegalActionError, OptionError, State

from .errors import Conflict, Forbidden, NotFound, Unauthorized, Unprocessable
from .hints import hints_option
from .limits import ServerLimits, TooManyRequests
from .schemas import display_name
from .seatbots import DEFAULT_SECONDS, bot_names, canonical_kind, make_seat_bot, seat_bot, standin_name
from .security import hash_token, new_game_id, new_token, token_matches
from .storage import GameRow, SeatRow, Store
from .views import seat_view, turn_deadline

log = logging.getLogger("ludus.server")

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
MAX_SEQUENCE = 8  # actions one request may play, all or nothing (an optional step skipped, then the move)
MAX_FORCED = 10_000  # single-choice steps played in a row before the server gives up (a game must move on)
MAX_TURN_SECONDS = 7 * 24 * 3600
SERVER_OPTIONS = ("turn_seconds", "hints")
CACHE_SIZE = 2000


@dataclass
class Runtime:
    """One game in memory: its row, seats, current state and who made each action."""

    id: str
    lock: threading.RLock = field(default_factory=threading.RLock)
    row: GameRow | None = None
    seats: list[SeatRow] = field(default_factory=list)
    state: State | None = None
    version: int = -1
    owners: list[int] = field(default_factory=list)
    forced: list[bool] = field(default_factory=list)  # per ply: it was the only legal action (played for the seat)
    log_details: Any = None  # views.log_details' cache: (a state at the end of the list, the list)
    idle_seat: int | None = None  # a human seat whose turn timer ran out: a bot plays its turn
    bots: dict[tuple[int, str], Any] = field(default_factory=dict)
    published: tuple[int, int] = (-1, -1)
    timeouts: dict[int, str] = field(default_factory=dict)  # ply -> stand-in that played it (turn timer)
    views: dict[int | None, str] = field(default_factory=dict)  # JSON texts made at ``views_key``
    views_key: tuple[int, int, int] = (-1, -1, -1)

    @property
    def abandoned(self) -> bool:
        return self.row is not None and self.row.status == "abandoned"

    def public_options(self) -> dict[str, Any]:
        options = dict(self.row.config)
        if self.row.turn_seconds is not None:
            options["turn_seconds"] = self.row.turn_seconds
        if self.row.hints is not None:
            options["hints"] = self.row.hints
        return options

    def record(self) -> dict[str, Any]:
        return {"game": self.row.game, "config": dict(self.row.config), "seed": self.row.seed,
                "actions": self.state.history()}


def view_text(rt: Runtime, seat: int | None) -> str:
    """``seat_view`` as JSON text (without ``server_time``), made once per seat and change of the
    game (caller holds ``rt.lock``).

    Several readers see the same state (the seat that moved, every WebSocket of the seat, polling
    clients). Kept as text, not as a dictionary: a thousand games' cached views as dictionaries were
    hundreds of thousands of young objects that every garbage collection of the younger generations
    walked (pauses of 100-300 ms under load); a string is one object the collector never visits.
    """
    key = (rt.version, rt.row.meta_version, len(rt.timeouts))
    if rt.views_key != key:
        rt.views, rt.views_key = {}, key
    text = rt.views.get(seat)
    if text is None:
        text = rt.views[seat] = orjson.dumps(seat_view(rt, seat), option=orjson.OPT_NON_STR_KEYS).decode()
    return text


def timed_view_text(rt: Runtime, seat: int | None) -> str:
    """``view_text`` with the current ``server_time`` (what a client receives)."""
    text = view_text(rt, seat)
    stamp = f'{{"server_time":{time.time()!r}'
    return stamp + "}" if text == "{}" else f"{stamp},{text[1:]}"


def view_of(rt: Runtime, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` with ``server_time``: a fresh dictionary the caller may change."""
    return orjson.loads(timed_view_text(rt, seat))  # type: ignore[no-any-return]


def advance(state: State, texts: list[str]) -> list[bool]:
    """Apply ``texts`` to ``state``; for each, whether it was the only legal action then.

    The server plays every single-choice decision itself, so "only choice" is exactly "played
    for the seat": a fact of the record, found again whenever the game is loaded.
    """
    forced = []
    for text in texts:
        forced.append(len(state.legal_actions()) == 1)
        state.apply_action(text)
    return forced


def play_forced(state: State) -> list[tuple[int, str]]:
    """Play every decision that has exactly one legal action, whoever's it is: (seat, notation) each.

    Nobody is ever asked a question with one answer; the steps are ordinary actions of the record.
    """
    out: list[tuple[int, str]] = []
    while not state.is_terminal() and len(out) < MAX_FORCED:
        legal = state.legal_actions()
        if len(legal) != 1:
            break
        seat = state.current_player()
        state.apply_action(legal[0])
        out.append((seat, state.history()[-1]))
    return out


@dataclass
class BotJob:
    """A bot's turn to think: a private copy of the state, and the version it must still match."""

    game_id: str
    seat: int
    version: int
    state: State
    bot: Any
    bot_name: str
    seconds: float = DEFAULT_SECONDS  # its time budget for this move (capped by the server)
    timed_out: bool = False  # a stand-in playing the turn of a seat whose turn timer ran out


@dataclass
class TurnClock:
    """A human seat to move in a game with a turn timer, and when its time runs out.

    ``deadline`` (epoch seconds) is the stored start of the turn plus ``turn_seconds``, so a
    timer started again after a restart runs out when the first one would have.
    """

    game_id: str
    seat: int
    version: int
    deadline: float


class GameService:
    def __init__(self, store: Store, bot_seconds: float = DEFAULT_SECONDS,
                 limits: ServerLimits | None = None) -> None:
        self.store = store
        self.limits = limits or ServerLimits()
        self.bot_seconds = min(bot_seconds, self.limits.bot_max_seconds)
        self.instance = secrets.token_hex(6)
        self._runtimes: OrderedDict[str, Runtime] = OrderedDict()
        self._registry_lock = threading.Lock()
        self.listeners: list[Callable[[Runtime], None]] = []

    # -- the cache ---------------------------------------------------------------
    def _get(self, game_id: str) -> Runtime:
        if not isinstance(game_id, str) or not GAME_ID.match(game_id):
            raise NotFound(f"no game {game_id!r}")
        with self._registry_lock:
            rt = self._runtimes.get(game_id)
            if rt is None:
                rt = self._runtimes[game_id] = Runtime(game_id)
                self._evict()
            self._runtimes.move_to_end(game_id)
            return rt

    def _evict(self) -> None:
        for key in list(self._runtimes)[: max(0, len(self._runtimes) - CACHE_SIZE)]:
            rt = self._runtimes[key]
            if rt.lock.acquire(blocking=False):
                try:
                    del self._runtimes[key]
                finally:
                    rt.lock.release()

    def _forget(self, game_id: str) -> None:
        with self._registry_lock:
            rt = self._runtimes.get(game_id)
            if rt is not None and rt.row is None:
                del self._runtimes[game_id]

    def _sync(self, rt: Runtime, conn: Any, row: GameRow | None) -> None:
        """Bring ``rt`` up to what the database holds (caller holds ``rt.lock``)."""
        if row is None:
            self._forget(rt.id)
            raise NotFound(f"no game {rt.id!r}")
        if rt.row is None or rt.row.meta_version != row.meta_version:
            rt.seats = self.store.seats(conn, rt.id)
        if rt.state is not None and rt.version != row.version and (
            row.version - rt.version == row.num_actions - len(rt.owners) > 0
        ):
            # Only appends since our version (an undo changes the version but not by as many
            # actions): apply just the new actions.
            added = self.store.actions(conn, rt.id, start=len(rt.owners))
            state = rt.state.clone()
            forced = advance(state, [text for _, text in added])
            rt.state = state
            rt.owners = rt.owners + [seat for seat, _ in added]
            rt.forced = rt.forced + forced
            rt.version = row.version
            if row.turn_seconds is not None:
                rt.timeouts = self.store.timed_out_plies(conn, rt.id)
        if rt.state is None or rt.version != row.version:
            stored = self.store.actions(conn, rt.id)
            texts = [a for _, a in stored]
            state = rt.state
            if state is None or state.history() != texts[: len(state.history())]:
                game = ludus.load_game(row.game, **row.config)
                state = game.new_initial_state(seed=row.seed)
            else:
                state = state.clone()
            kept = len(state.history())
            forced = rt.forced[:kept] + advance(state, texts[kept:])
            rt.state = state
            rt.owners = [seat for seat, _ in stored]
            rt.forced = forced
            rt.version = row.version
            rt.timeouts = self.store.timed_out_plies(conn, rt.id) if row.turn_seconds is not None else {}
        rt.row = row

    def _read(self, game_id: str) -> Runtime:
        """The runtime, synced (caller must then take ``rt.lock`` to read it consistently)."""
        rt = self._get(game_id)
        with rt.lock:
            if rt.state is not None and rt.row is not None:
                versions = self.store.versions(game_id)
                if versions == (rt.version, rt.row.meta_version):
                    return rt  # the cache is current: no transaction needed
            with self.store.read() as conn:
                self._sync(rt, conn, self.store.game(conn, game_id))
        return rt

    def _changed(self, rt: Runtime) -> None:
        """Tell the listeners (WebSocket hub, bot driver); called after commit under ``rt.lock``."""
        for listener in self.listeners:
            try:
                listener(rt)
            except Exception:  # a listener's failure must not undo a committed change
                log.exception("change listener failed for game %s", rt.id)

    # -- seats and tokens ----------------------------------------------------------------
    def _seat_of(self, rt: Runtime, token: str | None) -> int:
        if token is None:
            raise Unauthorized("this needs a seat token: send 'Authorization: Bearer <token>'")
        found = None
        for s in rt.seats:
            if token_matches(token, s.token_hash):
                found = s.seat  # no early exit: every seat is compared
        if found is None:
            raise Unauthorized("the token does not belong to any seat of this game")
        return found

    def _mover(self, rt: Runtime, token: str | None) -> int:
        seat = self._seat_of(rt, token)
        if rt.seats[seat].left_to is not None:
            raise Forbidden(f"seat {seat} left this game; {rt.seats[seat].left_to} plays it now")
        if rt.state.is_terminal():
            raise Forbidden("the game is over")
        self._not_abandoned(rt)
        current = rt.state.current_player()
        if current != seat:
            raise Forbidden(f"it is not seat {seat}'s turn: seat {current} is to move")
        return seat

    def _not_abandoned(self, rt: Runtime) -> None:
        if rt.abandoned:
            raise Forbidden(f"this game was abandoned: nobody moved in it for {self.limits.expire_days:g} days")

    # -- creating and joining -------------------------------------------------------------
    def create(self, game: str, options: dict[str, Any], seat_kinds: list[str],
               claim: list[int] | None = None, names: list[str | None] | None = None) -> dict[str, Any]:
        if game not in ludus.game_names():
            raise Unprocessable(f"unknown game {game!r}; known games: {', '.join(ludus.game_names())}")
        options = dict(options)
        hints = hints_option(options)
        turn_seconds = options.pop("turn_seconds", None)
        if turn_seconds is not None and (
            not isinstance(turn_seconds, int | float) or isinstance(turn_seconds, bool)
            or not 0 < turn_seconds <= MAX_TURN_SECONDS  # range first: 10**400 is no float
        ):
            raise Unprocessable(f"turn_seconds must be a number of seconds in (0, {MAX_TURN_SECONDS}]")
        if turn_seconds is not None and turn_seconds < self.limits.min_turn_seconds:
            raise Unprocessable(f"turn_seconds must be at least {self.limits.min_turn_seconds:g} on this server")
        seat_kinds = list(seat_kinds)
        for i, kind in enumerate(seat_kinds):
            try:
                seat_kinds[i] = canonical_kind(kind)  # stored canonically, never as sent
            except ValueError as exc:
                raise Unprocessable(
                    f"seat {i}: {kind[:40]!r} is neither 'human' nor a bot ({exc}); bots: {', '.join(bot_names())}"
                ) from None
        try:
            game_class = ludus.engine.registry.game_class(game)
            if "players" in {o.name for o in game_class.options} and "players" not in options:
                options["players"] = len(seat_kinds)
            loaded = ludus.load_game(game, **options)
        except OptionError as exc:
            raise Unprocessable(str(exc)) from None
        except TypeError as exc:
            raise Unprocessable(f"bad options for {game}: {exc}") from None
        if loaded.num_players != len(seat_kinds):
            raise Unprocessable(
                f"this {game} configuration has {loaded.num_players} seats, but {len(seat_kinds)} were given"
            )
        humans = [i for i, kind in enumerate(seat_kinds) if kind == "human"]
        if claim is None:
            claim = humans
        for i in claim:
            if i not in humans:
                raise Unprocessable(f"claim: seat {i} is not a human seat")
        names = _seat_names(names, seat_kinds)
        if any(kind != "human" for kind in seat_kinds):
            with self.store.read() as conn:
                playing = self.store.count_bot_games(conn)
            if playing >= self.limits.max_bot_games:
                raise TooManyRequests(f"this server already runs {playing} unfinished games with bots (its "
                                      f"limit): try again later, or play with human seats", retry_after=60)
        tokens = {i: new_token() for i in claim}
        seed = secrets.randbits(63)
        state = loaded.new_initial_state(seed=seed)
        row = GameRow(new_game_id(), game, dict(loaded.config), seed, turn_seconds, 0, 0, 0,
                      "over" if state.is_terminal() else "playing", hints=hints)
        seat_rows = [
            SeatRow(i, kind, hash_token(tokens[i]) if i in tokens else None, i in tokens, None, names[i])
            for i, kind in enumerate(seat_kinds)
        ]
        rt = self._get(row.id)
        with rt.lock:
            rt.row, rt.seats, rt.state, rt.version, rt.owners, rt.forced = row, seat_rows, state, 0, [], []
            moves = play_forced(state)  # a single-choice start is played before anyone sees it

            def work(conn: Any) -> float:
                at = self.store.insert_game(conn, row, seat_rows)
                return self._commit_moves(rt, conn, row, moves, state) if moves else at

            row.turn_started = self.store.transact(work)
            if moves:
                self._adopt(rt, row, moves, [True] * len(moves), state, row.turn_started)
            self._changed(rt)
        return {
            "id": row.id,
            "game": game,
            "options": rt.public_options(),
            "seats": [
                {"seat": i, "kind": kind, "name": names[i], **({"token": tokens[i]} if i in tokens else {})}
                for i, kind in enumerate(seat_kinds)
            ],
        }

    def join(self, game_id: str, name: str | None = None) -> dict[str, Any]:
        try:
            name = display_name(name)
        except ValueError as exc:
            raise Unprocessable(f"name: {exc}") from None
        rt = self._get(game_id)
        with rt.lock:

            def work(conn: Any) -> tuple[int, str]:
                row = self.store.lock_game(conn, game_id)
                self._sync(rt, conn, row)
                if rt.state.is_terminal():
                    raise Conflict("the game is over")
                if rt.abandoned:
                    raise Conflict("this game was abandoned")
                free = [s for s in rt.seats if s.free]
                if not free:
                    raise Conflict("no free seat in this game")
                seat, token = free[0].seat, new_token()
                meta = row.meta_version + 1
                self.store.update_seat(conn, game_id, seat, meta, claimed=True, token_hash=hash_token(token),
                                       name=name)
                self.store.notify(conn, self._payload(game_id, row.version, meta))
                return seat, token

            seat, token = self.store.transact(work)
            self._sync_after(rt)
            return {"id": game_id, "seat": seat, "token": token}

    def _sync_after(self, rt: Runtime) -> None:
        """Reload seats after a committed seat change, then tell listeners."""
        with self.store.read() as conn:
            self._sync(rt, conn, self.store.game(conn, rt.id))
        self._changed(rt)

    def open_games(self, limit: int | None = None, offset: int = 0) -> list[dict[str, Any]]:
        """One page of joinable games, newest first (idle ones about to expire are left out)."""
        limit = self.limits.lobby_page if limit is None else limit
        if not 1 <= limit <= self.limits.lobby_page or not 0 <= offset <= 1_000_000:
            raise Unprocessable(f"limit must be from 1 to {self.limits.lobby_page}, offset from 0 to 1000000")
        with self.store.read() as conn:
            found = self.store.open_games(conn, limit, offset, idle_since=time.time() - self._expiry_seconds())
        out = []
        for row, seat_rows in found:
            options = dict(row.config)
            if row.turn_seconds is not None:
                options["turn_seconds"] = row.turn_seconds
            if row.hints is not None:
                options["hints"] = row.hints
            out.append({
                "id": row.id, "game": row.game, "options": options,
                "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name, "free": s.free, "bot": s.bot}
                          for s in seat_rows],
                "free_seats": sum(s.free for s in seat_rows),
            })
        return out

    # -- viewing ------------------------------------------------------------------------------
    def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        rt = self._read(game_id)
        with rt.lock:
            seat = None if token is None else self._seat_of(rt, token)
            return view_of(rt, seat)

    def view_now(self, game_id: str, token: str | None) -> dict[str, Any] | None:
        """The view, made at once on the calling thread (the event loop) when that needs no waiting:
        SQLite, the game cached and current, its lock free. None: ask ``view`` in a worker thread.

        Most views are of a game that has not changed since it was last shown; a hop to a
        worker thread cost more than making the view.
        """
        if not self.store.is_sqlite:
            return None
        rt = self._runtimes.get(game_id) if isinstance(game_id, str) else None
        if rt is None or rt.state is None or rt.row is None or not rt.lock.acquire(blocking=False):
            return None
        try:
            try:
                versions = self.store.versions(game_id, wait=False)
            except Exception:  # busy, or anything else: the worker thread's path answers
                return None
            if versions != (rt.version, rt.row.meta_version):
                return None
            seat = None if token is None else self._seat_of(rt, token)
            return view_of(rt, seat)
        finally:
            rt.lock.release()

    def seat_for(self, game_id: str, token: str | None) -> int | None:
        """The seat a token opens (None for no token); raises if the game or token is unknown."""
        return self.view_and_seat(game_id, token)[0]

    def view_and_seat(self, game_id: str, token: str | None) -> tuple[int | None, dict[str, Any]]:
        rt = self._read(game_id)
        with rt.lock:
            seat = None if token is None else self._seat_of(rt, token)
            return seat, view_of(rt, seat)

    def record(self, game_id: str) -> dict[str, Any]:
        rt = self._read(game_id)
        with rt.lock:
            if not rt.state.is_terminal() and not rt.abandoned:
                raise Forbidden("the record (with its seed) is shown only once the game is over")
            return rt.record()

    # -- changing -----------------------------------------------------------------------
    def _payload(self, game_id: str, version: int, meta: int) -> str:
        return f"{game_id} {version} {meta} {self.instance}"

    def _commit_moves(self, rt: Runtime, conn: Any, row: GameRow, moves: list[tuple[int, str]], new: State,
                      timed_out_to: str | None = None) -> float:
        """Store the actions that led to ``new`` (one version each; ``timed_out_to`` marks the first);
        returns the time of the last."""
        at = 0.0
        for i, (seat, text) in enumerate(moves):
            version = row.version + 1 + i
            last = i == len(moves) - 1
            status = "over" if last and new.is_terminal() else "playing"
            at = self.store.append_action(conn, rt.id, len(rt.owners) + i, seat, text, version, status,
                                          timed_out_to if i == 0 else None)
        self.store.notify(conn, self._payload(rt.id, row.version + len(moves), row.meta_version))
        return at

    def _adopt(self, rt: Runtime, row: GameRow, moves: list[tuple[int, str]], forced: list[bool], new: State,
               at: float) -> None:
        """The cache follows committed actions (the last stored at ``at``)."""
        rt.state = new
        rt.owners = [*rt.owners, *(seat for seat, _ in moves)]
        rt.forced = [*rt.forced, *forced]
        rt.version = row.version + len(moves)
        rt.row = GameRow(row.id, row.game, row.config, row.seed, row.turn_seconds, rt.version,
                         row.meta_version, len(rt.owners), "over" if new.is_terminal() else "playing", at,
                         row.hints)

    def act(self, game_id: str, token: str | None, action: str, version: int | None,
            then: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
        """Play ``action`` and then each of ``then``, all or nothing, each checked when its turn comes.

        The seat must stay to move through the sequence. Every single-choice step after each of
        them is played for its seat (and marked so in the log), so a sequence names only decisions.
        """
        sequence = [action, *then]
        if len(sequence) > MAX_SEQUENCE:
            raise Unprocessable(f"at most {MAX_SEQUENCE} actions at once, got {len(sequence)}")
        rt = self._get(game_id)
        with rt.lock:

            def work(conn: Any) -> tuple[GameRow, int, State, list[tuple[int, str]], list[bool], float]:
                row = self.store.lock_game(conn, game_id)
                self._sync(rt, conn, row)
                seat = self._mover(rt, token)
                if version != rt.version:
                    raise Conflict(f"stale version {version}: the game is at version {rt.version}")
                new = rt.state.clone()
                moves: list[tuple[int, str]] = []
                forced: list[bool] = []
                for i, text in enumerate(sequence):
                    where = f"action {i + 1} of {len(sequence)} ({str(text)[:40]!r}): " if len(sequence) > 1 else ""
                    if new.is_terminal() or new.current_player() != seat:
                        raise Unprocessable(f"{where}seat {seat} is no longer to move; nothing was played")
                    try:
                        new.apply_action(text)
                    except IllegalActionError as exc:
                        raise Unprocessable(f"{where}{exc}" + ("; nothing was played" if i else "")) from None
                    moves.append((seat, new.history()[-1]))
                    auto = play_forced(new)
                    moves += auto
                    forced += [False] + [True] * len(auto)
                return row, seat, new, moves, forced, self._commit_moves(rt, conn, row, moves, new)

            row, seat, new, moves, forced, at = self.store.transact(work)
            self._adopt(rt, row, moves, forced, new, at)
            if rt.idle_seat == seat:
                rt.idle_seat = None
            self._changed(rt)
            return view_of(rt, seat)

    def undo(self, game_id: str, token: str | None, version: int | None) -> dict[str, Any]:
        rt = self._get(game_id)
        with rt.lock:

            def work(conn: Any) -> tuple[GameRow, int, int, State, float]:
                row = self.store.lock_game(conn, game_id)
                self._sync(rt, conn, row)
                seat = self._mover(rt, token)
                if version is not None and version != rt.version:
                    raise Conflict(f"stale version {version}: the game is at version {rt.version}")
                keep, why = self._undo_point(rt, seat)
                if why:
                    raise Unprocessable(f"nothing to undo: {why}")
                previous = ludus.replay(rt.record(), upto=keep)
                at = self.store.truncate_actions(conn, game_id, keep, row.version + 1)
                self.store.notify(conn, self._payload(game_id, row.version + 1, row.meta_version))
                return row, seat, keep, previous, at

            row, seat, keep, previous, at = self.store.transact(work)
            rt.state = previous
            rt.owners = rt.owners[:keep]
            rt.forced = rt.forced[:keep]
            rt.version = row.version + 1
            rt.row = GameRow(row.id, row.game, row.config, row.seed, row.turn_seconds, rt.version,
                             row.meta_version, keep, "playing", at, row.hints)  # an undo starts the turn again
            self._changed(rt)
            return view_of(rt, seat)

    def _undo_point(self, rt: Runtime, seat: int) -> tuple[int, str | None]:
        """How many actions stay when the seat takes back its last decision, or why it may not.

        The last decision is the seat's last action that was not played for it: the single-choice
        steps after it go with it (left in place, the server would only play them again), and so
        do the optional steps the seat skipped by making that move (``skips``), back to the
        decision the seat was last shown. The engine decides how far back anything may go
        (``undo_barrier()``): only the seat's own decisions since its turn began or something
        was last shown. The answer depends on the actions alone, so asking again never gives another.
        """
        from .views import skipped_plies

        owners, forced = rt.owners, rt.forced
        keep = len(owners)
        while keep and owners[keep - 1] == seat and forced[keep - 1]:
            keep -= 1
        if keep == 0 or owners[keep - 1] != seat:
            return keep, "the last decision is not this seat's own"
        keep -= 1  # the decision itself
        barrier = rt.state.undo_barrier()
        if barrier > keep:
            return keep, "the turn's earlier decisions are settled (new information was revealed or the turn began)"
        skips = skipped_plies(rt, barrier, keep)
        while keep > barrier and owners[keep - 1] == seat and (forced[keep - 1] or keep - 1 in skips):
            keep -= 1
        return keep, None

    def leave(self, game_id: str, token: str | None) -> dict[str, Any]:
        rt = self._get(game_id)
        with rt.lock:

            def work(conn: Any) -> tuple[int, str]:
                row = self.store.lock_game(conn, game_id)
                self._sync(rt, conn, row)
                seat = self._seat_of(rt, token)
                if rt.seats[seat].left_to is not None:
                    raise Forbidden(f"seat {seat} has already left")
                if rt.state.is_terminal():
                    raise Forbidden("the game is over")
                self._not_abandoned(rt)
                bot = standin_name()
                meta = row.meta_version + 1
                self.store.update_seat(conn, game_id, seat, meta, left_to=bot)
                self.store.notify(conn, self._payload(game_id, row.version, meta))
                return seat, bot

            seat, bot = self.store.transact(work)
            self._sync_after(rt)
            return {"id": game_id, "seat": seat, "bot": bot}

    # -- bots and turn timers ---------------------------------------------------------------
    def next_job(self, game_id: str) -> BotJob | TurnClock | None:
        """What happens next without a human: a bot's move, a turn timer to start, or nothing."""
        rt = self._read(game_id)
        with rt.lock:
            state = rt.state
            if state.is_terminal() or rt.abandoned:
                return None
            seat = state.current_player()
            if rt.idle_seat is not None and rt.idle_seat != seat:
                rt.idle_seat = None
            name = rt.seats[seat].bot
            timed_out = name is None and rt.idle_seat == seat
            if timed_out:
                name = standin_name()
            if name is None:
                deadline = turn_deadline(rt)
                return None if deadline is None else TurnClock(game_id, seat, rt.version, deadline)
            bot_name, seconds = seat_bot(name, self.bot_seconds)
            seconds = min(seconds, self.limits.bot_max_seconds)  # the server's cap on a bot's time a move
            bot = rt.bots.get((seat, name))
            if bot is None:
                bot = rt.bots[(seat, name)] = make_seat_bot(bot_name, seconds)
            return BotJob(game_id, seat, rt.version, state.clone(), bot, name, seconds, timed_out)

    def time_out(self, clock: TurnClock) -> bool:
        """The turn timer ran out: if nothing moved since, a bot plays the seat's turn."""
        rt = self._read(clock.game_id)
        with rt.lock:
            if rt.version != clock.version or rt.state.current_player() != clock.seat:
                return False
            rt.idle_seat = clock.seat
            log.info("game %s: seat %d's turn timer ran out; a stand-in bot plays its turn", rt.id, clock.seat)
            return True

    def commit_bot(self, job: BotJob, action: Any) -> bool:
        """Commit a bot's move unless the game moved on meanwhile (then it is dropped)."""
        rt = self._get(job.game_id)
        with rt.lock:

            def work(conn: Any) -> tuple[GameRow, State, list[tuple[int, str]], list[bool], float] | None:
                row = self.store.lock_game(conn, job.game_id)
                self._sync(rt, conn, row)
                if rt.version != job.version or rt.state.current_player() != job.seat:
                    return None
                new = rt.state.clone()
                only = len(new.legal_actions()) == 1
                try:
                    new.apply_action(action)
                except IllegalActionError:
                    log.error("bot %s chose an illegal action %s in game %s", job.bot_name, action, job.game_id)
                    new.apply_action(random.choice(new.legal_actions()))
                auto = play_forced(new)
                moves = [(job.seat, new.history()[-len(auto) - 1]), *auto]
                forced = [only] + [True] * len(auto)
                return row, new, moves, forced, self._commit_moves(rt, conn, row, moves, new,
                                                                   job.bot_name if job.timed_out else None)

            done = self.store.transact(work)
            if done is None:
                return False
            row, new, moves, forced, at = done
            if job.timed_out:
                rt.timeouts = {**rt.timeouts, len(rt.owners): job.bot_name}
            self._adopt(rt, row, moves, forced, new, at)
            self._changed(rt)
            return True

    def refresh(self, game_id: str) -> None:
        """Another process changed this game: catch up and tell local listeners."""
        rt = self._read(game_id)
        with rt.lock:
            self._changed(rt)

    def resumable_ids(self) -> list[str]:
        """Unfinished games with bots or a turn timer: the ones to resume at start-up (others wait
        for their first request)."""
        with self.store.read() as conn:
            return self.store.resumable_ids(conn)

    def _expiry_seconds(self) -> float:
        return self.limits.expire_days * 86400

    def expire_idle(self, now: float | None = None) -> list[str]:
        """Mark unfinished games idle longer than ``expire_days`` abandoned; returns their ids."""
        before = (time.time() if now is None else now) - self._expiry_seconds()
        expired = self.store.transact(lambda conn: self.store.expire_idle(conn, before))
        if expired:
            log.info("%d idle games marked abandoned", len(expired))
        return expired


def _seat_names(names: list[str | None] | None, seat_kinds: list[str]) -> list[str | None]:
    """The display name of each seat (``schemas.display_name``); only a human seat takes one."""
    if names is None:
        return [None] * len(seat_kinds)
    if len(names) != len(seat_kinds):
        raise Unprocessable(f"names: give one per seat ({len(seat_kinds)}), not {len(names)}")
    out = []
    for i, (name, kind) in enumerate(zip(names, seat_kinds, strict=True)):
        try:
            name = display_name(name)
        except ValueError as exc:
            raise Unprocessable(f"names: seat {i}: {exc}") from None
        if name is not None and kind != "human":
            raise Unprocessable(f"names: seat {i} is a bot ({kind}); only a person's seat takes a name")
        out.append(name)
    return out
