"""E-mail notices on and off: ``PATCH /api/me {"notify_email": bool}`` by the session, same-origin only,
a bad body refused with nothing changed, and a player who turned them off is mailed nothing until they
turn them on again."""

from __future__ import annotations

import pytest
from tables_helpers import person
from test_notices import mailing, mails_to, member, smtp, wait_for  # noqa: F401  (fixtures)

EVIL = "https://evil.example"


def test_notify_email_is_turned_off_and_on_by_the_session(client):
    ann = person(client, "ann")
    assert ann.get("/api/me").json()["notify_email"] is True
    r = ann.patch("/api/me", json={"notify_email": False})
    assert r.status_code == 200, r.text
    assert r.json()["notify_email"] is False and r.json()["name"] == "ann"
    assert ann.get("/api/me").json()["notify_email"] is False
    assert ann.patch("/api/me", json={"notify_email": True}).json()["notify_email"] is True
    assert ann.get("/api/me").json()["notify_email"] is True


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"notify_email": "no"},
        {"notify_email": 0},
        {"notify_email": None},
        {"notify_email": False, "x": 1},
    ],
)
def test_a_bad_notify_email_body_is_refused_and_changes_nothing(client, body):
    ann = person(client, "ann")
    r = ann.patch("/api/me", json=body)
    assert r.status_code == 422, r.text
    assert ann.get("/api/me").json()["notify_email"] is True


def test_notify_email_changes_only_from_a_session_of_this_site(client):
    ann = person(client, "ann")
    assert client.patch("/api/me", json={"notify_email": False}).status_code == 401  # no session
    r = ann.patch("/api/me", json={"notify_email": False}, headers={"Origin": EVIL})
    assert r.status_code == 403 and "Origin" in r.json()["detail"]
    assert ann.get("/api/me").json()["notify_email"] is True


def test_a_player_who_turned_notices_off_is_mailed_nothing_until_turned_on(mailing):  # noqa: F811
    client, inbox = mailing
    ann, bob = member(client, "ann"), member(client, "bob")
    member(client, "carl")
    assert bob.patch("/api/me", json={"notify_email": False}).status_code == 200
    for invited in ("bob", "carl"):
        seats = ["human", {"kind": "human", "invite": invited}]
        assert ann.post("/api/games", json={"game": "garum", "seats": seats}).status_code == 201
    wait_for(lambda: mails_to(inbox, "carl", "invitation"))  # sent after bob's would have been
    assert mails_to(inbox, "bob", "") == []
    assert bob.patch("/api/me", json={"notify_email": True}).status_code == 200
    seats = ["human", {"kind": "human", "invite": "bob"}]
    assert ann.post("/api/games", json={"game": "garum", "seats": seats}).status_code == 201
    wait_for(lambda: mails_to(inbox, "bob", "invitation"))
