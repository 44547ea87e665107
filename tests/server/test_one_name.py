"""One name per person: the seats, the log's turns and a finished game's record (the replay viewer's)
name an account's seat by the account's name, and a guest's by the name it gave; a record of a table
without names stays the plain record."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient
from tables_helpers import bearer, person, view


def _play(
    device: TestClient, gid: str, tokens: dict[int, str], rng: random.Random, moves: int = 5000
) -> None:
    """Random legal moves for the seats of ``tokens``, until the end or ``moves`` moves."""
    for _ in range(moves):
        seen = view(device, gid)
        if seen["terminal"]:
            return
        seat = seen["current_player"]
        mine = view(device, gid, tokens[seat])
        r = device.post(
            f"/api/games/{gid}/actions",
            json={"action": rng.choice(mine["legal_actions"]), "version": mine["version"]},
            headers=bearer(tokens[seat]),
        )
        assert r.status_code == 200, r.text
    assert moves < 5000, "the game never ended"


def _named_table(client: TestClient) -> tuple[TestClient, str, dict[int, str]]:
    """ann (signed in: seat 0, the name she typed ignored) and a guest who gave the name Bo (seat 1)."""
    ann = person(client, "ann")
    body = {"game": "garum", "seats": ["human", "human"], "names": ["Typed", "Bo"]}
    r = ann.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    created = r.json()
    return ann, created["id"], {s["seat"]: s["token"] for s in created["seats"]}


def test_the_log_turns_name_the_account_and_the_guest_at_their_seats(client):
    ann, gid, tokens = _named_table(client)
    rng = random.Random(2)
    for _ in range(60):
        if {t["seat"] for t in view(ann, gid)["turns"]} >= {0, 1}:
            break
        _play(ann, gid, tokens, rng, moves=1)
    names = {t["seat"]: t["name"] for t in view(ann, gid)["turns"]}
    assert names == {0: "ann", 1: "Bo"}


def test_a_finished_games_record_names_its_seats_as_the_table_showed_them(client):
    ann, gid, tokens = _named_table(client)
    _play(ann, gid, tokens, random.Random(7))
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["names"] == ["ann", "Bo"]
    assert [s["name"] for s in view(client, gid)["seats"]] == record["names"]


def test_the_record_of_a_table_without_names_is_the_plain_record(client):
    created = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"]}).json()
    gid = created["id"]
    _play(client, gid, {s["seat"]: s["token"] for s in created["seats"]}, random.Random(8))
    assert set(client.get(f"/api/games/{gid}/record").json()) == {"game", "config", "seed", "actions"}
