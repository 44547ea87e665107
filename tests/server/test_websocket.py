"""The WebSocket: the current view at once, then a push after every change; bad tokens refused."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect


def test_a_spectator_gets_the_current_view_at_once_and_every_change(table, client):
    t = table()
    with client.websocket_connect(f"/api/games/{t.id}/ws") as ws:
        first = ws.receive_json()
        assert first["version"] == 0 and first["seat"] is None and first["legal_actions"] == []
        for expected in (1, 2):
            view = t.mover_view()
            assert t.act(view["seat"], view["legal_actions"][0], view["version"]).status_code == 200
            pushed = ws.receive_json()
            assert pushed["version"] == expected and pushed["seat"] is None
            assert pushed["observation"] == t.view()["observation"]


def test_a_token_in_the_url_is_refused_and_closes_the_socket(table, client):
    """Issue 11: tokens never travel in URLs (logs, proxies, history keep them)."""
    t = table()
    mover = t.view()["current_player"]
    with client.websocket_connect(f"/api/games/{t.id}/ws?token={t.tokens[mover]}") as ws:
        refusal = ws.receive_json()["error"]
        assert refusal["status"] == 400 and "first message" in refusal["detail"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4400


def seat_socket(ws, token):
    """The spectator view comes at once; the token as first message turns it into the seat's."""
    assert ws.receive_json()["seat"] is None
    ws.send_json({"token": token})
    return ws.receive_json()


def test_a_token_as_first_message_switches_to_the_seat_view(table, client):
    t = table()
    mover = t.view()["current_player"]
    with client.websocket_connect(f"/api/games/{t.id}/ws") as ws:
        assert ws.receive_json()["seat"] is None
        ws.send_json({"token": t.tokens[mover]})
        view = ws.receive_json()
        assert view["seat"] == mover and view["legal_actions"]
        ws.send_json({"action": view["legal_actions"][0], "version": view["version"]})
        assert ws.receive_json()["version"] == 1


def test_websocket_errors_are_reported_and_change_nothing(table, client):
    t = table()
    mover = t.view()["current_player"]
    with client.websocket_connect(f"/api/games/{t.id}/ws") as ws:
        view = seat_socket(ws, t.tokens[mover])
        ws.send_text("{not json")
        assert ws.receive_json()["error"]["status"] == 400
        ws.send_bytes(b"\xff\xfe")
        assert ws.receive_json()["error"]["status"] == 400
        ws.send_text("x" * 20000)
        assert ws.receive_json()["error"]["status"] == 413
        ws.send_json({"action": "bogus move", "version": view["version"]})
        assert ws.receive_json()["error"]["status"] == 422
        ws.send_json({"action": view["legal_actions"][0], "version": 99})
        assert ws.receive_json()["error"]["status"] == 409
        ws.send_json({"token": "wrong"})
        assert ws.receive_json()["error"]["status"] == 401
        ws.send_json({"hello": 1})
        assert ws.receive_json()["error"]["status"] == 422
    assert t.view()["version"] == 0


def test_a_wrong_token_is_refused_and_the_socket_stays_a_spectator(table, client):
    t = table()
    with client.websocket_connect(f"/api/games/{t.id}/ws") as ws:
        assert ws.receive_json()["seat"] is None
        ws.send_json({"token": "nope"})
        assert ws.receive_json()["error"]["status"] == 401
        ws.send_json({"action": "pass", "version": 0})
        assert ws.receive_json()["error"]["status"] == 401
    assert t.view()["version"] == 0


def test_an_unknown_game_closes_the_socket(client):
    with client.websocket_connect("/api/games/nothing/ws") as ws:
        assert ws.receive_json()["error"]["status"] == 404
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_a_reconnecting_client_gets_the_current_view_at_once(table, client):
    t = table()
    mover = t.view()["current_player"]
    with client.websocket_connect(f"/api/games/{t.id}/ws") as ws:
        seat_socket(ws, t.tokens[mover])
    view = t.mover_view()
    t.act(view["seat"], view["legal_actions"][0], view["version"])
    with client.websocket_connect(f"/api/games/{t.id}/ws") as ws:
        again = seat_socket(ws, t.tokens[mover])
        assert again["version"] == 1 and again["observation"] == t.view(mover)["observation"]


def test_a_join_is_pushed(client):
    body = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"], "claim": [0]}).json()
    gid = body["id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["seats"][1]["free"]
        client.post(f"/api/games/{gid}/join")
        assert not ws.receive_json()["seats"][1]["free"]
