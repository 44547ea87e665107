"""E-mail notices through a real SMTP server (aiosmtpd, started here): an invitation, the turn passing in
a turn-based game (once per turn, however often the game changes meanwhile, and not again from a second
server process), the end with its result; the unsubscribe link; a mail server that is down fails no move."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterator
from email.message import Message
from typing import Any

import pytest
from fastapi.testclient import TestClient
from smtp_helpers import Inbox, free_port, smtp_server, text_of
from tables_helpers import PASSWORD, view

from ludus.server import create_app
from ludus.server.notices import Notices, due
from ludus.server.settings import Settings

PUBLIC = "https://games.example.org"
OFF = re.compile(r"https://games\.example\.org/api/me/notices/off\?token=(\S+)")


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    with smtp_server() as running:
        yield running


def _settings(port: int) -> Settings:
    return Settings(
        smtp=f"smtp://127.0.0.1:{port}", mail_from="ludus@example.org", public_url=PUBLIC, bot_seconds=0.05
    )


@pytest.fixture
def mailing(database_url: str, smtp: tuple[Inbox, int]) -> Iterator[tuple[TestClient, Inbox]]:
    inbox, port = smtp
    with TestClient(create_app(database_url, settings=_settings(port))) as client:
        yield client, inbox


def member(client: TestClient, name: str) -> TestClient:
    """A device of its own signed up as ``name``, with the address ``name@example.org``."""
    device = TestClient(client.app)
    r = device.post(
        "/api/accounts", json={"name": name, "password": PASSWORD, "email": f"{name}@example.org"}
    )
    assert r.status_code == 201, r.text
    return device


def mails_to(inbox: Inbox, name: str, subject: str) -> list[Message]:
    return [m for m in inbox.messages if m["To"] == f"{name}@example.org" and subject in m["Subject"]]


def wait_for(check: Callable[[], Any], seconds: float = 10.0) -> Any:
    deadline = time.monotonic() + seconds
    while not (found := check()):
        if time.monotonic() > deadline:
            pytest.fail(f"nothing came within {seconds} s")
        time.sleep(0.02)
    return found


def started(client: TestClient) -> tuple[str, dict[int, TestClient]]:
    """A turn-based table of ann (seat 0) and bob (seat 1), bob invited and accepting: (id, devices)."""
    ann, bob = member(client, "ann"), member(client, "bob")
    r = ann.post(
        "/api/games",
        json={"game": "garum", "seats": ["human", {"kind": "human", "invite": "bob"}], "turn_hours": 24},
    )
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert bob.post(f"/api/games/{gid}/accept").status_code == 200
    return gid, {0: ann, 1: bob}


def pass_the_turn(devices: dict[int, TestClient], gid: str) -> int:
    """The seat to move plays until the other seat is to move; the seat now to move."""
    mover = view(devices[0], gid)["current_player"]
    while (seen := view(devices[mover], gid))["current_player"] == mover:
        r = devices[mover].post(
            f"/api/games/{gid}/actions", json={"action": seen["legal_actions"][0], "version": seen["version"]}
        )
        assert r.status_code == 200, r.text
    return int(seen["current_player"])


def test_an_invitation_mails_the_invitee_a_link_to_the_game(mailing):
    client, inbox = mailing
    ann, _ = member(client, "ann"), member(client, "bob")
    r = ann.post("/api/games", json={"game": "garum", "seats": ["human", {"kind": "human", "invite": "bob"}]})
    gid = r.json()["id"]
    (mail,) = wait_for(lambda: mails_to(inbox, "bob", "invitation"))
    assert f"{PUBLIC}/games/{gid}" in text_of(mail) and "ann invites you" in text_of(mail)
    assert OFF.search(text_of(mail))
    assert not mails_to(inbox, "ann", "")  # the host is told nothing: the table waits


def test_passing_the_turn_mails_the_next_player_once_while_that_turn_waits(mailing):
    client, inbox = mailing
    gid, devices = started(client)
    names = {0: "ann", 1: "bob"}
    first = view(devices[0], gid)["current_player"]
    wait_for(lambda: mails_to(inbox, names[first], "your turn"))  # the table started on their turn
    other = pass_the_turn(devices, gid)
    assert other != first
    (mail,) = wait_for(lambda: mails_to(inbox, names[other], "your turn"))
    assert f"{PUBLIC}/games/{gid}" in text_of(mail) and "24 hours" in text_of(mail)
    service = client.app.state.service
    service.refresh(gid)  # the game changes again (as when another process's change is caught up)...
    rt = service.games.read(gid)
    with rt.lock:
        again = due(rt, f"{PUBLIC}/games/{gid}")
    second_process = Notices(service.store, client.app.state.mailer, PUBLIC)  # ...and a second server
    assert [n.kind for n in again] == ["turn"]
    assert second_process.send(again[0]) is None  # mail_log: that turn's notice was sent already
    back = pass_the_turn(devices, gid)  # a later turn: a notice of its own, after any of the first turn
    wait_for(lambda: len(mails_to(inbox, names[back], "your turn")) == 2)
    assert len(mails_to(inbox, names[other], "your turn")) == 1


def test_the_end_of_a_game_mails_every_player_the_result(mailing):
    client, inbox = mailing
    gid, devices = started(client)
    for device in devices.values():  # both leave: the stand-in bots play it to its end
        assert device.post(f"/api/games/{gid}/leave").status_code == 200
    wait_for(lambda: view(client, gid)["terminal"], 120.0)
    for name in ("ann", "bob"):
        (mail,) = wait_for(lambda name=name: mails_to(inbox, name, "game over"))
        text = text_of(mail)
        assert f"{PUBLIC}/games/{gid}" in text and "1. " in text and "ann" in text and "bob" in text


def test_the_unsubscribe_link_turns_notices_off_and_a_forged_one_changes_nothing(mailing):
    client, inbox = mailing
    ann, bob = member(client, "ann"), member(client, "bob")
    ann.post("/api/games", json={"game": "garum", "seats": ["human", {"kind": "human", "invite": "bob"}]})
    (mail,) = wait_for(lambda: mails_to(inbox, "bob", "invitation"))
    token = OFF.search(text_of(mail)).group(1)
    account, _, digest = token.partition(".")
    stranger = TestClient(client.app)  # no session: the link alone does it
    for forged in (f"{account}.{'0' * 64}", f"{int(account) - 1}.{digest}", "", "x" * 5000, "1.é"):
        r = stranger.get("/api/me/notices/off", params={"token": forged})
        assert r.status_code == 400, (forged[:20], r.text)
    assert bob.get("/api/me").json()["notify_email"] is True
    assert ann.get("/api/me").json()["notify_email"] is True
    r = stranger.get("/api/me/notices/off", params={"token": token})
    assert r.status_code == 200 and r.json()["name"] == "bob"
    assert bob.get("/api/me").json()["notify_email"] is False
    member(client, "carl")
    for invited in ("bob", "carl"):
        seats = ["human", {"kind": "human", "invite": invited}]
        assert ann.post("/api/games", json={"game": "garum", "seats": seats}).status_code == 201
    wait_for(lambda: mails_to(inbox, "carl", "invitation"))  # sent after bob's would have been
    assert len(mails_to(inbox, "bob", "")) == 1


def test_a_move_succeeds_while_the_mail_server_is_down_and_the_failure_is_logged(database_url, caplog):
    caplog.set_level(logging.WARNING, logger="ludus.server.mail")
    settings = _settings(free_port())  # nobody listens there
    with TestClient(create_app(database_url, settings=settings)) as client:
        gid, devices = started(client)
        pass_the_turn(devices, gid)  # every move answered 200
        wait_for(lambda: "sending mail" in caplog.text and "failed" in caplog.text)
        assert view(devices[0], gid)["version"] > 0
