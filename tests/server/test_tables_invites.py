"""Invitations and the waiting room: a seat offered to a named account shows in its games as an
invitation; the table waits (no legal actions, moves refused) until every seat is taken or the host
starts it with bots; a decline leaves the seat to anyone with the link."""

from __future__ import annotations

import time

import pytest
from tables_helpers import bearer, created, person, statuses, view

INVITE_BOB = {"seats": ["human", {"kind": "human", "invite": "bob"}]}


def test_an_invited_player_sees_the_invitation_and_accepting_starts_the_table(client):
    ann, bob = person(client, "ann"), person(client, "bob")
    game = created(ann, **INVITE_BOB)
    gid = game["id"]
    assert game["seats"][1]["offer"] == "invite" and game["seats"][1]["invited"] == "bob"
    assert statuses(bob) == {gid: "invited"}
    assert statuses(ann) == {gid: "open"}
    waiting = view(ann, gid)
    assert waiting["waiting"] and waiting["legal_actions"] == [] and waiting["turn_deadline"] is None
    assert waiting["waiting_for"] == [{"seat": 1, "offer": "invite", "name": "bob"}]
    r = bob.post(f"/api/games/{gid}/accept")
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 1
    started = view(bob, gid)
    assert not started["waiting"] and started["seat"] == 1
    assert started["seats"][1]["name"] == "bob" and started["seats"][1]["account"]
    mover = started["current_player"]
    assert view(ann if mover == 0 else bob, gid)["legal_actions"]
    assert statuses(bob)[gid] in ("your_turn", "waiting")
    assert bob.post(f"/api/games/{gid}/accept").status_code == 403  # taken: no invitation left


def test_declining_frees_the_seat_for_anyone_with_the_link(client):
    ann, bob = person(client, "ann"), person(client, "bob")
    gid = created(ann, **INVITE_BOB)["id"]
    r = bob.post(f"/api/games/{gid}/decline")
    assert r.status_code == 200, r.text
    assert r.json()["offer"] == "link"
    assert gid not in statuses(bob)
    assert view(ann, gid)["waiting_for"] == [{"seat": 1, "offer": "link", "name": None}]
    assert gid not in {g["id"] for g in client.get("/api/games").json()}  # a link seat is not listed
    cleo = person(client, "cleo")  # (a table of accounts is rated: guests may not join it)
    joined = cleo.post(f"/api/games/{gid}/join")
    assert joined.status_code == 200 and joined.json()["seat"] == 1, joined.text
    assert not view(ann, gid)["waiting"]


def test_only_the_invited_account_may_accept_or_decline(client):
    ann, _bob, eve = person(client, "ann"), person(client, "bob"), person(client, "eve")
    gid = created(ann, **INVITE_BOB)["id"]
    for route in ("accept", "decline"):
        r = eve.post(f"/api/games/{gid}/{route}")
        assert r.status_code == 403 and "no invitation" in r.json()["detail"]
        assert client.post(f"/api/games/{gid}/{route}").status_code == 401  # signed out
    assert view(ann, gid)["waiting_for"][0]["offer"] == "invite"  # nothing changed


@pytest.mark.parametrize(
    ("seat", "reason"),
    [
        ({"kind": "human", "invite": "nobody-here"}, "no player is named"),
        ({"kind": "human", "invite": "ann"}, "cannot invite yourself"),
        ({"kind": "human", "open": True, "link": True}, "exactly one"),
        ({"kind": "random", "invite": "bob"}, "human"),
    ],
)
def test_a_bad_offered_seat_is_refused_and_nothing_is_made(client, seat, reason):
    ann = person(client, "ann")
    person(client, "bob")
    r = ann.post("/api/games", json={"game": "garum", "seats": ["human", seat]})
    assert r.status_code == 422 and reason in r.text, r.text
    assert statuses(ann) == {}


