"""Signed-in players for benchmarks/server_load.py (``--accounts``, ``--compare``).

Each simulated client signs up one account per seat of its tables (names distinct across the run),
before the measured run starts: Argon2id hashes are a sign-up's cost, not a move's. Its host account
creates each table signed in (``claim: [0]``, rated) inviting the others by name, as friends set up a
table; they accept signed in, and every seat
then plays by its session cookie, sent with this site's ``Origin`` as a browser's page sends it (a
change made with the cookie from anywhere else is refused 403), over HTTP and on the WebSocket's
handshake, instead of a seat token. The benchmark's server takes sign-ups from its one address at
``SIGNUP_LIMITS`` (the default sign-in rate per address is meant for people).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx

COOKIE = "ludus_session"  # ludus.server.auth.COOKIE
PASSWORD = "load-benchmark-7f3q"  # long enough, not a common one, never an account's name
SIGNUPS_AT_ONCE = 8  # the server hashes a few at a time anyway (ludus.server.passwords.HASHES_AT_ONCE)
SIGNUP_LIMITS = {"LUDUS_SIGNIN_RATE": "100000/minute"}

Request = Callable[..., Awaitable[httpx.Response | None]]  # server_load.Client.request


@dataclass(frozen=True)
class Credential:
    """How a simulated player proves its seat: the HTTP headers it sends, those of its WebSocket's
    handshake, and the WebSocket's first message (None: the handshake's cookie opens the seat)."""

    headers: dict[str, str]
    ws_headers: dict[str, str]
    hello: str | None
    name: str | None = None  # the account's name (an invitation's address)


def token_credential(token: str) -> Credential:
    return Credential({"Authorization": f"Bearer {token}"}, {}, json.dumps({"token": token}))


def session_credential(session: str, origin: str, name: str) -> Credential:
    headers = {"Cookie": f"{COOKIE}={session}", "Origin": origin}
    return Credential(headers, headers, None, name)


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


async def sign_up_all(
    http: httpx.AsyncClient, base: str, clients: int, players: int, errors: Any
) -> list[list[Credential]]:
    """``players`` accounts for each of ``clients`` clients (None where a sign-up failed: that client
    plays no table), printing how long the sign-ups took."""
    tag = secrets.token_hex(3)  # names distinct from an earlier run's on the same --database
    slots = asyncio.Semaphore(SIGNUPS_AT_ONCE)
    took: list[float] = []

    async def one(name: str) -> Credential | None:
        async with slots:
            started = time.perf_counter()
            try:
                r = await http.post(
                    f"{base}/api/accounts",
                    json={"name": name, "password": PASSWORD},
                    headers={"Origin": base},
                )
            except httpx.TransportError:
                errors["sign-up connection error"] += 1
                return None
            took.append(time.perf_counter() - started)
        session = r.cookies.get(COOKIE)
        if r.status_code != 201 or session is None:
            errors[f"sign-up {r.status_code}"] += 1
            return None
        return session_credential(session, base, name)

    started = time.monotonic()
    made = await asyncio.gather(
        *(one(f"lb{tag}-{k}-{seat}") for k in range(clients) for seat in range(players))
    )
    print(
        f"  sign-ups         {sum(c is not None for c in made)}/{len(made)} accounts in "
        f"{time.monotonic() - started:.1f} s before the run ({SIGNUPS_AT_ONCE} at a time; p50 "
        f"{_pct(took, 0.5):.0f} ms, p99 {_pct(took, 0.99):.0f} ms each; server's "
        f"LUDUS_SIGNIN_RATE={SIGNUP_LIMITS['LUDUS_SIGNIN_RATE']} for this one address)",
        flush=True,
    )
    groups = [made[k * players : (k + 1) * players] for k in range(clients)]
    return [[c for c in group if c is not None] for group in groups if None not in group]


async def signed_in_table(
    request: Request, base: str, game: str, players: list[Credential], errors: Any
) -> tuple[str, dict[int, Credential]] | None:
    """A table made by ``players[0]`` signed in (its seat 0, rated) that invites the others by name, who
    accept it signed in; its id and each seat's credential, or None (counted in ``errors``)."""
    seats: list[Any] = ["human"] + [{"kind": "human", "invite": p.name} for p in players[1:]]
    body = {"game": game, "seats": seats, "claim": [0], "rated": True}
    r = await request("POST", f"{base}/api/games", False, json=body, headers=players[0].headers)
    if r is None or r.status_code != 201:
        if r is not None:
            errors[f"create {r.status_code}"] += 1
        return None
    gid = r.json()["id"]
    for player in players[1:]:
        r = await request("POST", f"{base}/api/games/{gid}/accept", False, headers=player.headers)
        if r is None or r.status_code != 200:
            if r is not None:
                errors[f"accept {r.status_code}"] += 1
            return None
    return gid, dict(enumerate(players))


def side_by_side(runs: dict[str, dict[str, float]]) -> None:
    """The figures of runs with the same parameters, one column each."""
    names = list(runs)
    print("\n" + f"{'':<24}" + "".join(f"{name:>14}" for name in names))
    for key in next(iter(runs.values())):
        print(f"{key:<24}" + "".join(f"{runs[name].get(key, float('nan')):>14.1f}" for name in names))
