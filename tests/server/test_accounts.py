"""Accounts over HTTP: sign up, in and out; names unique in any case; passwords long and uncommon; the
same 401 for a wrong password and an unknown name; sign-ins rate-limited per address and per account;
the session cookie's flags; changes with the cookie refused from another origin (a seat token's never);
sessions that expire unused and slide on with use; sign out everywhere; changing the password."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from ludus.server import create_app
from ludus.server.sessions import CACHE_SECONDS
from ludus.server.settings import Settings

PASSWORD = "correct horse battery"
EVIL = "https://evil.example"


@pytest.fixture
def server(database_url: str) -> Iterator[Any]:
    """``server(**settings)``: a client of an app with those settings over the test's database."""
    made: list[TestClient] = []

    def make(**overrides: Any) -> TestClient:
        client = TestClient(create_app(database_url, settings=Settings(bot_seconds=0.05, **overrides)))
        client.__enter__()
        made.append(client)
        return client

    yield make
    for client in made:
        client.__exit__(None, None, None)


def sign_up(client: TestClient, name: str = "alice", password: str = PASSWORD, **more: Any) -> Any:
    return client.post("/api/accounts", json={"name": name, "password": password, **more})


def sign_in(client: TestClient, name: str = "alice", password: str = PASSWORD) -> Any:
    return client.post("/api/session", json={"name": name, "password": password})


def device(client: TestClient) -> TestClient:
    """Another browser on the same server: a cookie jar of its own."""
    return TestClient(client.app)


def test_signing_up_signs_in_and_me_names_the_account(client):
    r = sign_up(client, "Alice_1", email="alice@example.org")
    assert r.status_code == 201, r.text
    assert r.json()["name"] == "Alice_1" and r.json()["email"] == "alice@example.org"
    assert "ludus_session=" in r.headers["set-cookie"]
    me = client.get("/api/me")
    assert me.status_code == 200 and me.json()["name"] == "Alice_1"


def test_without_a_session_me_is_401(client):
    assert client.get("/api/me").status_code == 401
    client.cookies.set("ludus_session", "made-up")
    assert client.get("/api/me").status_code == 401


def test_signing_in_starts_a_new_session_each_time_and_signing_out_ends_it(client):
    assert sign_up(client).status_code == 201
    first = client.cookies.get("ludus_session")
    other = device(client)
    r = sign_in(other, "ALICE")  # any case
    assert r.status_code == 200, r.text
    second = other.cookies.get("ludus_session")
    assert second and second != first
    assert other.delete("/api/session").status_code == 204
    assert other.get("/api/me").status_code == 401
    stale = device(client)
    stale.cookies.set("ludus_session", second)
    assert stale.get("/api/me").status_code == 401  # the session itself ended, not only the cookie
    assert client.get("/api/me").status_code == 200  # the first device is still signed in


def test_a_name_taken_in_any_case_is_refused_with_409(client):
    assert sign_up(client, "Alice").status_code == 201
    r = sign_up(device(client), "aLICE")
    assert r.status_code == 409 and "taken" in r.json()["detail"]


@pytest.mark.parametrize(
    "body, says",
    [
        ({"name": "al"}, "3 to 24"),
        ({"name": "a" * 25}, "3 to 24"),
        ({"name": "al ice"}, "3 to 24"),
        ({"name": "alice\n"}, "3 to 24"),
        ({"name": "Ålice"}, "3 to 24"),
        ({"name": "a__"}, "at least 2 letters or digits"),
        ({"name": "greedy-bot"}, "bot"),
        ({"name": "Admin"}, "reserved"),
        ({"password": "short pw"}, "at least 10"),
        ({"password": "1234567890"}, "most used"),
        ({"password": "Password123"}, "most used"),
        ({"name": "longname12", "password": "LONGNAME12"}, "name"),
        ({"email": "not-an-address"}, "e-mail"),
        ({"email": "a@b@example.org"}, "e-mail"),
    ],
)
def test_bad_names_passwords_and_addresses_are_refused_with_422_and_nothing_made(client, body, says):
    r = client.post("/api/accounts", json={"name": "alice", "password": PASSWORD, **body})
    assert r.status_code == 422, r.text
    assert says in r.json()["detail"]
    assert "set-cookie" not in r.headers
    assert sign_in(client, body.get("name", "alice"), body.get("password", PASSWORD)).status_code == 401


