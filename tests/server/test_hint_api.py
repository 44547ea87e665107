"""GET /api/games/{id}/hint: the seat to move only, rate-limited per seat, off when the creator says so."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from ludus.server import create_app
from ludus.server.settings import Settings


@pytest.fixture
def hint_client(tmp_path):
    """An app whose hints are quick and limited to 2 a minute per seat."""
    quick = Settings(bot_seconds=0.05, hint_rate="2/minute", hint_seconds=0.3)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'hints.db'}", settings=quick)) as client:
        yield client


def _game(client, game="garum", seats=("human", "human"), **options):
    created = client.post("/api/games", json={"game": game, "seats": list(seats), "options": options})
    assert created.status_code == 201, created.text
    body = created.json()
    tokens = {s["seat"]: s["token"] for s in body["seats"] if "token" in s}
    return body, tokens


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize(
    "game, seats, options",
    [
        ("garum", ("human", "human"), {}),
        ("celtae", ("human", "human", "human"), {}),
        ("celtae", ("human",), {"difficulty": "hard"}),
    ],
)
def test_the_seat_to_move_gets_legal_hints_best_first(hint_client, game, seats, options):
    body, tokens = _game(hint_client, game, seats, **options)
    view = hint_client.get(f"/api/games/{body['id']}").json()
    mover = view["current_player"]
    legal = hint_client.get(f"/api/games/{body['id']}", headers=_auth(tokens[mover])).json()["legal_actions"]
    r = hint_client.get(f"/api/games/{body['id']}/hint", params={"n": 2}, headers=_auth(tokens[mover]))
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["seat"] == mover and answer["version"] == view["version"]
    assert 1 <= len(answer["hints"]) <= 2
    assert all(h["action"] in legal and h["why"] for h in answer["hints"])
    assert all(h["sentence"] and h["value_text"].startswith("you'd finish") for h in answer["hints"])
    values = [h["value"] for h in answer["hints"]]
    assert values == sorted(values, reverse=True)
    assert "margin" in answer["value"]


def test_only_the_seat_to_move_may_ask(hint_client):
    body, tokens = _game(hint_client, "garum", ("human", "human", "human"))
    url = f"/api/games/{body['id']}/hint"
    mover = hint_client.get(f"/api/games/{body['id']}").json()["current_player"]
    for seat, token in tokens.items():
        if seat != mover:
            r = hint_client.get(url, headers=_auth(token))
            assert r.status_code == 403 and "turn" in r.json()["detail"]
    assert hint_client.get(url).status_code == 401
    assert hint_client.get(url, headers=_auth("not-a-token")).status_code == 401
    assert hint_client.get("/api/games/nope/hint", headers=_auth(tokens[mover])).status_code == 404


def test_hints_are_rate_limited_per_seat_with_retry_after(hint_client):
    body, tokens = _game(hint_client)
    mover = hint_client.get(f"/api/games/{body['id']}").json()["current_player"]
    url = f"/api/games/{body['id']}/hint"
    first = hint_client.get(url, params={"n": 1}, headers=_auth(tokens[mover]))
    assert first.status_code == 200
    again = hint_client.get(url, params={"n": 1}, headers=_auth(tokens[mover]))
    assert (
        again.json() == first.json()
    )  # the same question in the same position: the kept answer, not counted
    assert hint_client.get(url, params={"n": 2}, headers=_auth(tokens[mover])).status_code == 200
    refused = hint_client.get(url, params={"n": 3}, headers=_auth(tokens[mover]))
    assert refused.status_code == 429 and "too many hints" in refused.json()["detail"]
    assert int(refused.headers["Retry-After"]) >= 1
    other, other_tokens = _game(hint_client)  # another game's seat has its own allowance
    other_mover = hint_client.get(f"/api/games/{other['id']}").json()["current_player"]
    r = hint_client.get(f"/api/games/{other['id']}/hint", headers=_auth(other_tokens[other_mover]))
    assert r.status_code == 200


def test_the_creator_can_turn_hints_off(hint_client):
    body, tokens = _game(hint_client, hints=False)
    assert body["options"]["hints"] is False
    view = hint_client.get(f"/api/games/{body['id']}").json()
    assert view["options"]["hints"] is False  # the browser knows to offer no Hint button
    mover = view["current_player"]
    r = hint_client.get(f"/api/games/{body['id']}/hint", headers=_auth(tokens[mover]))
    assert r.status_code == 403 and "hints are off" in r.json()["detail"]
    # still off after a move (the game row is rebuilt then)
    legal = hint_client.get(f"/api/games/{body['id']}", headers=_auth(tokens[mover])).json()["legal_actions"]
    moved = hint_client.post(
        f"/api/games/{body['id']}/actions",
        headers=_auth(tokens[mover]),
        json={"action": legal[0], "version": view["version"]},
    )
    assert moved.status_code == 200 and moved.json()["options"]["hints"] is False
    mover = moved.json()["current_player"]
    assert hint_client.get(f"/api/games/{body['id']}/hint", headers=_auth(tokens[mover])).status_code == 403


def test_hints_stay_on_unless_turned_off_and_the_option_must_be_a_boolean(hint_client):
    body, _ = _game(hint_client, hints=True)
    assert body["options"]["hints"] is True
    body, _ = _game(hint_client)
    assert "hints" not in body["options"]
    for bad in ("no", 0, None):
        r = hint_client.post(
            "/api/games", json={"game": "garum", "seats": ["human", "human"], "options": {"hints": bad}}
        )
        if bad is None:
            assert r.status_code == 201  # null: not said
        else:
            assert r.status_code == 422 and "hints must be true or false" in r.json()["detail"]


def test_a_bad_count_is_refused(hint_client):
    body, tokens = _game(hint_client)
    mover = hint_client.get(f"/api/games/{body['id']}").json()["current_player"]
    for n in (0, 6, "x"):
        r = hint_client.get(f"/api/games/{body['id']}/hint", params={"n": n}, headers=_auth(tokens[mover]))
        assert r.status_code == 422
