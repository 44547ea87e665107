"""Ratings: a finished rated game between two accounts moves both ratings (the winner's up, the loser's
down) and the leaderboard lists both; an end settled twice (or by another process) counts once; a tie
shares a place; a seat that left is last; a rated table is every seat a signed-in person's (a bot seat
422 unless the operator allows them, a guest's join 403); a player's page lists games, results, history."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any
from unittest.mock import patch

import pytest
from fastapi.testclient import TestClient

from ludus.server import create_app
from ludus.server.ratings import Ratings, places
from ludus.server.settings import Settings

PASSWORD = "correct horse battery"
RATED = {"game": "garum", "seats": ["human", "human"], "claim": [0], "rated": True}
WON_DEAL = 5  # a seed whose game, each seat playing its first legal action, seat 0 wins alone


def account(client: TestClient, name: str) -> TestClient:
    """A browser of its own, signed up as ``name``."""
    browser = TestClient(client.app)
    r = browser.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return browser


def rated_game(client: TestClient) -> tuple[str, TestClient, TestClient]:
    """A rated two-seat game: alice (seat 0) created it, bob (seat 1) joined; both by their sessions."""
    alice, bob = account(client, "alice"), account(client, "bob")
    r = alice.post("/api/games", json=RATED)
    assert r.status_code == 201 and r.json()["rated"] is True, r.text
    gid = r.json()["id"]
    assert bob.post(f"/api/games/{gid}/join").json()["seat"] == 1
    return gid, alice, bob


def play_out(client: TestClient, gid: str, players: dict[int, TestClient]) -> dict[str, Any]:
    """Play each seat's first legal action (by its session) until the game is over; the last view."""
    for _ in range(2000):
        view = client.get(f"/api/games/{gid}").json()
        if view["terminal"]:
            return view
        seat = view["current_player"]
        if seat not in players:  # a bot's turn
            time.sleep(0.02)
            continue
        mine = players[seat].get(f"/api/games/{gid}").json()
        if not mine["legal_actions"]:
            continue
        r = players[seat].post(
            f"/api/games/{gid}/actions", json={"action": mine["legal_actions"][0], "version": mine["version"]}
        )
        assert r.status_code in (200, 409), r.text
    raise AssertionError("the game did not end")


def board(client: TestClient, expected: int, seconds: float = 30.0) -> list[dict[str, Any]]:
    """The garum leaderboard once it lists ``expected`` players (ratings move in a thread of their own)."""
    deadline = time.monotonic() + seconds
    rows: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        rows = client.get("/api/ratings/garum").json()
        if len(rows) >= expected:
            return rows
        time.sleep(0.05)
    raise AssertionError(f"the leaderboard never listed {expected} players: {rows}")


def test_places_share_equal_results_and_put_leavers_last():
    assert places([1.0, 0.0], set()) == [1, 2]
    assert places([0.5, 0.5], set()) == [1, 1]
    assert places([3, 7, 7, 1], set()) == [3, 1, 1, 4]
    assert places([1.0, 0.0, 0.0], {0}) == [3, 1, 1]
    assert places([1.0, 0.0, 0.5], {0, 1}) == [2, 2, 1]


def test_a_finished_rated_game_moves_the_winner_up_and_the_loser_down_and_the_leaderboard_lists_both(client):
    # a deal that first-legal-action play ends with one winner (seat 0 by 18 points): the server's own
    # random deal sometimes ended in a tie, which the tie test covers
    with patch("ludus.server.lobby.secrets", SimpleNamespace(randbits=lambda bits: WON_DEAL)):
        gid, alice, bob = rated_game(client)
    final = play_out(client, gid, {0: alice, 1: bob})
    assert final["winners"] == [0], final.get("scores")  # the deal's known result
    winner, loser = "alice", "bob"
    rows = board(client, 2)
    assert [row["name"] for row in rows] == [winner, loser]
    assert all(row["games"] == 1 for row in rows)
    by_name = {row["name"]: row for row in rows}
    assert by_name[winner]["mu"] > 25 > by_name[loser]["mu"]
    assert by_name[winner]["rating"] > 0 > by_name[loser]["rating"]
    page = client.get(f"/api/players/{winner.upper()}").json()  # a name in any case
    assert page["name"] == winner
    assert page["ratings"] == [{"game": "garum", "rating": by_name[winner]["rating"], "games": 1}]
    assert [(h["game_id"], h["place"], h["players"]) for h in page["history"]] == [(gid, 1, 2)]
    assert [(g["id"], g["rated"], g["place"], g["status"]) for g in page["games"]] == [(gid, True, 1, "over")]
    seated = client.get(f"/api/games/{gid}/ratings").json()
    assert seated["rated"] is True and {s["seat"] for s in seated["seats"]} == {0, 1}


