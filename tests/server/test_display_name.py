"""Display names: given at create or join, bounded, no control characters, stored with the seat and shown
in every view's seats; a bad name is refused with a clear 422 and changes nothing."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludus.server.schemas import MAX_NAME_LENGTH, display_name


def _seats(client, game_id, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.get(f"/api/games/{game_id}", headers=headers).json()["seats"]


def test_names_given_at_create_are_stored_with_the_seats_and_shown_to_everyone(client):
    r = client.post(
        "/api/games",
        json={"game": "garum", "seats": ["human", "random", "human"], "names": ["  Ann  ", None, "Bo"]},
    )
    assert r.status_code == 201, r.text
    body = r.json()
    assert [s["name"] for s in body["seats"]] == ["Ann", None, "Bo"]
    assert [s["name"] for s in _seats(client, body["id"])] == ["Ann", None, "Bo"]
    assert [s["name"] for s in _seats(client, body["id"], body["seats"][2]["token"])] == ["Ann", None, "Bo"]


def test_a_name_given_at_join_is_stored_with_the_seat_joined(client):
    body = client.post(
        "/api/games",
        json={"game": "garum", "seats": ["human", "human"], "claim": [0], "names": ["Ann", None]},
    ).json()
    listed = {g["id"]: g for g in client.get("/api/games").json()}[body["id"]]
    assert [s["name"] for s in listed["seats"]] == ["Ann", None]
    joined = client.post(f"/api/games/{body['id']}/join", json={"name": "Cleo"})
    assert joined.status_code == 200, joined.text
    assert [s["name"] for s in _seats(client, body["id"])] == ["Ann", "Cleo"]


def test_join_without_a_body_still_works_and_leaves_the_name_empty(client):
    body = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"], "claim": [0]}).json()
    assert client.post(f"/api/games/{body['id']}/join").status_code == 200
    assert [s["name"] for s in _seats(client, body["id"])] == [None, None]


@pytest.mark.parametrize(
    "bad", ["a\x00b", "tab\there", "x" * (MAX_NAME_LENGTH + 1), "evil\u202eeman", "a\u2028b"]
)
def test_a_bad_name_at_create_is_refused_and_creates_nothing(client, bad):
    before = len(client.get("/api/games").json())
    r = client.post(
        "/api/games", json={"game": "garum", "seats": ["human", "human"], "names": [bad, None], "claim": [0]}
    )
    assert r.status_code == 422 and "name" in r.json()["detail"]
    assert len(client.get("/api/games").json()) == before


def test_a_name_the_creator_gave_a_free_seat_stays_unless_the_joiner_gives_one(client):
    body = client.post(
        "/api/games",
        json={
            "game": "garum",
            "seats": ["human", "human", "human"],
            "claim": [0],
            "names": ["Ann", "Bo", "Cy"],
        },
    ).json()
    assert client.post(f"/api/games/{body['id']}/join").status_code == 200
    assert client.post(f"/api/games/{body['id']}/join", json={"name": "Cleo"}).status_code == 200
    assert [s["name"] for s in _seats(client, body["id"])] == ["Ann", "Bo", "Cleo"]


def test_a_bad_name_at_join_is_refused_and_the_seat_stays_free(client):
    body = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"], "claim": [0]}).json()
    r = client.post(f"/api/games/{body['id']}/join", json={"name": "x\x07"})
    assert r.status_code == 422 and "control" in r.json()["detail"]
    assert [s["free"] for s in _seats(client, body["id"])] == [False, True]


def test_a_bot_seat_takes_no_name_and_names_come_one_per_seat(client):
    r = client.post(
        "/api/games", json={"game": "garum", "seats": ["human", "random"], "names": ["Ann", "Bot"]}
    )
    assert r.status_code == 422 and "bot" in r.json()["detail"]
    r = client.post("/api/games", json={"game": "garum", "seats": ["human", "random"], "names": ["Ann"]})
    assert r.status_code == 422 and "one per seat" in r.json()["detail"]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=3 * MAX_NAME_LENGTH))
def test_a_stored_name_is_trimmed_bounded_and_free_of_control_characters(text):
    try:
        name = display_name(text)
    except ValueError:
        return
    if name is None:
        assert not text.strip()
        return
    assert name == name.strip() and 1 <= len(name) <= MAX_NAME_LENGTH
    assert not any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in name)
    assert len(name.splitlines()) == 1


def test_a_seat_names_itself_with_its_token_and_only_itself(client):
    body = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"]}).json()
    tokens = [s["token"] for s in body["seats"]]
    url = f"/api/games/{body['id']}/name"
    r = client.post(url, json={"name": " Dana "}, headers={"Authorization": f"Bearer {tokens[1]}"})
    assert r.status_code == 200 and r.json() == {"id": body["id"], "seat": 1, "name": "Dana"}
    assert [s["name"] for s in _seats(client, body["id"])] == [None, "Dana"]
    assert client.post(url, json={"name": "Eve"}).status_code == 401  # no token: nobody's seat
    bad = client.post(url, json={"name": "a\x1bb"}, headers={"Authorization": f"Bearer {tokens[0]}"})
    assert bad.status_code == 422
    cleared = client.post(url, json={"name": ""}, headers={"Authorization": f"Bearer {tokens[1]}"})
    assert cleared.status_code == 200
    assert [s["name"] for s in _seats(client, body["id"])] == [None, None]
