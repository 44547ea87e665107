"""A real SMTP server for the tests that send mail (aiosmtpd on a loopback port), shared by the server's
and the browser's tests: an inbox that keeps every message, waits that poll it with a deadline."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from email.message import Message
from typing import Any

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def text_of(mail: Message) -> str:
    return mail.get_payload(decode=True).decode()


class Inbox:
    """An aiosmtpd handler that keeps every message it is handed (in the controller's thread)."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"

    def wait(self, count: int, seconds: float = 20.0) -> list[Message]:
        """Every message, once ``count`` of them came."""
        deadline = time.monotonic() + seconds
        while len(self.messages) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{count} e-mails expected, {len(self.messages)} arrived in {seconds} s")
            time.sleep(0.02)
        return self.messages

    def wait_for(self, to: str, subject: str, link: str, seconds: float = 30.0) -> Message:
        """The first message to ``to`` whose subject ends with ``subject`` and whose text holds ``link``."""
        deadline = time.monotonic() + seconds
        while True:
            for mail in list(self.messages):
                if to in mail["To"] and mail["Subject"].endswith(subject) and link in text_of(mail).split():
                    return mail
            if time.monotonic() > deadline:
                seen = [(m["To"], m["Subject"]) for m in self.messages]
                raise AssertionError(f"no mail to {to} ({subject}, {link}) after {seconds} s: {seen}")
            time.sleep(0.1)


@contextmanager
def smtp_server(**options: Any) -> Iterator[tuple[Inbox, int]]:
    """An SMTP server on a free loopback port for the block: its inbox and port (``options`` go to
    aiosmtpd's Controller, e.g. an authenticator)."""
    inbox, port = Inbox(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port, **options)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()
