"""Sending e-mail: password resets now, notices later, over the standard library's ``smtplib``.

``Mailer.send`` never waits: the message goes to a thread of its own, one at a time, so a slow or
unreachable mail server delays no request and no move; a failure is logged, never raised. The server
is named by a URL, ``smtp://[user:password@]host:port`` (STARTTLS whenever the server offers it,
login when the URL has a user) or ``smtps://...`` (TLS from the first byte, usually port 465).
"""

from __future__ import annotations

import logging
import re
import smtplib
import ssl
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from urllib.parse import unquote, urlsplit

log = logging.getLogger("ludus.server.mail")

MAX_EMAIL_LENGTH = 254  # RFC 5321's limit on a forward path, less its angle brackets
SMTP_TIMEOUT = 30.0  # seconds a mail server may take to answer one command
# One address as people type it: a local part, '@', a domain of dot-separated labels (no spaces, no
# second '@', no angle brackets or quotes that a header could be built around).
_EMAIL = re.compile(
    r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$"
)


def email_address(value: str) -> str:
    """``value`` as an e-mail address (trimmed); ValueError saying what is wrong with its shape or length."""
    text = value.strip()
    if len(text) > MAX_EMAIL_LENGTH:
        raise ValueError(f"an e-mail address has at most {MAX_EMAIL_LENGTH} characters, not {len(text)}")
    if not _EMAIL.fullmatch(text) or ".." in text.split("@")[0]:
        raise ValueError(f"{text[:60]!r} is not an e-mail address (name@example.org)")
    return text


@dataclass(frozen=True)
class SmtpServer:
    """Where mail goes: host, port, TLS from the start (``smtps``) or STARTTLS when offered, login."""

    host: str
    port: int
    implicit_tls: bool = False
    user: str | None = None
    password: str | None = None

    @classmethod
    def parse(cls, url: str) -> SmtpServer:
        """The server of ``smtp://[user:password@]host[:port]`` (port 25 by default; 465 for smtps);
        ValueError saying what is wrong."""
        parts = urlsplit(url.strip())
        if parts.scheme not in ("smtp", "smtps"):
            raise ValueError(f"a mail server URL starts with smtp:// or smtps://, not {url[:40]!r}")
        if not parts.hostname:
            raise ValueError("a mail server URL names its host: smtp://[user:password@]host:port")
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ValueError("a mail server URL is smtp://[user:password@]host:port, nothing after the port")
        try:
            port = parts.port
        except ValueError:
            raise ValueError("a mail server URL's port is a number from 1 to 65535") from None
        implicit = parts.scheme == "smtps"
        return cls(
            parts.hostname,
            port or (465 if implicit else 25),
            implicit,
            unquote(parts.username) if parts.username else None,
            unquote(parts.password) if parts.password is not None else None,
        )


class Mailer:
    """Sends plain-text e-mail from ``sender`` through ``server`` (None: mail is not configured, and
    ``send`` only logs what it would have sent)."""

    def __init__(self, server: SmtpServer | None, sender: str | None) -> None:
        self.server = server
        self.sender = sender
        self._executor: ThreadPoolExecutor | None = None

    @classmethod
    def from_settings(cls, smtp: str | None, mail_from: str | None) -> Mailer:
        return cls(None if smtp is None else SmtpServer.parse(smtp), mail_from)

    @property
    def enabled(self) -> bool:
        return self.server is not None and self.sender is not None

    def send(self, to: str, subject: str, text: str) -> Future[bool] | None:
        """Queue one message; never waits, never raises. A future of whether it was handed to the mail
        server (tests wait on it); None when mail is not configured."""
        if not self.enabled:
            log.info("mail is not configured: not sending %r", subject)
            return None
        if self._executor is None:
            self._executor = ThreadPoolExecutor(1, thread_name_prefix="ludus-mail")
        return self._executor.submit(self._deliver, to, subject, text)

    def _deliver(self, to: str, subject: str, text: str) -> bool:
        try:
            self.send_now(to, subject, text)
        except Exception as exc:  # a mail failure is the operator's to read, never the player's request's
            log.warning("sending mail %r failed: %s: %s", subject, type(exc).__name__, exc)
            return False
        return True

    def send_now(self, to: str, subject: str, text: str) -> None:
        """Send one message, blocking; raises what smtplib raises."""
        server, sender = self.server, self.sender
        if server is None or sender is None:
            raise RuntimeError("mail is not configured")
        message = EmailMessage()
        message["From"] = sender
        message["To"] = to
        message["Subject"] = subject
        message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or None)
        message.set_content(text)
        context = ssl.create_default_context()
        smtp: smtplib.SMTP
        if server.implicit_tls:
            smtp = smtplib.SMTP_SSL(server.host, server.port, timeout=SMTP_TIMEOUT, context=context)
        else:
            smtp = smtplib.SMTP(server.host, server.port, timeout=SMTP_TIMEOUT)
        with smtp:
            smtp.ehlo()
            if not server.implicit_tls and smtp.has_extn("starttls"):
                smtp.starttls(context=context)
                smtp.ehlo()
            if server.user is not None:
                smtp.login(server.user, server.password or "")
            smtp.send_message(message)

    def close(self) -> None:
        """Stop taking messages; those queued still go out (the thread ends after the last)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False)
            self._executor = None
