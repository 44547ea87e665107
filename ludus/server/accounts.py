"""Accounts: signing up and in, passwords changed and reset, and what the operator does to accounts.

An account's name has 3 to 24 letters, digits, ``_`` or ``-``, is unique ignoring case (its
``name_key``: NFKC, case-folded) and reads as no bot, level or reserved word (``names``). Sign-ins are
limited per client address (``Settings.signin_rate``, which sign-ups and reset requests count
against too) and failed ones per account name (``signin_account_rate``): over either, 429 with
``Retry-After``. A wrong password and an unknown name get the same 401, after the same work (a hash
checked either way: ``passwords.verify``).

A password is reset by a one-time link, ``{public_url}/reset#token=...``: e-mailed on request when the
server has mail and the account an address (valid ``RESET_MAIL_SECONDS``), or printed for the operator
by ``ludus accounts reset`` (valid ``RESET_LINK_SECONDS``). Only the token's hash is stored. A request
is answered alike whoever it names, before anything is looked up: the work is done in a thread of
its own, so neither the answer nor its time tells whether the account exists.

Methods block (database, hashing): the routes call them in worker threads.
"""

from __future__ import annotations

import logging
import re
import time
import unicodedata
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from limits import parse as parse_rate
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from . import passwords
from .caller import Account
from .errors import Conflict, Forbidden, NotFound, Unauthorized, Unprocessable
from .limits import TooManyRequests
from .mail import Mailer, email_address
from .names import readable
from .security import hash_token, new_token
from .sessions import Sessions
from .settings import Settings
from .storage import Store
from .storage_accounts import (
    AccountRow,
    account_by_id,
    account_by_key,
    delete_account,
    insert_account,
    insert_reset,
    list_accounts,
    reset_account,
    set_banned,
    set_notify_email,
    set_password,
    use_resets,
)

log = logging.getLogger("ludus.server")

NAME = re.compile(r"[A-Za-z0-9_-]{3,24}")
NAME_RULES = "3 to 24 letters (A-Z, a-z), digits, '_' or '-'"
# names that would read as the server speaking, or as a seat that is nobody's
RESERVED = frozenset(
    [
        "admin",
        "administrator",
        "root",
        "system",
        "operator",
        "moderator",
        "ludus",
        "server",
        "support",
        "staff",
        "guest",
        "spectator",
        "anonymous",
        "nobody",
        "deleted",
        "deleted-player",
        "deleted_player",
    ]
)
WRONG = "wrong name or password"  # the one answer to a failed sign-in, whichever part was wrong
RESET_MAIL_SECONDS = 3600.0
RESET_LINK_SECONDS = 24 * 3600.0


def name_key(name: str) -> str:
    """What two names that are one name share: NFKC, case-folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def account_name(name: str) -> str:
    """``name`` as a new account's name; ValueError saying what is wrong with it."""
    if not NAME.fullmatch(name):
        raise ValueError(f"a name has {NAME_RULES}, not {name[:40]!r}")
    if name_key(name) in RESERVED:
        raise ValueError(f"{name!r} is reserved: choose another name")
    readable(name)  # at least two letters or digits; no bot's or level's name
    return name


class SignInLimits:
    """Sign-ins per client address, failed ones per account name (``limits``, in memory, per process)."""

    def __init__(self, per_address: str, per_account: str) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self.per_address = parse_rate(per_address)
        self.per_account = parse_rate(per_account)

    def count_address(self, address: str) -> None:
        if not self._limiter.hit(self.per_address, "signin", address):
            raise self._refusal(
                self.per_address, "signin", address, "sign-ins and sign-ups from this address"
            )

    def account_open(self, key: str) -> None:
        """Raise 429 while the account name has had its limit of failures (nothing is counted)."""
        if not self._limiter.test(self.per_account, "account", key):
            raise self._refusal(self.per_account, "account", key, "failed sign-ins to this account")

    def count_failure(self, key: str) -> None:
        self._limiter.hit(self.per_account, "account", key)

    def _refusal(self, rate: Any, kind: str, key: str, what: str) -> TooManyRequests:
        stats = self._limiter.get_window_stats(rate, kind, key)
        return TooManyRequests(
            f"too many {what}: at most {rate.amount} per {rate.get_expiry()} s; try again later",
            retry_after=stats.reset_time - time.time(),
        )