def test_a_game_end_settled_twice_or_by_another_process_counts_once(client):
    gid, alice, bob = rated_game(client)
    play_out(client, gid, {0: alice, 1: bob})
    before = board(client, 2)
    ratings: Ratings = client.app.state.ratings
    assert ratings.settle(gid) is False
    assert Ratings(client.app.state.service.games).settle(gid) is False  # another process's, say
    assert client.get("/api/ratings/garum").json() == before
    assert len(client.get("/api/players/alice").json()["history"]) == 1


def test_a_tie_shares_a_place_and_moves_equal_ratings_alike(client):
    gid, _, _ = rated_game(client)

    class Tied:
        def is_terminal(self) -> bool:
            return True

        def returns(self) -> list[float]:
            return [0.5, 0.5]

    games = client.app.state.service.games
    rt = games.read(gid)
    with rt.lock:
        rt.state = Tied()  # the game's end, as a tie no real game here makes on demand
    assert client.app.state.ratings.settle(gid) is True
    rows = client.get("/api/ratings/garum").json()
    assert len(rows) == 2 and rows[0]["mu"] == rows[1]["mu"] == 25 and rows[0]["rating"] == rows[1]["rating"]
    assert [h["place"] for h in client.get("/api/players/bob").json()["history"]] == [1]


def test_a_seat_that_left_a_rated_game_counts_last(client):
    gid, alice, bob = rated_game(client)
    assert bob.post(f"/api/games/{gid}/leave").status_code == 200
    play_out(client, gid, {0: alice})
    rows = board(client, 2)
    assert [row["name"] for row in rows] == ["alice", "bob"]
    assert client.get("/api/players/bob").json()["history"][0]["place"] == 2


def test_a_rated_table_with_a_bot_seat_is_422_unless_the_server_allows_bots(client, database_url):
    alice = account(client, "alice")
    with_bot = {"game": "garum", "seats": ["human", "human", "random"], "claim": [0], "rated": True}
    r = alice.post("/api/games", json=with_bot)
    assert r.status_code == 422 and "bot" in r.json()["detail"], r.text
    settings = Settings(bot_seconds=0.05, rated_bots_allowed=True)
    with TestClient(create_app(database_url, settings=settings)) as allowing:
        signed = TestClient(allowing.app, cookies=alice.cookies)
        r = signed.post("/api/games", json=with_bot)
        assert r.status_code == 201 and r.json()["rated"] is True, r.text


@pytest.mark.parametrize(
    "body, reason",
    [
        ({"seats": ["human", "human"], "claim": [0, 1]}, "takes one seat"),
        ({"seats": ["human", "human"], "rated": "yes"}, "bool"),
    ],
)
def test_a_rated_table_breaking_a_rule_is_422_with_the_rule(client, body, reason):
    alice = account(client, "alice")
    r = alice.post("/api/games", json={"game": "garum", "rated": True, **body})
    assert r.status_code == 422 and reason in r.text, r.text


def test_a_guest_neither_creates_nor_joins_a_rated_table_and_unrated_is_the_default_for_guests(client):
    r = client.post("/api/games", json={**RATED})
    assert r.status_code == 422 and "signed-in" in r.json()["detail"]
    assert (
        client.post("/api/games", json={"game": "garum", "seats": ["human", "human"]}).json()["rated"]
        is False
    )
    alice = account(client, "alice")
    gid = alice.post("/api/games", json=RATED).json()["id"]
    r = TestClient(client.app).post(f"/api/games/{gid}/join")
    assert r.status_code == 403 and "rated" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}/ratings").json() == {
        "rated": True,
        "bots_allowed": False,
        "seats": [],
    }


def test_unknown_games_and_players_are_404_and_pages_are_bounded(client):
    assert client.get("/api/ratings/chess").status_code == 404
    assert client.get("/api/ratings/garum").json() == []
    assert client.get("/api/players/nobody").status_code == 404
    assert client.get("/api/players/" + "x" * 65).status_code == 422
    assert client.get("/api/ratings/garum?limit=0").status_code == 422
    assert client.get("/api/ratings/garum?limit=101").status_code == 422
