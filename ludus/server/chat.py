"""Table chat: the seated players of a game write, everyone at the table reads, live.

A message is stored (``storage_social``), then pushed as ``{"chat": message}`` to the game's WebSocket
subscribers through the ``Hub``; other server processes on the same PostgreSQL database hear of it by a
``NOTIFY`` on ``CHAT_CHANNEL`` (sent inside the storing transaction) and push it to theirs. Spectators read
only. A seat may mute another: that seat's messages are left out of what it reads (its page skips the
pushed ones). The text is kept exactly as sent (trimmed): pages show it as text, never as markup.
"""

from __future__ import annotations

import logging
import time
import unicodedata
from typing import TYPE_CHECKING, Any

from limits import parse as parse_rate
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy import Connection, text

from . import storage_social as db
from .caller import Caller, Credential, as_caller
from .errors import Forbidden, Unprocessable
from .hub import Hub, PgListener
from .limits import TooManyRequests

if TYPE_CHECKING:
    from .game_cache import GameCache
    from .runtime import Runtime

log = logging.getLogger("ludus.server")
CHAT_CHANNEL = "ludus_chat"
MAX_CHAT_LENGTH = 500
CHAT_SHOWN = 200  # the newest messages a reader gets
SPECTATORS_READ = "spectators read the chat; only a player seated at this table writes in it"


def chat_text(value: str) -> str:
    """The message as stored: trimmed, 1 to ``MAX_CHAT_LENGTH`` characters, no control characters but the
    newline (nor lone surrogates, which no database stores). Raises Unprocessable saying what is wrong."""
    message = value.strip()
    if not message:
        raise Unprocessable("a chat message needs some text")
    if len(message) > MAX_CHAT_LENGTH:
        raise Unprocessable(f"a chat message has at most {MAX_CHAT_LENGTH} characters, not {len(message)}")
    for c in message:
        if c != "\n" and unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp"):
            raise Unprocessable(
                f"a chat message may hold no control characters but the newline (U+{ord(c):04X})"
            )
    return message