def test_a_wrong_password_and_an_unknown_name_get_the_same_401(client):
    assert sign_up(client).status_code == 201
    wrong = sign_in(device(client), "alice", "not the password at all")
    unknown = sign_in(device(client), "nobody-here", PASSWORD)
    odd = sign_in(device(client), "no such\x00name", PASSWORD)  # no account may have it: never looked up
    assert wrong.status_code == unknown.status_code == odd.status_code == 401
    assert wrong.json() == unknown.json() == odd.json() == {"detail": "wrong name or password"}
    assert "set-cookie" not in wrong.headers


def test_sign_ins_over_the_address_rate_get_429_with_retry_after(server):
    client = server(signin_rate="3/minute")
    answers = [sign_in(client, f"user{i}", PASSWORD).status_code for i in range(4)]
    assert answers == [401, 401, 401, 429]
    refused = sign_in(client)
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert sign_up(client, "bob").status_code == 429  # sign-ups count against the same rate


def test_failed_sign_ins_over_the_account_rate_lock_the_name_even_for_the_right_password(server):
    client = server(signin_account_rate="2/hour")
    assert sign_up(client).status_code == 201
    assert [sign_in(device(client), "alice", "wrong password!").status_code for _ in range(2)] == [401, 401]
    locked = sign_in(device(client), "ALICE", PASSWORD)
    assert locked.status_code == 429 and int(locked.headers["retry-after"]) >= 1
    assert sign_in(device(client), "bob", "wrong password!").status_code == 401  # another name is not locked


def _cookies(answer: Any) -> dict[str, dict[str, str]]:
    """Each cookie the answer sets: its attributes, lower case (``value``: its value)."""
    found = {}
    for line in answer.headers.get_list("set-cookie"):
        first, *attributes = [part.strip() for part in line.split(";")]
        name, _, value = first.partition("=")
        found[name] = {"value": value}
        for attribute in attributes:
            key, _, setting = attribute.partition("=")
            found[name][key.lower()] = setting.lower()
    return found


def test_the_cookie_is_http_only_lax_path_root_and_secure_only_behind_https(database_url):
    app = create_app(database_url, settings=Settings(bot_seconds=0.05))
    proxied = ProxyHeadersMiddleware(app, trusted_hosts="*")  # as `ludus serve` runs it behind a proxy
    with TestClient(proxied) as plain:
        cookies = _cookies(sign_up(plain))
        session = cookies["ludus_session"]
        assert {"httponly", "path", "max-age", "samesite"} <= set(session) and "secure" not in session
        assert (session["samesite"], session["path"], session["max-age"]) == ("lax", "/", str(30 * 86400))
        hint = cookies["ludus_signed_in"]  # the pages' hint: readable by scripts, and no secret
        assert hint["value"] == "1" and "httponly" not in hint and hint["samesite"] == "lax"
        behind = TestClient(proxied, headers={"X-Forwarded-Proto": "https"})
        secure = _cookies(sign_in(behind))["ludus_session"]
        assert "secure" in secure and "httponly" in secure and secure["samesite"] == "lax"
        assert set(_cookies(behind.delete("/api/session"))) == {"ludus_session", "ludus_signed_in"}  # cleared


