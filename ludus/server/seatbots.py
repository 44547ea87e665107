"""Bots sitting at seats: built by name from ``ludus.bots``, each with a time budget.

A seat's bot is built afresh for every decision, in a worker process (``botpool``): the bots keep
nothing from one move to the next but their random generator, so each decision gets a seed of its
own, ``decision_seed``, made from a seed the server draws once per seat (kept with the game in
memory, as the seat's bot object was) and the game's version: a decision thought about again at
the same version is drawn the same way, whatever happened to the tries before it.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from .. import bots

DEFAULT_SECONDS = (
    1.0  # a bot's time a decision unless its kind, or the server (``Settings.bot_seconds``), says
)


def bot_names() -> list[str]:
    return bots.names()


MAX_SEAT_SECONDS = 10.0


def seat_bot(kind: str, default: float = DEFAULT_SECONDS) -> tuple[str, float]:
    """A seat's bot and its time a move: ``name`` or ``name:seconds=S`` (0.1 to 10 s), nothing else.

    Clients choose a bot's strength by its thinking time only, so no request can ask for an
    unbounded search. Raises ValueError saying what is wrong.
    """
    name, params = bots.parse_spec(kind)
    if set(params) - {"seconds"}:
        raise ValueError(f"seat bot {kind!r}: only 'seconds' (its time a move) may be set")
    if "seconds" not in params:
        return name, default
    seconds = params["seconds"]
    if (
        not isinstance(seconds, int | float)
        or isinstance(seconds, bool)
        or not 0.1 <= seconds <= MAX_SEAT_SECONDS
    ):
        raise ValueError(f"seat bot {kind!r}: seconds must be a number from 0.1 to {MAX_SEAT_SECONDS:g}")
    return name, float(seconds)


def make_seat_bot(kind: str, seconds: float = DEFAULT_SECONDS, seed: int | None = None) -> Any:
    """A fresh bot with ``seed`` (None: a random one) and, if it takes one, its time budget a move.

    The default bot factory of the server's worker processes (``create_app(bot_factory=...)``)."""
    name, seconds = seat_bot(kind, seconds)
    budget = {"seconds": seconds} if "seconds" in bots.parameters(name) else {}
    return bots.make(name, seed=secrets.randbits(32) if seed is None else seed, **budget)


def decision_seed(seat_seed: int, version: int) -> int:
    """The seed of a seat's bot for the decision at ``version`` of its game (the same on every try)."""
    return random.Random(f"{seat_seed}:{version}").getrandbits(32)


def fallback_action(state: Any) -> Any:
    """A uniformly random legal action: what a seat plays when its bot overran its budget."""
    return random.Random(secrets.randbits(32)).choice(state.legal_actions())


MAX_KIND_LENGTH = 32  # the seats table's column width


def canonical_kind(kind: str) -> str:
    """The seat kind as stored and shown: ``human``, ``name`` or ``name:seconds=S``.

    Padding, spelling of the number (``3.0``, `` 3``) and anything longer than the stored column
    are never kept as sent: one kind has one spelling. Raises ValueError saying what is wrong.
    """
    if not isinstance(kind, str) or len(kind) > MAX_KIND_LENGTH:
        raise ValueError(f"a seat kind is a string of at most {MAX_KIND_LENGTH} characters")
    text = kind.strip()
    if text == "human":
        return "human"
    name, params = bots.parse_spec(text)
    _, seconds = seat_bot(text)
    return f"{name}:seconds={seconds:g}" if "seconds" in params else name
