"""Seats offered to anyone with the link: the table waits until the last of them is taken, the person
who opens the link gets the seat's token (a signed-in account holds the seat), a plain "human" seat still
starts at once; a rated table starts with bots only where the server rates games with bots."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from tables_helpers import created, person, view

from ludus.server import create_app
from ludus.server.settings import Settings

LINK = {"kind": "human", "link": True}


def test_a_link_seat_waits_and_whoever_joins_gets_its_token(client):
    game = created(client, seats=["human", LINK])
    gid, host = game["id"], game["seats"][0]["token"]
    assert "token" not in game["seats"][1] and game["seats"][1]["offer"] == "link"
    seen = view(client, gid, host)
    assert seen["waiting"] and seen["waiting_for"] == [{"seat": 1, "offer": "link", "name": None}]
    assert seen["legal_actions"] == []
    r = client.post(f"/api/games/{gid}/join", json={"name": "Cleo"})
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 1
    mine = view(client, gid, r.json()["token"])
    assert mine["seat"] == 1 and not mine["waiting"]
    assert [s["name"] for s in mine["seats"]] == [None, "Cleo"]


def test_the_table_starts_when_the_last_link_seat_is_taken(client):
    gid = created(client, seats=["human", LINK, LINK])["id"]
    first = client.post(f"/api/games/{gid}/join", json={})
    assert first.status_code == 200 and first.json()["seat"] == 1
    assert view(client, gid)["waiting_for"] == [{"seat": 2, "offer": "link", "name": None}]
    second = client.post(f"/api/games/{gid}/join", json={})
    assert second.status_code == 200 and second.json()["seat"] == 2
    assert not view(client, gid)["waiting"]
    late = client.post(f"/api/games/{gid}/join", json={})
    assert late.status_code == 409 and "no free seat" in late.json()["detail"]


def test_a_signed_in_account_opening_the_link_holds_the_seat_by_its_name(client):
    ann, bob = person(client, "ann"), person(client, "bob")
    gid = created(ann, seats=["human", LINK])["id"]
    assert view(ann, gid)["waiting"]
    r = bob.post(f"/api/games/{gid}/join")
    assert r.status_code == 200, r.text
    seen = view(bob, gid)  # by the session alone: the account holds the seat on any device
    assert seen["seat"] == 1 and not seen["waiting"]
    assert [s["name"] for s in seen["seats"]] == ["ann", "bob"]
    assert bob.post(f"/api/games/{gid}/join").status_code == 409  # one seat per account


def test_plain_human_seats_start_at_once_with_a_token_each(client):
    game = created(client, seats=["human", "human"])
    tokens = [s.get("token") for s in game["seats"]]
    assert all(tokens) and not any("offer" in s for s in game["seats"])
    seen = view(client, game["id"], tokens[0])
    assert not seen["waiting"] and seen["waiting_for"] == []
    assert view(client, game["id"], tokens[1])["seat"] == 1


def test_the_table_ratings_say_whether_the_host_may_start_with_bots(client):
    ann, _bob = person(client, "ann"), person(client, "bob")
    rated = created(ann, seats=["human", {"kind": "human", "invite": "bob"}])["id"]
    unrated = created(ann, seats=["human", LINK])["id"]
    answer = client.get(f"/api/games/{rated}/ratings").json()
    assert answer["rated"] and answer["bots_allowed"] is False
    answer = client.get(f"/api/games/{unrated}/ratings").json()
    assert not answer["rated"] and answer["bots_allowed"] is True


@pytest.fixture
def bots_rated(database_url: str) -> Iterator[TestClient]:
    """A server whose operator rates games with bots too."""
    settings = Settings(bot_seconds=0.05, rated_bots_allowed=True)
    with TestClient(create_app(database_url, settings=settings)) as c:
        yield c


def test_a_rated_table_starts_with_bots_where_the_server_rates_games_with_bots(bots_rated):
    ann, _bob = person(bots_rated, "ann"), person(bots_rated, "bob")
    gid = created(ann, seats=["human", {"kind": "human", "invite": "bob"}])["id"]
    assert bots_rated.get(f"/api/games/{gid}/ratings").json() == {
        "rated": True,
        "bots_allowed": True,
        "seats": [],
    }
    r = ann.post(f"/api/games/{gid}/start", json={"bots": "random"})
    assert r.status_code == 200, r.text
    seen = view(ann, gid)
    assert not seen["waiting"] and seen["seats"][1]["bot"] == "random"


def test_a_guest_cannot_take_a_link_seat_of_a_rated_table(client):
    ann = person(client, "ann")
    game = created(ann, seats=["human", LINK], rated=True)
    r = client.post(f"/api/games/{game['id']}/join", json={})
    assert r.status_code == 403 and "rated" in r.json()["detail"]
    assert view(ann, game["id"])["waiting_for"] == [{"seat": 1, "offer": "link", "name": None}]
