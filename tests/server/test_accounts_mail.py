"""Password resets and mail: a link e-mailed through a real SMTP server (aiosmtpd, started here) sets a new
password once; a reset request is answered alike whatever it names; the operator's link does the same
without mail; the mail settings and ``ludus serve``'s flags; a mail failure is logged, never raised."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.smtp import AuthResult, LoginPassword
from click.testing import CliRunner
from fastapi.testclient import TestClient
from smtp_helpers import Inbox, free_port, smtp_server

from ludus.cli import main
from ludus.server import create_app
from ludus.server.mail import Mailer, SmtpServer, email_address
from ludus.server.settings import Settings, SettingsError, load_settings

PASSWORD = "correct horse battery"
NEW = "a brand new passphrase"
PUBLIC = "https://games.example.org"
LINK = re.compile(r"https://games\.example\.org/reset#token=([A-Za-z0-9_-]+)")


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    with smtp_server() as running:
        yield running


@pytest.fixture
def mailing(database_url: str, smtp: tuple[Inbox, int]) -> Iterator[tuple[TestClient, Inbox]]:
    inbox, port = smtp
    settings = Settings(smtp=f"smtp://127.0.0.1:{port}", mail_from="ludus@example.org", public_url=PUBLIC)
    with TestClient(create_app(database_url, settings=settings)) as client:
        yield client, inbox


def sign_in(client: TestClient, password: str) -> int:
    return (
        TestClient(client.app).post("/api/session", json={"name": "alice", "password": password}).status_code
    )


def test_a_reset_link_is_mailed_and_sets_a_new_password_once(mailing):
    client, inbox = mailing
    made = client.post(
        "/api/accounts", json={"name": "alice", "password": PASSWORD, "email": "alice@example.org"}
    )
    assert made.status_code == 201 and made.json()["mail"] is True
    asked = TestClient(client.app).post("/api/password-reset", json={"name": "ALICE"})
    assert asked.status_code == 202 and asked.json()["mail"] is True
    (mail,) = inbox.wait(1)
    assert mail["To"] == "alice@example.org" and mail["From"] == "ludus@example.org"
    token = LINK.search(mail.get_payload(decode=True).decode()).group(1)
    assert sign_in(client, PASSWORD) == 200  # asking changed nothing yet
    browser = TestClient(client.app)
    weak = browser.post("/api/password-reset/confirm", json={"token": token, "password": "password123"})
    assert weak.status_code == 422  # a refused password leaves the link usable
    done = browser.post("/api/password-reset/confirm", json={"token": token, "password": NEW})
    assert done.status_code == 200 and done.json()["name"] == "alice"
    assert browser.get("/api/me").status_code == 200  # signed in by it
    assert client.get("/api/me").status_code == 401  # the other sessions ended
    assert sign_in(client, PASSWORD) == 401 and sign_in(client, NEW) == 200
    again = browser.post("/api/password-reset/confirm", json={"token": token, "password": "yet another one!"})
    assert again.status_code == 403 and "used" in again.json()["detail"]


def test_a_reset_request_is_answered_alike_whatever_it_names_and_mails_only_an_address(mailing):
    client, inbox = mailing
    assert (
        client.post(
            "/api/accounts", json={"name": "alice", "password": PASSWORD, "email": "a@example.org"}
        ).status_code
        == 201
    )
    assert client.post("/api/accounts", json={"name": "bob", "password": PASSWORD}).status_code == 201
    answers = [
        TestClient(client.app).post("/api/password-reset", json={"name": name})
        for name in ("nobody", "bob", "no such\x00name", "alice")
    ]
    assert {a.status_code for a in answers} == {202}
    assert len({a.text for a in answers}) == 1
    inbox.wait(1)  # the requests are worked through in order: the others have been, and mailed nothing
    assert [m["To"] for m in inbox.messages] == ["a@example.org"]


def test_a_reset_confirm_with_an_unknown_token_is_refused(mailing):
    client, _ = mailing
    r = client.post("/api/password-reset/confirm", json={"token": "made-up", "password": NEW})
    assert r.status_code == 403 and "set-cookie" not in r.headers


def test_without_mail_the_operator_prints_a_one_time_link(client, database_url):
    assert client.post("/api/accounts", json={"name": "alice", "password": PASSWORD}).status_code == 201
    assert client.post("/api/password-reset", json={"name": "alice"}).json()["mail"] is False
    printed = CliRunner().invoke(
        main,
        ["accounts", "reset", "Alice", "--database", database_url, "--public-url", PUBLIC + "/"],
        prog_name="ludus",
    )
    assert printed.exit_code == 0, printed.output
    token = LINK.search(printed.output).group(1)
    browser = TestClient(client.app)
    assert (
        browser.post("/api/password-reset/confirm", json={"token": token, "password": NEW}).status_code == 200
    )
    assert sign_in(client, NEW) == 200 and sign_in(client, PASSWORD) == 401
    used = browser.post("/api/password-reset/confirm", json={"token": token, "password": "one more new one"})
    assert used.status_code == 403
    missing = CliRunner().invoke(
        main, ["accounts", "reset", "nobody", "--database", database_url], prog_name="ludus"
    )
    assert missing.exit_code == 2 and "no account" in missing.output


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_the_mailer_logs_in_when_the_url_has_a_user():
    seen: list[tuple[bytes, bytes]] = []

    def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
        assert isinstance(data, LoginPassword)
        seen.append((data.login, data.password))
        return AuthResult(success=data.password == b"p@ss:word")

    with smtp_server(authenticator=authenticator, auth_require_tls=False, auth_required=True) as (
        inbox,
        port,
    ):
        mailer = Mailer(
            SmtpServer.parse(f"smtp://me%40example.org:p%40ss%3Aword@127.0.0.1:{port}"), "me@example.org"
        )
        assert mailer.send("you@example.org", "Hello", "A line of text.").result(timeout=20) is True
        assert seen == [(b"me@example.org", b"p@ss:word")]
        assert inbox.messages[0]["Subject"] == "Hello"


def test_a_mail_failure_is_logged_and_never_raised(caplog):
    mailer = Mailer(SmtpServer.parse(f"smtp://127.0.0.1:{free_port()}"), "me@example.org")  # nobody listens
    with caplog.at_level(logging.WARNING, logger="ludus.server.mail"):
        assert mailer.send("you@example.org", "Hello", "text").result(timeout=60) is False
    assert "sending mail 'Hello' failed" in caplog.text
    assert Mailer(None, None).send("you@example.org", "Hello", "text") is None  # no mail: nothing sent


@pytest.mark.parametrize(
    "settings, says",
    [
        ({"smtp": "http://mail.example.org"}, "smtp://"),
        ({"smtp": "smtp://:25"}, "host"),
        ({"smtp": "smtp://mail.example.org:99999"}, "port"),
        ({"smtp": "smtp://mail.example.org:25", "public_url": PUBLIC}, "LUDUS_MAIL_FROM"),
        ({"smtp": "smtp://mail.example.org:25", "mail_from": "a@example.org"}, "LUDUS_PUBLIC_URL"),
        ({"mail_from": "not an address"}, "e-mail"),
        ({"public_url": "games.example.org"}, "http(s)://"),
        ({"session_days": 0}, "greater than 0"),
        ({"signin_rate": "often"}, "LUDUS_SIGNIN_RATE"),
    ],
)
def test_mail_and_account_settings_that_do_not_fit_are_refused_at_start(settings, says):
    with pytest.raises(SettingsError) as refused:
        load_settings(**settings)
    assert says in str(refused.value)


def test_smtp_urls_are_read_with_their_defaults():
    assert SmtpServer.parse("smtp://mail.example.org") == SmtpServer("mail.example.org", 25)
    assert SmtpServer.parse("smtps://u:p@mail.example.org") == SmtpServer(
        "mail.example.org", 465, True, "u", "p"
    )
    assert load_settings(public_url="https://games.example.org/").public_url == "https://games.example.org"


@pytest.mark.parametrize("good", ["a@example.org", " A.B+c@mail.example.co.uk "])
def test_email_addresses_of_the_usual_shape_are_taken(good):
    assert email_address(good) == good.strip()


@pytest.mark.parametrize(
    "bad",
    [
        "a@b",
        "a@@example.org",
        "a b@example.org",
        "<a@example.org>",
        "a..b@example.org",
        "x" * 250 + "@example.org",
        "a@example.org\nBcc: b@example.org",
    ],
)
def test_email_addresses_of_other_shapes_are_refused(bad):
    with pytest.raises(ValueError):
        email_address(bad)


def test_serve_takes_the_mail_flags_over_the_variables(monkeypatch, tmp_path):
    import ludus.server

    calls: list[Any] = []
    monkeypatch.setattr(ludus.server, "serve", lambda *args: calls.append(args))
    monkeypatch.setenv("LUDUS_MAIL_FROM", "env@example.org")
    args = ["serve", "--port", str(free_port()), "--database", f"sqlite:///{tmp_path / 'x.db'}"]
    flags = ["--smtp", "smtp://mail.example.org:587", "--mail-from", "me@example.org", "--public-url", PUBLIC]
    result = CliRunner().invoke(main, args + flags, prog_name="ludus")
    assert result.exit_code == 0, result.output
    settings = calls[0][2]
    assert (settings.smtp, settings.mail_from, settings.public_url) == (
        "smtp://mail.example.org:587",
        "me@example.org",
        PUBLIC,
    )
    refused = CliRunner().invoke(main, args + ["--smtp", "smtp://mail.example.org"], prog_name="ludus")
    assert refused.exit_code == 2 and "LUDUS_PUBLIC_URL" in refused.output
