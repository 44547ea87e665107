"""Table chat: a seated player's message is stored and pushed live to everyone at the table, spectators
only read, text is bounded and kept as sent, the rate is limited per seat, a mute hides a seat's messages
from the seat that muted it, and a message reaches another server process's WebSockets (PostgreSQL)."""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from ludus.server import create_app
from ludus.server.settings import Settings

GAME = {"game": "garum", "seats": ["human", "human"]}


def receive(ws: Any, seconds: float = 10.0) -> dict[str, Any]:
    """The socket's next message, failing the test after ``seconds`` instead of waiting for ever."""

    async def timed() -> Any:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    message = ws.portal.call(timed)
    return json.loads(message["text"])


def chat_of(ws: Any) -> dict[str, Any]:
    """The next chat message pushed on ``ws`` (views before it are passed over)."""
    for _ in range(20):
        pushed = receive(ws)
        if "chat" in pushed:
            return pushed["chat"]
    raise AssertionError("no chat message was pushed")


def new_game(client: TestClient) -> tuple[str, dict[int, dict[str, str]]]:
    created = client.post("/api/games", json=GAME).json()
    return created["id"], {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created["seats"]}


def say(client: TestClient, gid: str, text: str, headers: dict[str, str] | None = None) -> httpx.Response:
    return client.post(f"/api/games/{gid}/chat", json={"text": text}, headers=headers or {})


def test_a_message_of_one_seat_arrives_live_on_the_other_seats_socket_and_in_the_list(client):
    gid, auth = new_game(client)
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert receive(ws)["seat"] is None
        ws.send_json({"token": auth[1]["Authorization"].split()[1]})
        assert receive(ws)["seat"] == 1
        r = say(client, gid, "  good luck\nhave fun  ", auth[0])
        assert r.status_code == 201, r.text
        sent = r.json()
        assert sent["text"] == "good luck\nhave fun" and sent["seat"] == 0
        assert chat_of(ws) == sent
    listed = client.get(f"/api/games/{gid}/chat").json()
    assert listed == [sent]


def test_markup_is_kept_as_text(client):
    gid, auth = new_game(client)
    markup = '<img src=x onerror="alert(1)"> & <b>bold</b>'
    assert say(client, gid, markup, auth[1]).json()["text"] == markup
    assert client.get(f"/api/games/{gid}/chat").json()[0]["text"] == markup


def test_a_spectator_reads_but_cannot_write(client):
    gid, auth = new_game(client)
    say(client, gid, "hello", auth[0])
    assert [m["text"] for m in client.get(f"/api/games/{gid}/chat").json()] == ["hello"]
    r = say(client, gid, "I am only watching")
    assert r.status_code == 403 and "spectators" in r.json()["detail"]
    assert say(client, gid, "wrong token", {"Authorization": "Bearer nope"}).status_code == 401
    assert len(client.get(f"/api/games/{gid}/chat").json()) == 1


def test_an_account_writes_with_its_session_shown_by_its_name_and_one_without_a_seat_is_refused(client):
    assert (
        client.post("/api/accounts", json={"name": "Alice", "password": "correct horse battery"}).status_code
        == 201
    )
    gid = client.post("/api/games", json=GAME).json()["id"]  # the signed-in creator holds seat 0
    r = say(client, gid, "hi from Alice")
    assert r.status_code == 201 and r.json()["name"] == "Alice" and r.json()["seat"] == 0
    other = TestClient(client.app)
    assert (
        other.post("/api/accounts", json={"name": "Bob", "password": "correct horse battery"}).status_code
        == 201
    )
    assert say(other, gid, "not my table").status_code == 403


@pytest.mark.parametrize(
    "text, reason",
    [
        ("x" * 501, "at most 500"),
        ("   ", "needs some text"),
        ("bell\x07", "control"),
        ("cr\r\nlf", "control"),
    ],
)
def test_a_bad_message_is_422_with_a_reason_and_stores_nothing(client, text, reason):
    gid, auth = new_game(client)
    r = say(client, gid, text, auth[0])
    assert r.status_code == 422 and reason in r.json()["detail"], r.text
    assert client.get(f"/api/games/{gid}/chat").json() == []


def test_500_characters_and_every_script_are_accepted(client):
    gid, auth = new_game(client)
    assert say(client, gid, "é" * 500, auth[0]).status_code == 201
    assert say(client, gid, "שלום 👩‍👩‍👧 你好", auth[0]).status_code == 201


def test_posts_over_the_rate_are_429_with_retry_after_and_the_other_seat_may_still_write(database_url):
    settings = Settings(bot_seconds=0.05, chat_rate="3/minute")
    with TestClient(create_app(database_url, settings=settings)) as client:
        gid, auth = new_game(client)
        for i in range(3):
            assert say(client, gid, f"message {i}", auth[0]).status_code == 201
        r = say(client, gid, "one too many", auth[0])
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1, r.text
        assert say(client, gid, "my turn to talk", auth[1]).status_code == 201
        assert len(client.get(f"/api/games/{gid}/chat").json()) == 4


def test_a_mute_hides_the_muted_seats_messages_from_the_seat_that_muted_only(client):
    gid, auth = new_game(client)
    say(client, gid, "from seat 0", auth[0])
    say(client, gid, "from seat 1", auth[1])
    r = client.post(f"/api/games/{gid}/chat/mute", json={"seat": 0, "muted": True}, headers=auth[1])
    assert r.status_code == 200 and r.json() == {"muted": [0]}
    texts = lambda headers: [m["text"] for m in client.get(f"/api/games/{gid}/chat", headers=headers).json()]  # noqa: E731
    assert texts(auth[1]) == ["from seat 1"]
    assert texts(auth[0]) == ["from seat 0", "from seat 1"]
    assert texts({}) == ["from seat 0", "from seat 1"]
    assert client.get(f"/api/games/{gid}/chat/mute", headers=auth[1]).json() == {"muted": [0]}
    client.post(f"/api/games/{gid}/chat/mute", json={"seat": 0, "muted": False}, headers=auth[1])
    assert texts(auth[1]) == ["from seat 0", "from seat 1"]


def test_bad_mutes_are_refused(client):
    gid, auth = new_game(client)
    mute = lambda body, headers: client.post(f"/api/games/{gid}/chat/mute", json=body, headers=headers)  # noqa: E731
    assert mute({"seat": 0}, auth[0]).status_code == 422  # oneself
    assert mute({"seat": 5}, auth[0]).status_code == 422  # no such seat
    assert mute({"seat": "1"}, auth[0]).status_code == 422
    assert mute({"seat": 1}, {}).status_code == 403  # a spectator
    assert client.get(f"/api/games/{gid}/chat/mute").json() == {"muted": []}


def test_an_unknown_game_is_404(client):
    assert client.get("/api/games/nope/chat").status_code == 404
    assert say(client, "nope", "hello", {"Authorization": "Bearer x"}).status_code == 404


@pytest.mark.slow
def test_a_message_posted_through_one_process_reaches_a_websocket_of_the_other(postgres_url, server_process):
    a, b = server_process(postgres_url, count=2)
    with httpx.Client(timeout=10) as http:
        body = http.post(f"{a.base}/api/games", json=GAME).json()
        gid, token = body["id"], body["seats"][0]["token"]
        with connect(f"ws://127.0.0.1:{b.port}/api/games/{gid}/ws", open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["version"] == 0
            r = http.post(
                f"{a.base}/api/games/{gid}/chat",
                json={"text": "across processes"},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert r.status_code == 201, r.text
            pushed = json.loads(ws.recv(timeout=10))
            assert pushed == {"chat": r.json()}
