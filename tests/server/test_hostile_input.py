"""Input a hostile client sends: every refusal is a 4xx with a JSON reason and changes nothing.

Seat kinds are stored in one spelling and bounded; numbers are checked for range before any
arithmetic; versions and claims are real JSON integers; WebSocket messages have the HTTP
limits and a bad frame gets an error, not a dead socket; a busy database answers 503 with
Retry-After; an unexpected error answers JSON with an id that the log carries too.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ludus.server import create_app
from ludus.server.settings import Settings

BOT_SECONDS = 0.05


def _create(client, seats, **options):
    return client.post("/api/games", json={"game": "garum", "options": options, "seats": seats})


def _lobby_ids(client) -> set[str]:
    return {g["id"] for g in client.get("/api/games").json()}


def _refused(response, status: int) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail
    return detail


def test_seat_kinds_are_stored_in_their_canonical_spelling(client):
    r = _create(client, ["human", "  greedy\t", " ismcts: seconds = 3.0 "], board="baelo_claudia")
    assert r.status_code == 201, r.text
    created = r.json()
    assert [s["kind"] for s in created["seats"]] == ["human", "greedy", "ismcts:seconds=3"]
    view = client.get(f"/api/games/{created['id']}").json()
    assert [s["kind"] for s in view["seats"]] == ["human", "greedy", "ismcts:seconds=3"]


@pytest.mark.parametrize("kind", ["greedy" + " " * 40, "ismcts:seconds=3" + "0" * 20, "x" * 33])
def test_a_seat_kind_over_32_characters_is_refused_and_stores_nothing(client, kind):
    before = _lobby_ids(client)
    assert "32" in _refused(_create(client, ["human", "human", kind]), 422)
    assert _lobby_ids(client) == before


def test_a_kind_padded_with_65000_spaces_is_refused(client):
    r = _create(client, ["human", "human", "greedy" + " " * 65_000])
    _refused(r, r.status_code)
    assert r.status_code in (413, 422)


@pytest.mark.parametrize("seconds", [10**400, -(10**400), 1e308 * 10, "60", True])
def test_turn_seconds_out_of_range_is_refused_before_any_arithmetic(client, seconds):
    before = _lobby_ids(client)
    r = client.post(
        "/api/games",
        content=f'{{"game": "garum", "seats": ["human", "human"], '
        f'"options": {{"turn_seconds": {_json(seconds)}}}}}',
        headers={"content-type": "application/json"},
    )
    assert "turn_seconds" in _refused(r, 422)
    assert _lobby_ids(client) == before


def _json(value) -> str:
    import json

    return (
        json.dumps(value)
        if not isinstance(value, float) or value == value and abs(value) < 1e309
        else "1e400"
    )


@pytest.mark.parametrize("version", ["0", False, 0.0, None, [0], 2**70])
def test_an_action_version_must_be_a_real_integer(table, version):
    t = table()
    view = t.mover_view()
    r = t.client.post(
        f"/api/games/{t.id}/actions",
        json={"action": view["legal_actions"][0], "version": version},
        headers=t.auth(view["seat"]),
    )
    assert "version" in _refused(r, 422)
    assert t.view()["version"] == 0 and t.view()["ply"] == 0


@pytest.mark.parametrize("version", ["0", False, 0.0])
def test_an_undo_version_must_be_a_real_integer(table, version):
    t = table()
    view = t.mover_view()
    assert t.act(view["seat"], view["legal_actions"][0], 0).status_code == 200
    r = t.client.post(f"/api/games/{t.id}/undo", json={"version": version}, headers=t.auth(view["seat"]))
    assert "version" in _refused(r, 422)
    assert t.view()["version"] == 1


@pytest.mark.parametrize("claim", [["0"], [False], [0.0], [10**30]])
def test_claim_must_name_seats_by_real_integers(client, claim):
    before = _lobby_ids(client)
    r = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"], "claim": claim})
    assert "claim" in _refused(r, 422)
    assert _lobby_ids(client) == before


# -- the WebSocket --------------------------------------------------------------------------------
def _error(ws) -> dict:
    message = ws.receive_json()
    assert "error" in message, message
    return message["error"]


def test_a_websocket_action_has_the_http_length_cap(table, client):
    t = table()
    mover = t.view()["current_player"]
    with client.websocket_connect(f"/api/games/{t.id}/ws") as ws:
        ws.receive_json()
        ws.send_json({"token": t.tokens[mover]})
        assert ws.receive_json()["seat"] == mover
        ws.send_json({"action": "x" * 501, "version": 0})
        error = _error(ws)
        assert error["status"] == 422 and "500" in error["detail"]
        ws.send_json({"action": "x" * 15_000, "version": 0})
        assert _error(ws)["status"] == 422
        ws.send_json({"action": t.view(mover)["legal_actions"][0], "version": "0"})
        assert _error(ws)["status"] == 422
    assert t.view()["version"] == 0


@pytest.mark.parametrize(
    "frame", ["[" * 8000 + "]" * 8000, '{"action": ' * 1400, "not json", "\ud800", "[1, 2]"]
)
def test_a_bad_websocket_frame_gets_an_error_and_the_socket_lives_on(table, client, frame):
    t = table()
    mover = t.view()["current_player"]
    with client.websocket_connect(f"/api/games/{t.id}/ws") as ws:
        ws.receive_json()
        ws.send_text(frame)
        assert _error(ws)["status"] in (400, 422)
        ws.send_json({"token": t.tokens[mover]})  # still served
        assert ws.receive_json()["seat"] == mover


def test_an_oversize_websocket_frame_is_refused(table, client):
    t = table()
    with client.websocket_connect(f"/api/games/{t.id}/ws") as ws:
        ws.receive_json()
        ws.send_bytes(b'{"token": "' + b"a" * 20_000 + b'"}')
        assert _error(ws)["status"] == 413
        ws.send_json({"token": "a" * 200})
        assert _error(ws)["status"] == 422


def test_an_unexpected_websocket_error_is_logged_with_an_id_and_closes_the_socket(
    table, client, monkeypatch, caplog
):
    from starlette.websockets import WebSocketDisconnect

    t = table()
    service = client.app.state.service

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    with (
        client.websocket_connect(f"/api/games/{t.id}/ws") as ws,
        caplog.at_level(logging.ERROR, "ludus.server"),
    ):
        ws.receive_json()
        monkeypatch.setattr(service, "view_and_seat", broken)
        ws.send_json({"token": t.tokens[0]})
        error = _error(ws)
        assert error["status"] == 500 and error["error_id"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1011
    assert any(error["error_id"] in r.getMessage() and r.exc_info for r in caplog.records)


# -- busy database and unexpected errors ------------------------------------------------------------
def test_a_locked_sqlite_database_answers_503_with_retry_after(tmp_path: Path):
    db = tmp_path / "ludus.db"
    busy = Settings(bot_seconds=BOT_SECONDS, db_busy_seconds=0.2)
    with TestClient(create_app(f"sqlite:///{db}", settings=busy)) as client:
        before = _lobby_ids(client)
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            r = _create(client, ["human", "human"])
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert "busy" in _refused(r, 503)
        assert int(r.headers["retry-after"]) >= 1
        assert _lobby_ids(client) == before
        assert _create(client, ["human", "human"]).status_code == 201  # and it recovers


def test_a_row_locked_too_long_on_postgresql_answers_503_with_retry_after(postgres_url):
    """A transaction elsewhere holding a game's row: the wait ends (lock_timeout) in a 503, not a hang."""
    import psycopg

    busy = Settings(bot_seconds=BOT_SECONDS, db_busy_seconds=0.3)
    with TestClient(create_app(postgres_url, settings=busy)) as client:
        created = _create(client, ["human", "human"]).json()
        gid = created["id"]
        mover = client.get(f"/api/games/{gid}").json()["current_player"]
        auth = {"Authorization": f"Bearer {created['seats'][mover]['token']}"}
        view = client.get(f"/api/games/{gid}", headers=auth).json()
        libpq = postgres_url.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(libpq) as other:
            other.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (gid,))
            r = client.post(
                f"/api/games/{gid}/actions",
                headers=auth,
                json={"action": view["legal_actions"][0], "version": view["version"]},
            )
            other.rollback()
        assert "busy" in _refused(r, 503)
        assert int(r.headers["retry-after"]) >= 1
        assert client.get(f"/api/games/{gid}").json()["version"] == view["version"]


def test_an_unexpected_error_answers_json_with_an_id_that_the_log_carries(client, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(client.app.state.service.lobby, "open_games", broken)
    with caplog.at_level(logging.ERROR, "ludus.server"):
        r = client.get("/api/games")
    assert r.status_code == 500 and r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert set(body) == {"detail", "error_id"} and "a bug" not in body["detail"]
    logged = [rec for rec in caplog.records if body["error_id"] in rec.getMessage()]
    assert logged and logged[0].exc_info and "a bug" in str(logged[0].exc_info[1])