def test_a_change_with_the_cookie_from_another_origin_is_refused_and_a_seat_token_from_anywhere_is_not(
    client,
):
    assert sign_up(client).status_code == 201
    body = {"game": "garum", "seats": ["human", "human"]}
    for headers in ({"Origin": EVIL}, {"Sec-Fetch-Site": "cross-site"}, {"Origin": "null"}):
        refused = client.post("/api/games", json=body, headers=headers)
        assert refused.status_code == 403 and "Origin" in refused.json()["detail"], headers
    assert client.post("/api/me/sign-out-everywhere", headers={"Origin": EVIL}).status_code == 403
    assert client.get("/api/me").status_code == 200  # still signed in: the refusal changed nothing
    assert client.get("/api/me", headers={"Origin": EVIL}).status_code == 200  # reading is no change
    for headers in ({"Origin": "http://testserver"}, {"Sec-Fetch-Site": "same-origin"}, {}):
        assert client.post("/api/games", json=body, headers=headers).status_code == 201, headers
    created = device(client).post("/api/games", json=body).json()
    mover = client.get(f"/api/games/{created['id']}").json()["current_player"]
    bearer = {"Authorization": f"Bearer {created['seats'][mover]['token']}"}
    view = client.get(f"/api/games/{created['id']}", headers=bearer).json()
    played = client.post(  # a seat token's request from another origin, the cookie sent along: unchanged
        f"/api/games/{created['id']}/actions",
        json={"action": view["legal_actions"][0], "version": view["version"]},
        headers={"Origin": EVIL, **bearer},
    )
    assert played.status_code == 200, played.text


def test_a_sign_in_or_sign_up_from_another_sites_page_is_refused(client):
    assert sign_up(client, "carol").status_code == 201
    other = device(client)
    assert (
        other.post(
            "/api/session", json={"name": "carol", "password": PASSWORD}, headers={"Origin": EVIL}
        ).status_code
        == 403
    )
    assert (
        other.post(
            "/api/accounts",
            json={"name": "dave", "password": PASSWORD},
            headers={"Sec-Fetch-Site": "same-site"},
        ).status_code
        == 403
    )
    assert "ludus_session" not in other.cookies


def test_a_session_expires_unused_and_slides_on_with_use(server):
    client = server(session_days=30)
    assert sign_up(client).status_code == 201
    sessions = client.app.state.sessions
    start = time.time()
    sessions.clock = lambda: start + 20 * 86400  # used after 20 days: it lasts 30 days from then
    assert client.get("/api/me").status_code == 200
    sessions.clock = lambda: start + 45 * 86400
    assert client.get("/api/me").status_code == 200
    sessions.clock = lambda: start + 76 * 86400  # 31 days unused
    assert client.get("/api/me").status_code == 401
    assert sign_in(client).status_code == 200  # signing in again starts a new one


def test_a_session_of_another_process_ends_here_once_its_memory_has_lapsed(client):
    assert sign_up(client).status_code == 201
    sessions = client.app.state.sessions
    other = type(sessions)(sessions.store, 30)  # another server process on the same database
    other.end_all(sessions.lookup(client.cookies["ludus_session"]).id)
    start = time.time()
    sessions.clock = lambda: start + CACHE_SECONDS + 1
    assert client.get("/api/me").status_code == 401


def test_sign_out_everywhere_ends_every_session_of_the_account(client):
    assert sign_up(client).status_code == 201
    phone = device(client)
    assert sign_in(phone).status_code == 200
    assert phone.post("/api/me/sign-out-everywhere").status_code == 204
    assert phone.get("/api/me").status_code == 401
    assert client.get("/api/me").status_code == 401
    assert sign_in(client).status_code == 200  # the password still works


def test_a_password_change_needs_the_current_one_and_ends_the_other_sessions(client):
    assert sign_up(client).status_code == 201
    phone = device(client)
    assert sign_in(phone).status_code == 200
    new = "a much better secret"
    wrong = client.post("/api/me/password", json={"current": "not the password", "password": new})
    assert wrong.status_code == 403
    weak = client.post("/api/me/password", json={"current": PASSWORD, "password": "qwertyuiop"})
    assert weak.status_code == 422
    assert sign_in(device(client)).status_code == 200  # nothing changed yet
    changed = client.post("/api/me/password", json={"current": PASSWORD, "password": new})
    assert changed.status_code == 200, changed.text
    assert client.get("/api/me").status_code == 200  # this browser: a new session
    assert phone.get("/api/me").status_code == 401  # the others: signed out
    assert sign_in(device(client), "alice", PASSWORD).status_code == 401
    assert sign_in(device(client), "alice", new).status_code == 200
