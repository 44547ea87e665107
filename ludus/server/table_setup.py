"""Checking what a creator asks of a table before anything is stored: seats offered to a named account,
to the open lobby or to anyone with the link, and turn-based play (hours to move, the rule when they
pass)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection

from .accounts import name_key
from .caller import Account
from .errors import Unprocessable
from .storage_accounts import account_by_key
from .storage_tables import INVITE, LINK

MAX_TURN_HOURS = 14 * 24
ON_TIMEOUT = ("bot", "others")
MAX_INVITE_NAME = 64


@dataclass
class SeatPlan:
    """Each seat's kind (a string, as before), the seats offered (seat -> (offer, account id, name)) and
    the seats listed in the open lobby."""

    kinds: list[str]
    offered: dict[int, tuple[str, int | None, str | None]] = field(default_factory=dict)
    open: set[int] = field(default_factory=set)


def plan_seats(conn: Connection, seats: list[Any], creator: Account | None) -> SeatPlan:
    """The plan of ``seats`` (strings, or ``{"kind": "human", "invite": NAME | "open": true | "link":
    true}``); 422 for an unknown account, the creator inviting themself, or an account invited twice."""
    plan = SeatPlan([])
    invited: set[int] = set()
    for i, seat in enumerate(seats):
        if isinstance(seat, str):
            plan.kinds.append(seat)
            continue
        if not isinstance(seat, dict) or seat.get("kind") != "human":
            raise Unprocessable(f"seat {i}: give a string, or an object with kind 'human'")
        asked = {k for k in ("invite", "open", "link") if seat.get(k) not in (None, False)}
        if len(asked) != 1 or set(seat) - {"kind", "invite", "open", "link"}:
            raise Unprocessable(
                f"seat {i}: give exactly one of 'invite' (a name), 'open': true, 'link': true"
            )
        plan.kinds.append("human")
        if "open" in asked:
            plan.open.add(i)
        elif "link" in asked:
            plan.offered[i] = (LINK, None, None)
        else:
            account = _invited(conn, i, seat["invite"], creator)
            if account.id in invited:
                raise Unprocessable(f"seat {i}: {account.name} is invited to another seat already")
            invited.add(account.id)
            plan.offered[i] = (INVITE, account.id, account.name)
    return plan


def _invited(conn: Connection, i: int, name: Any, creator: Account | None) -> Account:
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_INVITE_NAME:
        raise Unprocessable(f"seat {i}: 'invite' is an account's name")
    found = account_by_key(conn, name_key(name))
    if found is None or found.banned_at is not None:
        raise Unprocessable(f"seat {i}: no player is named {name[:40]!r}")
    if creator is not None and found.id == creator.id:
        raise Unprocessable(f"seat {i}: you cannot invite yourself (your own seat is a plain 'human')")
    return Account(found.id, found.name)


def turn_based(turn_hours: Any, on_timeout: Any, turn_seconds: float | None) -> tuple[float, str]:
    """A turn-based table's time to move in seconds (kept as ``games.turn_seconds``: the turn timer's)
    and its rule when it passes; 422 unless 1 to ``MAX_TURN_HOURS`` hours and a known rule, and
    without a real-time ``turn_seconds``."""
    if turn_hours is None:
        raise Unprocessable("on_timeout is a turn-based table's rule: give turn_hours too")
    if (
        not isinstance(turn_hours, int)
        or isinstance(turn_hours, bool)
        or not 1 <= turn_hours <= MAX_TURN_HOURS
    ):
        raise Unprocessable(f"turn_hours must be a whole number of hours from 1 to {MAX_TURN_HOURS}")
    if turn_seconds is not None:
        raise Unprocessable("give turn_hours (turn-based) or options.turn_seconds (real-time), not both")
    rule = "bot" if on_timeout is None else on_timeout
    if rule not in ON_TIMEOUT:
        raise Unprocessable(f"on_timeout must be one of {', '.join(ON_TIMEOUT)}")
    return turn_hours * 3600.0, rule
