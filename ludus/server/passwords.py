"""Account passwords: what a new one must be, and Argon2id hashes of them (``argon2-cffi``).

A password has at least ``MIN_LENGTH`` characters, is not among the commonest passwords of that length
(``data/common_passwords.json``, compared case-folded) and is not the account's name. Hashes use
argon2-cffi's defaults (RFC 9106's second recommended profile: 64 MiB, 3 passes, 4 lanes), so at
most ``HASHES_AT_ONCE`` are computed at a time: a burst of sign-ins queues instead of taking a
gigabyte. An unknown name is checked against a dummy hash of the same cost, so a wrong password and
an unknown name are answered alike and in the same time.
"""

from __future__ import annotations

import json
import threading
import unicodedata
from functools import cache
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

MIN_LENGTH = 10
MAX_LENGTH = 256  # a longer one is refused before anything is hashed
HASHES_AT_ONCE = 4
COMMON_FILE = Path(__file__).parent / "data" / "common_passwords.json"

_HASHER = PasswordHasher()  # Argon2id
_SLOTS = threading.BoundedSemaphore(HASHES_AT_ONCE)


@cache
def common_passwords() -> frozenset[str]:
    """The refused passwords, case-folded."""
    data = json.loads(COMMON_FILE.read_text(encoding="utf-8"))
    return frozenset(word.casefold() for word in data["passwords"])


def check_new(password: str, name: str) -> None:
    """Raise ValueError saying why ``password`` may not be the new password of account ``name``."""
    if len(password) < MIN_LENGTH:
        raise ValueError(f"a password has at least {MIN_LENGTH} characters, not {len(password)}")
    if len(password) > MAX_LENGTH:
        raise ValueError(f"a password has at most {MAX_LENGTH} characters")
    folded = unicodedata.normalize("NFKC", password).casefold()
    if folded in common_passwords():
        raise ValueError(
            "this password is among the most used ones, the first that anyone tries: choose another"
        )
    if folded == unicodedata.normalize("NFKC", name).casefold():
        raise ValueError("a password may not be the account's name")


def hash_password(password: str) -> str:
    with _SLOTS:
        return _HASHER.hash(password)


def verify(password_hash: str | None, password: str) -> bool:
    """Whether ``password`` matches ``password_hash``; None or an unusable hash (an unknown name, a
    deleted account) is checked against a dummy hash all the same, and is never a match."""
    usable = password_hash is not None and password_hash.startswith("$argon2")
    checked = password_hash if usable and password_hash is not None else _dummy_hash()
    with _SLOTS:
        try:
            return _HASHER.verify(checked, password) and usable
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False


def needs_rehash(password_hash: str) -> bool:
    """Whether a matching hash was made with other parameters than today's (then hashed again)."""
    try:
        return _HASHER.check_needs_rehash(password_hash)
    except InvalidHashError:
        return True


def warm() -> None:
    """Make the dummy hash now, so that the first unknown name takes no longer than a known one."""
    _dummy_hash()


@cache
def _dummy_hash() -> str:
    return _HASHER.hash("not a password of anyone: the hash an unknown name is checked against")
