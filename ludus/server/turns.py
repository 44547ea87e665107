"""The moves nobody sends: what a game needs next without a person (a bot's turn, a turn timer), a turn
timer running out, and a bot's move committed. The bot driver (``automation``) calls these in worker
threads; the thinking itself is the bots' worker processes' (``botpool``)."""

from __future__ import annotations

import logging
import random
import secrets
from typing import Any

from ludus.engine import IllegalActionError, State

from .game_cache import GameCache
from .runtime import Before, BotJob, Details, TurnClock, play_forced
from .seatbots import decision_seed, seat_bot
from .storage import GameRow
from .table_state import table_of, waiting
from .views import turn_deadline

log = logging.getLogger("ludus.server")


class BotTurns:
    """The service's part that plays for bots and for seats whose turn timer ran out."""

    def __init__(self, games: GameCache) -> None:
        self.games = games
        self.settings = games.settings

    def next_job(self, game_id: str) -> BotJob | TurnClock | None:
        """What happens next without a human: a bot's move, a turn timer to start, or nothing."""
        rt = self.games.read(game_id)
        with rt.lock:
            state = rt.state
            if state.is_terminal() or rt.abandoned or waiting(rt):
                return None  # a waiting table: nobody moves, no timer runs
            seat = state.current_player()
            if rt.idle_seat is not None and rt.idle_seat != seat:
                rt.idle_seat = None
            name = rt.seats[seat].bot
            timed_out = name is None and rt.idle_seat == seat
            if timed_out:
                name = self.settings.standin_bot
            if name is None:
                deadline = turn_deadline(rt)
                return None if deadline is None else TurnClock(game_id, seat, rt.version, deadline)
            bot_name, seconds = seat_bot(name, self.settings.bot_seconds)
            seconds = min(seconds, self.settings.bot_max_seconds)  # the server's cap on a bot's time a move
            seed = rt.bot_seeds.get((seat, name))
            if seed is None:  # drawn once per seat: a decision thought about again is drawn the same way
                seed = rt.bot_seeds[(seat, name)] = secrets.randbits(32)
            return BotJob(
                game_id,
                seat,
                rt.version,
                state.clone(),
                name,
                bot_name,
                seconds,
                decision_seed(seed, rt.version),
                rt.row.host,
                timed_out,
            )

    def time_out(self, clock: TurnClock) -> bool:
        """The turn timer ran out: if nothing moved since, a bot plays the seat's turn (unless the
        table's rule leaves it to the others: ``routes_tables``' hand-over)."""
        rt = self.games.read(clock.game_id)
        with rt.lock:
            if rt.version != clock.version or rt.state.current_player() != clock.seat:
                return False
            table = table_of(rt)
            if table is not None and table.on_timeout == "others":
                return False
            rt.idle_seat = clock.seat
            log.info(
                "game %s: seat %d's turn timer ran out; a stand-in bot plays its turn", rt.id, clock.seat
            )
            return True

    def commit_bot(self, job: BotJob, action: Any) -> bool:
        """Commit a bot's move unless the game moved on meanwhile (then it is dropped)."""
        games = self.games
        rt = games.get(job.game_id)
        with rt.lock:

            def work(
                conn: Any,
            ) -> tuple[GameRow, State, list[tuple[int, str]], list[bool], float, Details] | None:
                games.sync_locked(rt, conn)
                if rt.version != job.version or rt.state.current_player() != job.seat:
                    return None
                details = Details(rt.state)
                new, moves, forced = _bot_played(rt.state, job, action, details.before)
                timed_out_to = job.bot_name if job.timed_out else None
                at = games.commit_moves(rt, conn, rt.row, moves, new, timed_out_to)
                return rt.row, new, moves, forced, at, details

            done = games.store.transact(work)
            if done is None:
                return False
            row, new, moves, forced, at, details = done
            if job.timed_out:
                rt.timeouts = {**rt.timeouts, len(rt.owners): job.bot_name}
            games.adopt(rt, row, moves, forced, new, at, details)
            games.changed(rt)
            return True


def _bot_played(
    state: State, job: BotJob, action: Any, before: Before | None = None
) -> tuple[State, list[tuple[int, str]], list[bool]]:
    """A copy of ``state`` after the bot's ``action`` (a random legal one if it chose an illegal one)
    and the single-choice steps after it; the actions played, and whether each was played for its seat.
    ``before`` is told each action with the state it is played from."""
    new = state.clone()
    only = len(new.legal_actions()) == 1
    try:
        new.apply_action(action)
    except IllegalActionError:
        log.error("bot %s chose an illegal action %s in game %s", job.bot_name, action, job.game_id)
        new.apply_action(random.choice(new.legal_actions()))
    if before is not None:
        before(state, new.history()[-1])  # ``state`` is the position it was played from
    auto = play_forced(new, before)
    moves = [(job.seat, new.history()[-len(auto) - 1]), *auto]
    return new, moves, [only] + [True] * len(auto)