def test_a_waiting_table_has_no_legal_actions_for_anyone_and_refuses_moves(client):
    game = created(client, seats=["human", {"kind": "human", "open": True}, "random"])
    gid, token = game["id"], game["seats"][0]["token"]
    assert gid in {g["id"] for g in client.get("/api/games").json()}  # an open seat is listed
    for seat_token in (token, None):
        seen = view(client, gid, seat_token)
        assert seen["waiting"] and seen["legal_actions"] == []
        assert seen["waiting_for"] == [{"seat": 1, "offer": "open", "name": None}]
    seen = view(client, gid, token)
    r = client.post(
        f"/api/games/{gid}/actions",
        json={"action": "anything", "version": seen["version"]},
        headers=bearer(token),
    )
    assert r.status_code == 409 and "waiting for its players" in r.json()["detail"]
    assert view(client, gid)["version"] == seen["version"]  # the bot did not move either


def test_a_rated_table_does_not_start_with_bots(client):
    ann, _bob = person(client, "ann"), person(client, "bob")
    gid = created(ann, **INVITE_BOB)["id"]  # every seat an account's: rated
    r = ann.post(f"/api/games/{gid}/start", json={"bots": "random"})
    assert r.status_code == 409 and "rated" in r.json()["detail"]
    assert view(ann, gid)["waiting"]


def test_the_host_starts_a_waiting_table_with_bots(client):
    ann, _bob = person(client, "ann"), person(client, "bob")
    gid = created(ann, seats=["human", {"kind": "human", "invite": "bob"}, {"kind": "human", "link": True}])[
        "id"
    ]
    r = ann.post(f"/api/games/{gid}/start", json={"bots": "random"})
    assert r.status_code == 200, r.text
    assert r.json()["seats"] == [1, 2]
    seen = view(ann, gid)
    assert not seen["waiting"]
    assert [s["bot"] for s in seen["seats"]] == [None, "random", "random"]
    deadline = time.monotonic() + 30
    while view(ann, gid)["current_player"] != 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert view(ann, gid)["legal_actions"]  # the bots played up to the host's turn, who may move
    assert ann.post(f"/api/games/{gid}/start", json={"bots": "random"}).status_code == 409


def test_a_guest_host_starts_by_its_seat_token(client):
    game = created(client, seats=["human", {"kind": "human", "link": True}])
    gid, token = game["id"], game["seats"][0]["token"]
    r = client.post(f"/api/games/{gid}/start", json={"bots": "random"}, headers=bearer(token))
    assert r.status_code == 200, r.text
    assert not view(client, gid)["waiting"]


def test_nobody_but_the_host_may_start(client):
    ann, bob = person(client, "ann"), person(client, "bob")
    gid = created(ann, seats=["human", {"kind": "human", "invite": "bob"}, {"kind": "human", "link": True}])[
        "id"
    ]
    assert bob.post(f"/api/games/{gid}/accept").status_code == 200
    r = bob.post(f"/api/games/{gid}/start", json={"bots": "random"})
    assert r.status_code == 403 and "host" in r.json()["detail"]
    assert client.post(f"/api/games/{gid}/start", json={"bots": "random"}).status_code == 401
    assert ann.post(f"/api/games/{gid}/start", json={"bots": "human"}).status_code == 422
    assert ann.post(f"/api/games/{gid}/start", json={"bots": "no-such-bot"}).status_code == 422
    assert view(ann, gid)["waiting"]  # nothing changed


def test_a_join_is_seen_live_in_the_waiting_room(client):
    game = created(client, seats=["human", {"kind": "human", "link": True}])
    gid = game["id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        first = ws.receive_json()
        assert first["waiting"] and first["waiting_for"][0]["seat"] == 1
        assert client.post(f"/api/games/{gid}/join", json={"name": "Cleo"}).status_code == 200
        pushed = ws.receive_json()
        assert not pushed["waiting"] and pushed["seats"][1]["name"] == "Cleo"
