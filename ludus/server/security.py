"""Seat tokens: 256 random bits, kept only as sha256 hashes, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable

TOKEN_BYTES = 32


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matching_index(token: str, token_hashes: Iterable[str | None]) -> int | None:
    """Where among ``token_hashes`` the hash of ``token`` is (None: nowhere): hashed once, compared
    with every one in constant time (no early exit)."""
    hashed = hash_token(token)
    found = None
    for i, token_hash in enumerate(token_hashes):
        if token_hash is not None and hmac.compare_digest(hashed, token_hash):
            found = i
    return found


def new_game_id() -> str:
    return secrets.token_urlsafe(9)


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None if absent)."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return ""  # present but malformed: refused like a wrong token
    return token.strip()


def host_key(address: str) -> str:
    """What the database keeps of a creator's address: a digest, never the address itself (enough to
    count one address's games and queue its bots fairly). An account's key (``account:<id>``) is kept
    as it is."""
    if address.startswith("account:"):
        return address[:64]
    return "addr:" + hashlib.sha256(b"ludus-host:" + address.encode("utf-8", "replace")).hexdigest()[:40]
