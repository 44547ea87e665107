"""Who asks for a seat: a seat token (``Authorization: Bearer``), or a signed-in account, whose seat in a
game is the one it holds (``seats.account_id``).

Every rule that needs "the caller's seat" takes a ``Credential``: a token as a plain string (as callers
always did), or a ``Caller`` with a token, an account, or both. ``GameCache.seat_of`` and ``viewer``
are the one place that turns it into a seat: the token first when there is one (a wrong token is
refused even when a session comes with it), else the account's seat.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Caller:
    """A request's credentials: its seat token and the id of its signed-in account, either may be None."""

    token: str | None = None
    account_id: int | None = None


Credential = Caller | str | None
NOBODY = Caller()


def as_caller(who: Credential) -> Caller:
    """``who`` as a ``Caller`` (a string is a seat token; None is nobody: a spectator)."""
    if isinstance(who, Caller):
        return who
    return NOBODY if who is None else Caller(who)


@dataclass(frozen=True, slots=True)
class Account:
    """A signed-in account as the rules need it: its id and its name (shown wherever its seats are)."""

    id: int
    name: str
