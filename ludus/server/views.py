"""What one seat (or a spectator) is shown: its observation only, never another seat's secrets."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .service import Runtime


def seats_summary(rt: Runtime) -> list[dict[str, Any]]:
    timed_out = [rt.owners[ply] for ply in rt.timeouts if ply < len(rt.owners)]
    return [
        {"seat": s.seat, "kind": s.kind, "free": s.free, "bot": s.bot, "left": s.left_to is not None,
         "timed_out": timed_out.count(s.seat)}
        for s in rt.seats
    ]


def seat_log(rt: Runtime, seat: int | None) -> list[dict[str, Any]]:
    """``state.log(seat)``; an action a stand-in played when the turn timer ran out says so."""
    entries = rt.state.log(seat)
    for ply, bot in rt.timeouts.items():
        if ply < len(entries):
            entries[ply] = {**entries[ply], "timed_out": True, "played_by": bot}
    return entries


def turn_deadline(rt: Runtime) -> float | None:
    """When a stand-in bot may play the turn of the human seat to move (epoch seconds).

    The turn began when the game's actions last changed (creation, an action, an undo: the
    stored ``turn_started``), so the deadline is the same before and after a restart. None
    without a turn timer, once the game is over, or when a bot is to move.
    """
    if rt.row.turn_seconds is None or rt.state.is_terminal():
        return None
    current = rt.state.current_player()
    if not 0 <= current < len(rt.seats) or rt.seats[current].bot is not None:
        return None
    return rt.row.turn_started + rt.row.turn_seconds


def seat_view(rt: Runtime, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator). ``legal_actions`` only for the seat to move.

    Public parts only: the seed and the record stay on the server until the end; the move log
    is ``state.log(seat)``, where the game masks choices that are still secret.
    """
    state = rt.state
    current = state.current_player()
    terminal = state.is_terminal()
    to_move = (
        seat is not None and not terminal and current == seat and rt.seats[seat].bot is None
    )
    return {
        "id": rt.id,
        "game": rt.row.game,
        "options": rt.public_options(),
        "version": rt.version,
        "ply": len(rt.owners),
        "seat": seat,
        "current_player": current,
        "terminal": terminal,
        "status": rt.row.status,  # playing, over, or abandoned (idle too long: kept as a record)
        "scores": list(state.scores()),
        "winners": state.winners() if terminal else [],
        "observation": state.observation(seat),
        "legal_actions": [str(a) for a in state.legal_actions()] if to_move else [],
        "log": seat_log(rt, seat),
        "seats": seats_summary(rt),
        "turn_deadline": turn_deadline(rt),
        "server_time": time.time(),
    }
