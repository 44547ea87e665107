"""E-mail notices: a player with an address (and ``notify_email`` on) is mailed when it becomes their turn
in a turn-based game, when they are invited to a table, and when a game they sit in ends.

``Notices.on_change`` is a listener of the service's changes: it runs on the move's path (under the
game's lock, maybe on the event loop), so it only reads the game in memory and hands what is due to a
thread of its own; that thread reads the account, records the notice in ``mail_log`` (once per game,
account, kind and turn, in one transaction: two server processes never both send it) and queues the
mail on the mailer's thread. A failure there is logged; the move never waits for it.

Each mail ends with an unsubscribe link, ``{public_url}/api/me/notices/off?token=...``: the account's
id signed with a server secret (HMAC-SHA256, the secret drawn once and kept in ``server_secrets``), so
it turns notices off without signing in and cannot be made for another account.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from sqlalchemy import Connection, update
from sqlalchemy.exc import IntegrityError

from .errors import BadRequest
from .mail import Mailer
from .ratings import places
from .runtime import Runtime
from .storage import Store, accounts
from .storage_accounts import account_by_id
from .storage_notices import log_once, server_secret
from .storage_tables import INVITE
from .table_state import table_of, waiting

log = logging.getLogger("ludus.server.notices")

SEEN_KEPT = 8192  # notices this process has handed on already: their game's later changes cost nothing
MAX_TOKEN = 100  # characters of an unsubscribe token: an id, a dot and 64 hex digits
TURN, INVITED, END = "turn", "invite", "end"


@dataclass(frozen=True)
class Notice:
    """One notice due: to ``account_id`` about ``game_id``; ``turn_key`` tells one turn from the next."""

    game_id: str
    account_id: int
    kind: str
    turn_key: str
    subject: str
    text: str


def turn_start(owners: list[int], seat: int) -> int:
    """Where the current turn of ``seat`` began: the index of the first of its latest actions in a row
    (its decisions within one turn keep the turn the same)."""
    start = len(owners)
    while start > 0 and owners[start - 1] == seat:
        start -= 1
    return start


def due(rt: Runtime, link: str) -> list[Notice]:
    """The notices the game in memory calls for now (each is sent once: ``mail_log``); cheap, no I/O."""
    if rt.row is None or rt.state is None or rt.abandoned:
        return []
    title = rt.state.game.display_title()
    names = {s.seat: s.shown_name or s.bot or f"Seat {s.seat + 1}" for s in rt.seats}
    if rt.state.is_terminal():
        return _ended(rt, title, names, link)
    table = table_of(rt)
    if table is None:
        return []
    out = []
    host = next((s.account_name for s in rt.seats if s.account_id == table.host_account_id), None)
    for offer in table.offers.values():
        if offer.offer == INVITE and offer.account_id is not None:
            text = f"{host or 'Someone'} invites you to a game of {title}.\n\nAccept or decline it here:\n{link}\n"
            out.append(Notice(rt.id, offer.account_id, INVITED, "", f"{title}: an invitation", text))
    seat = rt.state.current_player()
    created_now = rt.row.version == 0 and rt.row.meta_version == 0  # its creator is right there
    if table.turn_hours is None or created_now or waiting(rt) or not 0 <= seat < len(rt.seats):
        return out
    mover = rt.seats[seat]
    if mover.account_id is not None and mover.bot is None:
        others = ", ".join(name for s, name in names.items() if s != seat)
        text = (
            f"It is your turn in {title} with {others}: you have {table.turn_hours} hours to move.\n\n"
            f"Play here:\n{link}\n"
        )
        key = str(turn_start(rt.owners, seat))
        out.append(Notice(rt.id, mover.account_id, TURN, key, f"{title}: your turn", text))
    return out


def _ended(rt: Runtime, title: str, names: dict[int, str], link: str) -> list[Notice]:
    returns = rt.state.returns()
    left = {s.seat for s in rt.seats if s.kind == "human" and s.left_to is not None}
    placed = sorted(zip(places(returns, left), range(len(returns)), strict=True))
    result = "\n".join(
        f"{place}. {names.get(seat, f'Seat {seat + 1}')} ({returns[seat]:g})" for place, seat in placed
    )
    text = f"The game of {title} is over.\n\n{result}\n\nSee it here:\n{link}\n"
    accounts_in = dict.fromkeys(s.account_id for s in rt.seats if s.account_id is not None)
    return [Notice(rt.id, a, END, "", f"{title}: game over", text) for a in accounts_in if a is not None]


class Notices:
    """Mails the notices the changes of games call for, through ``mailer``, links at ``public_url``."""

    def __init__(self, store: Store, mailer: Mailer, public_url: str | None) -> None:
        self.store = store
        self.mailer = mailer
        self.public_url = public_url
        self._seen: OrderedDict[tuple[str, int, str, str], None] = OrderedDict()
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._secret: bytes | None = None

    @property
    def enabled(self) -> bool:
        return self.mailer.enabled and self.public_url is not None

    def on_change(self, rt: Runtime) -> None:
        """Service listener (under the game's lock, on the move's path): what is due goes to the notices'
        thread; nothing here waits for the database or the mail server."""
        if not self.enabled:
            return
        notices = due(rt, f"{self.public_url}/games/{rt.id}")
        with self._lock:
            fresh = []
            for n in notices:
                key = (n.game_id, n.account_id, n.kind, n.turn_key)
                if key not in self._seen:
                    self._seen[key] = None
                    fresh.append(n)
            while len(self._seen) > SEEN_KEPT:
                self._seen.popitem(last=False)
            if not fresh:
                return
            if self._pool is None:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="ludus-notices")
            pool = self._pool
        for n in fresh:
            pool.submit(self._send_logged, n)

    def _send_logged(self, notice: Notice) -> Future[bool] | None:
        try:
            return self.send(notice)
        except Exception:  # the operator's to read: the game goes on
            log.exception("the %s notice of game %s failed", notice.kind, notice.game_id)
            return None

    def send(self, notice: Notice) -> Future[bool] | None:
        """Mail ``notice`` unless its account has no address, turned notices off, or had it already;
        the mailer's future (None: nothing sent)."""
        with self.store.read() as conn:
            row = account_by_id(conn, notice.account_id)
        if row is None or not row.email or not row.notify_email or row.deleted_at or row.banned_at:
            return None
        now = time.time()
        try:
            first = self.store.transact(
                lambda conn: log_once(
                    conn, notice.game_id, notice.account_id, notice.kind, notice.turn_key, now
                )
            )
        except IntegrityError:  # another server process recorded it meanwhile: it sends it
            return None
        if not first:
            return None
        off = f"{self.public_url}/api/me/notices/off?token={self.token(notice.account_id)}"
        footer = f"\n--\nTo receive no more e-mail from this server's games, open:\n{off}\n"
        return self.mailer.send(row.email, notice.subject, notice.text + footer)

    # -- unsubscribing ----------------------------------------------------------------------------------
    def _key(self, create: bool = True) -> bytes | None:
        if self._secret is None:
            found = server_secret(self.store, "notices", create)
            self._secret = None if found is None else found.encode()
        return self._secret

    def token(self, account_id: int) -> str:
        """The account's unsubscribe token: its id and the id's HMAC under the server's secret."""
        return self._signed(account_id, self._key())

    @staticmethod
    def _signed(account_id: int, key: bytes | None) -> str:
        digest = hmac.new(key or b"", f"notices-off:{account_id}".encode(), hashlib.sha256).hexdigest()
        return f"{account_id}.{digest}"

    def turn_off(self, token: str) -> str:
        """Turn the e-mail notices of the token's account off (blocking); its name. 400 for a token this
        server did not make, and nothing changes."""
        wrong = BadRequest("this unsubscribe link is not valid (copy the whole link from the e-mail)")
        number, _, _ = token.partition(".")
        if len(token) > MAX_TOKEN or not token.isascii() or not number.isdigit() or len(number) > 12:
            raise wrong
        account_id = int(number)
        key = self._key(create=False)  # no secret yet: no link was ever made, and a refusal stores nothing
        if key is None or not hmac.compare_digest(self._signed(account_id, key), token):
            raise wrong

        def work(conn: Connection) -> str | None:
            row = account_by_id(conn, account_id)
            if row is None or row.deleted_at is not None:
                return None
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(notify_email=False))
            return row.name

        name = self.store.transact(work)
        if name is None:
            raise wrong
        return name

    def close(self) -> None:
        """Take no more notices; those not yet started are dropped (the server is stopping)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