class Accounts:
    """The accounts of one store, with its sessions, the settings' limits and the mailer of resets."""

    def __init__(self, store: Store, settings: Settings, sessions: Sessions, mailer: Mailer) -> None:
        self.store = store
        self.settings = settings
        self.sessions = sessions
        self.mailer = mailer
        self.limits = SignInLimits(settings.signin_rate, settings.signin_account_rate)
        self._background: ThreadPoolExecutor | None = None
        passwords.warm()

    # -- signing up and in ------------------------------------------------------------------------------
    def sign_up(self, name: str, password: str, email: str | None, address: str) -> tuple[Account, str]:
        """A new account, signed in: it and its session's id. 422 for a bad name, password or e-mail
        address; 409 for a name taken in any case."""
        self.limits.count_address(address)
        try:
            name = account_name(name)
            passwords.check_new(password, name)
            email = email_address(email) if email and email.strip() else None
        except ValueError as exc:
            raise Unprocessable(str(exc)) from None
        key = name_key(name)
        taken = f"the name {name!r} is taken (names are one in any case): choose another"
        with self.store.read() as conn:
            if account_by_key(conn, key) is not None:
                raise Conflict(taken)
        password_hash = passwords.hash_password(password)
        try:
            account_id = self.store.transact(
                lambda conn: insert_account(conn, name, key, password_hash, email, time.time())
            )
        except IntegrityError:  # taken meanwhile by another request
            raise Conflict(taken) from None
        account = Account(account_id, name)
        log.info("account %s signed up", account_id)
        return account, self.sessions.start(account)

    def sign_in(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """The account of ``name`` signed in (a new session): it and the session's id. 401 ``WRONG``
        for a wrong password or an unknown name alike; 403 for a banned account (its password right)."""
        self.limits.count_address(address)
        key = name_key(name)
        self.limits.account_open(key)
        row = self._named(name)
        if not passwords.verify(None if row is None else row.password_hash, password) or row is None:
            self.limits.count_failure(key)
            raise Unauthorized(WRONG)
        if row.banned_at is not None:
            raise Forbidden("this account is banned: ask the operator of this server")
        if passwords.needs_rehash(row.password_hash):
            new_hash = passwords.hash_password(password)
            self.store.transact(lambda conn: set_password(conn, row.id, new_hash))
        account = Account(row.id, row.name)
        return account, self.sessions.start(account)

    def profile(self, account: Account) -> dict[str, Any]:
        """What ``GET /api/me`` shows of the account."""
        with self.store.read() as conn:
            row = account_by_id(conn, account.id)
        if row is None or row.deleted_at is not None:
            raise Unauthorized("not signed in: this account no longer exists")
        return {
            "name": row.name,
            "email": row.email,
            "notify_email": row.notify_email,
            "created_at": row.created_at,
            "mail": self.mailer.enabled,
        }

    def set_notices(self, account: Account, notify_email: bool) -> dict[str, Any]:
        """Turn the account's e-mail notices on or off (the unsubscribe link turns them off too); the
        profile as changed."""
        self.store.transact(lambda conn: set_notify_email(conn, account.id, notify_email))
        return self.profile(account)

    # -- passwords ----------------------------------------------------------------------------------------
    def change_password(self, account: Account, current: str, new: str) -> str:
        """Set a new password, the current one checked (a wrong one counts as a failed sign-in): every
        session of the account ends and a new one starts for this browser; its id."""
        key = name_key(account.name)
        self.limits.account_open(key)
        with self.store.read() as conn:
            row = account_by_id(conn, account.id)
        if row is None or not passwords.verify(row.password_hash, current):
            self.limits.count_failure(key)
            raise Forbidden("the current password is wrong: nothing was changed")
        self._set_password(row, new)
        return self.sessions.start(account)

    def _set_password(self, row: AccountRow, password: str) -> None:
        """Store a new password of the account, ending its sessions and open reset links."""
        try:
            passwords.check_new(password, row.name)
        except ValueError as exc:
            raise Unprocessable(str(exc)) from None
        new_hash = passwords.hash_password(password)
        now = time.time()

        def work(conn: Connection) -> None:
            set_password(conn, row.id, new_hash)
            use_resets(conn, row.id, now)

        self.store.transact(work)
        self.sessions.end_all(row.id)

    def request_reset(self, name: str, address: str) -> Future[bool | None]:
        """Answer a reset request for ``name``: the link is e-mailed when the server has mail and the account
        an address (at most as often as ``signin_account_rate`` allows); never says which. The work runs
        in a thread of its own; a future of whether a mail was queued (tests wait on it)."""
        self.limits.count_address(address)
        if self._background is None:
            self._background = ThreadPoolExecutor(1, thread_name_prefix="ludus-accounts")
        return self._background.submit(self._mail_reset, name)

    def _mail_reset(self, name: str) -> bool | None:
        key = name_key(name)
        try:
            row = self._named(name)
            if row is None or row.email is None or row.banned_at is not None or not self.mailer.enabled:
                return False
            self.limits.account_open(key)  # a mailbox is not flooded by requests from many addresses
            self.limits.count_failure(key)
            link = self.reset_link(row, RESET_MAIL_SECONDS)
            self.mailer.send(
                row.email,
                "Reset your ludus password",
                f"Someone, hopefully you, asked to reset the password of the ludus account {row.name}.\n\n"
                f"Open this link within an hour to choose a new password:\n\n{link}\n\n"
                "If it was not you, ignore this e-mail: your password stays as it is.\n",
            )
            return True
        except TooManyRequests:
            log.info("a password reset of account %s was asked for too often: no e-mail", key)
        except Exception:
            log.exception("a password reset request failed")
        return None

    def reset_link(self, row: AccountRow, seconds: float = RESET_LINK_SECONDS) -> str:
        """A new one-time link that sets the account's password, valid for ``seconds``."""
        token = new_token()
        now = time.time()
        self.store.transact(lambda conn: insert_reset(conn, hash_token(token), row.id, now, now + seconds))
        base = self.settings.public_url or "http://localhost:8000"
        return f"{base}/reset#token={token}"

    def confirm_reset(self, token: str, password: str, address: str) -> tuple[Account, str]:
        """Set the password of the account a reset token opens, signed in anew (its other sessions end);
        the token is used up. 403 for an unknown, used or expired token, or a banned account."""
        self.limits.count_address(address)
        with self.store.read() as conn:
            row = reset_account(conn, hash_token(token), time.time())
        if row is None:
            raise Forbidden("this reset link is unknown, used or expired: ask for a new one")
        if row.banned_at is not None:
            raise Forbidden("this account is banned: ask the operator of this server")
        self._set_password(row, password)
        account = Account(row.id, row.name)
        return account, self.sessions.start(account)

    # -- the operator's -----------------------------------------------------------------------------------
    def _named(self, name: str) -> AccountRow | None:
        """The account of ``name`` in any case (None: none; a name no account may have is not looked up)."""
        if not NAME.fullmatch(name):
            return None
        with self.store.read() as conn:
            return account_by_key(conn, name_key(name))

    def find(self, name: str) -> AccountRow:
        """The account of ``name`` (any case); NotFound saying so."""
        row = self._named(name)
        if row is None:
            raise NotFound(f"no account {name!r}")
        return row

    def all(self) -> list[AccountRow]:
        with self.store.read() as conn:
            return list_accounts(conn)

    def ban(self, name: str, banned: bool = True) -> AccountRow:
        """Ban the account (it cannot sign in; its sessions end) or lift its ban."""
        row = self.find(name)
        at = time.time() if banned else None
        self.store.transact(lambda conn: set_banned(conn, row.id, at))
        self.sessions.forget(row.id)
        return row

    def delete(self, name: str) -> AccountRow:
        """Delete the account: its games stay, its seats shown as "deleted player" (``delete_account``)."""
        row = self.find(name)
        self.store.transact(lambda conn: delete_account(conn, row.id, time.time()))
        self.sessions.forget(row.id)
        return row

    def close(self) -> None:
        if self._background is not None:
            self._background.shutdown(wait=False)
            self._background = None
