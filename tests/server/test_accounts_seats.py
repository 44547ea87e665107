"""Accounts and seats: a signed-in creator or joiner holds the seat taken; a guest's seats, claimed when
the browser signs in, are played from another device with the session alone (HTTP and WebSocket); one
name per person (an account's seat shows its name, a deleted account's "deleted player"); "My games";
what the operator's ``ludus accounts`` does (list, ban, delete)."""

from __future__ import annotations

import time
from typing import Any

from click.testing import CliRunner
from fastapi.testclient import TestClient

from ludus.cli import main
from ludus.server.sessions import CACHE_SECONDS

PASSWORD = "correct horse battery"
GAME = {"game": "garum", "seats": ["human", "human"]}


def device(client: TestClient) -> TestClient:
    return TestClient(client.app)


def signed_up(client: TestClient, name: str) -> TestClient:
    r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return client


def signed_in(client: TestClient, name: str) -> TestClient:
    other = device(client)
    assert other.post("/api/session", json={"name": name, "password": PASSWORD}).status_code == 200
    return other


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = client.get(f"/api/games/{game_id}", headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


def play(client: TestClient, game_id: str, token: str | None = None) -> Any:
    """The caller's first legal move (its seat must be to move)."""
    seen = view(client, game_id, token)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(
        f"/api/games/{game_id}/actions",
        json={"action": seen["legal_actions"][0], "version": seen["version"]},
        headers=headers,
    )


def to_move(client: TestClient, game_id: str, seat: int, tokens: dict[int, str]) -> None:
    """Play the other seats (by their tokens) until ``seat`` is to move."""
    for _ in range(50):
        current = view(client, game_id)["current_player"]
        if current == seat:
            return
        assert play(client, game_id, tokens[current]).status_code == 200
    raise AssertionError(f"seat {seat} never came to move")


def cli(*args: str) -> Any:
    return CliRunner().invoke(main, ["accounts", *args], prog_name="ludus")


def test_a_signed_in_creator_holds_the_first_human_seat_and_is_shown_by_its_name(client):
    signed_up(client, "Alice")
    created = client.post("/api/games", json={**GAME, "names": ["Typed", "Bo"]}).json()
    assert [s["name"] for s in created["seats"]] == ["Alice", "Bo"]
    seen = view(client, created["id"])  # the session alone names the seat
    assert seen["seat"] == 0
    assert [(s["name"], s["account"]) for s in seen["seats"]] == [("Alice", True), ("Bo", False)]
    assert [s["name"] for s in view(device(client), created["id"])["seats"]] == ["Alice", "Bo"]
    renamed = client.post(f"/api/games/{created['id']}/name", json={"name": "Someone Else"})
    assert renamed.status_code == 403 and "account's name" in renamed.json()["detail"]
    by_token = client.post(
        f"/api/games/{created['id']}/name",
        json={"name": "Someone Else"},
        headers={"Authorization": f"Bearer {created['seats'][0]['token']}"},
    )
    assert by_token.status_code == 403  # one name per person, however the seat is named


def test_a_guests_seats_claimed_at_sign_in_are_played_from_another_device_with_the_session_alone(client):
    guest = client
    created = guest.post("/api/games", json=GAME).json()
    game_id = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    to_move(guest, game_id, 1, tokens)
    assert play(guest, game_id, tokens[1]).status_code == 200  # played as a guest first
    signed_up(guest, "alice")
    claimed = guest.post("/api/me/claim", json={"tokens": [tokens[0], "no-such-token"]})
    assert claimed.status_code == 200, claimed.text
    assert claimed.json() == {"claimed": [{"id": game_id, "seat": 0}], "held": [], "refused": 1}
    again = guest.post("/api/me/claim", json={"tokens": [tokens[0]]}).json()
    assert again["held"] == [{"id": game_id, "seat": 0}] and not again["claimed"]
    phone = signed_in(guest, "alice")  # another device: no token at all
    assert view(phone, game_id)["seat"] == 0
    to_move(phone, game_id, 0, tokens)
    played = play(phone, game_id)
    assert played.status_code == 200, played.text
    assert (
        played.json()["seat"] == 0 and view(phone, game_id, tokens[0])["seat"] == 0
    )  # the token still works
    to_move(phone, game_id, 0, tokens)
    # The socket from the client that runs the app's lifespan (another TestClient of the same app would
    # run it on an event loop of its own, which the hub's pushes do not wake); it, too, sends no token:
    # its session alone opens the seat.
    with guest.websocket_connect(f"/api/games/{game_id}/ws") as ws:  # the first view is the seat's already
        first = ws.receive_json()
        assert first["seat"] == 0 and first["legal_actions"]
        ws.send_json({"action": first["legal_actions"][0], "version": first["version"]})
        pushed = ws.receive_json()
        assert pushed.get("seat") == 0 and pushed["version"] > first["version"], pushed
    with guest.websocket_connect(
        f"/api/games/{game_id}/ws", headers={"Origin": "https://evil.example"}
    ) as ws:
        assert ws.receive_json()["seat"] is None  # another site's page gets no seat of the session


def test_a_claim_leaves_another_accounts_seat_and_a_second_seat_of_one_game(client):
    created = client.post("/api/games", json=GAME).json()
    tokens = [s["token"] for s in created["seats"]]
    signed_up(client, "alice")
    first = client.post("/api/me/claim", json={"tokens": tokens}).json()
    assert len(first["claimed"]) == 1 and first["refused"] == 1  # one seat a game for one account
    bob = signed_up(device(client), "bob")
    taken = first["claimed"][0]["seat"]
    answer = bob.post("/api/me/claim", json={"tokens": [tokens[taken]]}).json()
    assert answer == {"claimed": [], "held": [], "refused": 1}
    assert view(bob, created["id"])["seat"] is None


def test_a_claim_is_bounded_and_needs_a_session(client):
    assert client.post("/api/me/claim", json={"tokens": []}).status_code == 401
    signed_up(client, "alice")
    assert client.post("/api/me/claim", json={"tokens": ["x"] * 101}).status_code == 422
    assert client.post("/api/me/claim", json={"tokens": ["x" * 129]}).status_code == 422


def test_joining_signed_in_holds_the_seat_and_the_same_account_cannot_join_twice(client):
    created = client.post("/api/games", json={**GAME, "claim": [0]}).json()
    bob = signed_up(device(client), "bob")
    joined = bob.post(f"/api/games/{created['id']}/join", json={"name": "Someone"})
    assert joined.status_code == 200, joined.text
    seen = view(bob, created["id"])
    assert seen["seat"] == 1 and seen["seats"][1]["name"] == "bob" and seen["seats"][1]["account"]
    three = client.post("/api/games", json={"game": "garum", "seats": ["human"] * 3, "claim": [0]}).json()
    assert bob.post(f"/api/games/{three['id']}/join").status_code == 200
    again = bob.post(f"/api/games/{three['id']}/join")
    assert again.status_code == 409 and "already holds Seat" in again.json()["detail"]


def test_a_session_without_a_seat_sees_the_spectator_view_and_cannot_act(client):
    created = client.post("/api/games", json=GAME).json()
    carol = signed_up(device(client), "carol")
    assert view(carol, created["id"])["seat"] is None
    version = view(carol, created["id"])["version"]
    refused = carol.post(f"/api/games/{created['id']}/actions", json={"action": "x", "version": version})
    assert refused.status_code == 403 and "holds no seat" in refused.json()["detail"]
    assert carol.post(f"/api/games/{created['id']}/leave").status_code == 403
    bad = carol.get(f"/api/games/{created['id']}", headers={"Authorization": "Bearer wrong"})
    assert bad.status_code == 401  # a wrong token is refused, whatever session comes with it


def test_my_games_lists_the_accounts_games_with_whose_turn_it_is(client):
    alice = signed_up(client, "alice")
    assert alice.get("/api/me/games").json() == []
    created = alice.post("/api/games", json={**GAME, "claim": [0]}).json()
    bob = signed_up(device(client), "bob")
    assert bob.post(f"/api/games/{created['id']}/join").status_code == 200
    current = view(alice, created["id"])["current_player"]
    mine = {0: alice, 1: bob}
    listed = mine[current].get("/api/me/games").json()
    assert [(g["id"], g["status"], g["seat"]) for g in listed] == [(created["id"], "your_turn", current)]
    assert [s["name"] for s in listed[0]["seats"]] == ["alice", "bob"]
    other = mine[1 - current].get("/api/me/games").json()
    assert [(g["id"], g["status"]) for g in other] == [(created["id"], "waiting")]
    stranger = device(client)
    stranger.cookies.set("ludus_session", "nobody's")
    assert stranger.get("/api/me/games").status_code == 401


def test_the_operator_lists_bans_and_lifts_a_ban(client, database_url):
    alice = signed_up(client, "alice")
    assert "alice" in cli("list", "--database", database_url).output
    banned = cli("ban", "ALICE", "--database", database_url)
    assert banned.exit_code == 0 and "alice is banned" in banned.output
    start = time.time()
    alice.app.state.sessions.clock = lambda: start + CACHE_SECONDS + 1  # this process's memory lapsed
    assert alice.get("/api/me").status_code == 401  # its sessions ended
    refused = device(client).post("/api/session", json={"name": "alice", "password": PASSWORD})
    assert refused.status_code == 403 and "banned" in refused.json()["detail"]
    wrong = device(client).post("/api/session", json={"name": "alice", "password": "not the password"})
    assert wrong.status_code == 401  # the ban is told only to the one who knows the password
    assert "banned" in cli("list", "--database", database_url).output
    assert cli("unban", "alice", "--database", database_url).exit_code == 0
    assert (
        device(client).post("/api/session", json={"name": "alice", "password": PASSWORD}).status_code == 200
    )
    missing = cli("ban", "nobody", "--database", database_url)
    assert missing.exit_code == 2 and "no account 'nobody'" in missing.output


def test_a_deleted_accounts_games_stay_with_its_seat_shown_as_deleted_player(client, database_url):
    alice = signed_up(client, "alice")
    created = alice.post("/api/games", json={**GAME, "claim": [0]}).json()
    assert (
        cli("delete", "alice", "--database", database_url).exit_code == 1
    )  # asks first: no answer, nothing done
    deleted = cli("delete", "alice", "--yes", "--database", database_url)
    assert deleted.exit_code == 0, deleted.output
    seen = view(device(client), created["id"])
    assert seen["seats"][0]["name"] == "deleted player" and seen["seats"][0]["account"]
    listed = {g["id"]: g for g in client.get("/api/games").json()}[created["id"]]
    assert listed["seats"][0]["name"] == "deleted player"
    assert (
        device(client).post("/api/session", json={"name": "alice", "password": PASSWORD}).status_code == 401
    )
    again = signed_up(device(client), "alice")  # the name is free again, for another person
    assert view(again, created["id"])["seat"] is None
    assert view(again, created["id"])["seats"][0]["name"] == "deleted player"
    assert "alice" in cli("list", "--database", database_url).output


def test_a_signed_in_seat_holder_is_drawn_its_own_board_by_the_session_alone(client):
    """A signed-in player's page holds no seat token: the board (SVG) route knows the seat by the session,
    as the view does, and draws that seat's board, not the spectators'."""
    signed_up(client, "alice")
    created = client.post("/api/games", json={"game": "celtae", "seats": ["human", "human"]}).json()
    token = created["seats"][0]["token"]
    version = view(client, created["id"])["version"]
    by_session = client.get(f"/api/games/{created['id']}/svg?version={version}")
    by_token = device(client).get(
        f"/api/games/{created['id']}/svg?version={version}", headers={"Authorization": f"Bearer {token}"}
    )
    spectator = device(client).get(f"/api/games/{created['id']}/svg?version={version}")
    assert by_session.status_code == by_token.status_code == spectator.status_code == 200
    assert by_session.text == by_token.text != spectator.text