class Chat:
    """The chat of every game over the service's ``games`` (its store and settings) and the ``hub``."""

    def __init__(self, games: GameCache, hub: Hub) -> None:
        self.games = games
        self.store = games.store
        self.hub = hub
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._rate = parse_rate(games.settings.chat_rate)
        self._listener: PgListener | None = None

    # -- reading and writing -----------------------------------------------------------------------------
    def messages(self, game_id: str, who: Credential) -> list[dict[str, Any]]:
        """The newest ``CHAT_SHOWN`` messages, oldest first, without those of the seats the caller muted."""
        rt = self.games.read(game_id)
        with rt.lock:
            seat = self.games.viewer(rt, who)
            names = _names(rt)
        with self.store.read() as conn:
            hidden = set() if seat is None else db.muted_seats(conn, game_id, seat)
            found = db.messages(conn, game_id, CHAT_SHOWN, hidden)
        return [_shown(m, names) for m in found]

    def post(self, game_id: str, who: Credential, sent: str) -> dict[str, Any]:
        """Store the caller's message and push it to everyone at the table; the message."""
        message = chat_text(sent)
        rt = self.games.read(game_id)
        with rt.lock:
            seat = self._writer(rt, who)
            account_id = rt.seats[seat].account_id
            names = _names(rt)
        self._count(game_id, seat)
        at = time.time()

        def work(conn: Connection) -> int:
            message_id = db.insert_message(conn, game_id, seat, account_id, message, at)
            self._notify(conn, f"{game_id} {message_id} {self.games.instance}")
            return message_id

        shown = _shown(db.Message(self.store.transact(work), seat, message, at), names)
        self.hub.send(game_id, {"chat": shown})
        return shown

    def mutes(self, game_id: str, who: Credential) -> list[int]:
        """The seats whose messages the caller's seat hides (a spectator: none)."""
        rt = self.games.read(game_id)
        with rt.lock:
            seat = self.games.viewer(rt, who)
        if seat is None:
            return []
        with self.store.read() as conn:
            return sorted(db.muted_seats(conn, game_id, seat))

    def mute(self, game_id: str, who: Credential, muted: int, on: bool) -> list[int]:
        """The caller's seat hides (``on``) or shows again seat ``muted``'s messages; the seats it hides."""
        rt = self.games.read(game_id)
        with rt.lock:
            seat = self._writer(rt, who)
            seats = len(rt.seats)
        if not 0 <= muted < seats:
            raise Unprocessable(f"seat must be one of this game's seats, 0 to {seats - 1}")
        if muted == seat:
            raise Unprocessable("a seat cannot mute itself")

        def work(conn: Connection) -> list[int]:
            db.set_mute(conn, game_id, seat, muted, on)
            return sorted(db.muted_seats(conn, game_id, seat))

        return self.store.transact(work)

    def _writer(self, rt: Runtime, who: Credential) -> int:
        """The caller's seat: a seat token's, or the session's account's; spectators are refused (403)."""
        caller = as_caller(who)
        if caller == Caller():
            raise Forbidden(SPECTATORS_READ)
        return self.games.seat_of(rt, caller)

    def _count(self, game_id: str, seat: int) -> None:
        key = f"{game_id}/{seat}"
        if not self._limiter.hit(self._rate, "chat", key):
            reset = self._limiter.get_window_stats(self._rate, "chat", key).reset_time
            raise TooManyRequests(
                f"too many chat messages from Seat {seat + 1}: at most {self._rate.amount} per "
                f"{self._rate.get_expiry()} s",
                retry_after=max(1.0, reset - time.time()),
            )

    # -- other processes ---------------------------------------------------------------------------------
    def _notify(self, conn: Connection, payload: str) -> None:
        if not self.store.is_sqlite:
            conn.execute(
                text("SELECT pg_notify(:channel, :payload)"), {"channel": CHAT_CHANNEL, "payload": payload}
            )

    def start(self) -> None:
        """Hear other processes' messages (PostgreSQL; with SQLite every server is one process)."""
        if self.store.is_sqlite or self._listener is not None:
            return
        self._listener = _ChatListener(self, self.store.listen_url())
        self._listener.start()
        self._listener.ready.wait(10)

    def stop(self) -> None:
        if self._listener is not None:
            self._listener.stop()
            self._listener = None

    def remote(self, game_id: str, message_id: int) -> None:
        """Another process stored message ``message_id``: push it here (blocking: the listener's thread)."""
        if not self.hub.watched(game_id):
            return
        rt = self.games.read(game_id)
        with rt.lock:
            names = _names(rt)
        with self.store.read() as conn:
            found = db.message(conn, game_id, message_id)
        if found is not None:
            self.hub.send(game_id, {"chat": _shown(found, names)})


class _ChatListener(PgListener):
    """Hears ``CHAT_CHANNEL``'s notices ``"{game id} {message id} {process}"`` of other processes."""

    def __init__(self, chat: Chat, conninfo: str) -> None:
        super().__init__(conninfo, CHAT_CHANNEL, lambda game_id, origin: None)
        self.chat = chat

    def deliver(self, payload: str) -> None:
        game_id, message_id, origin = (payload.split(" ") + ["", "", ""])[:3]
        if origin == self.chat.games.instance or not message_id.isdigit():
            return
        try:
            self.chat.remote(game_id, int(message_id))
        except Exception:  # e.g. the game was deleted meanwhile: the next message is pushed all the same
            log.exception("pushing another process's chat message of game %s failed", game_id)


def _names(rt: Runtime) -> list[str | None]:
    return [s.shown_name for s in rt.seats]


def _shown(message: db.Message, names: list[str | None]) -> dict[str, Any]:
    name = names[message.seat] if 0 <= message.seat < len(names) else None
    return {"id": message.id, "seat": message.seat, "name": name, "text": message.text, "at": message.at}
