"""Creating, listing and joining games; bad requests are refused with a clear 4xx."""

from __future__ import annotations

import hashlib

from sqlalchemy import create_engine, text


def test_create_returns_201_and_a_token_for_each_human_seat(client):
    r = client.post("/api/games", json={"game": "garum", "seats": ["human", "random", "human"]})
    assert r.status_code == 201
    body = r.json()
    assert [s["kind"] for s in body["seats"]] == ["human", "random", "human"]
    assert "token" not in body["seats"][1]
    tokens = [body["seats"][0]["token"], body["seats"][2]["token"]]
    assert len(set(tokens)) == 2 and all(len(t) >= 43 for t in tokens)  # >= 256 bits, url-safe base64
    assert body["options"]["players"] == 3
    assert "seed" not in r.text


def test_tokens_are_stored_only_as_sha256_hashes(client, database_url):
    body = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"]}).json()
    engine = create_engine(database_url)
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT seat, token_hash FROM seats WHERE game_id = :g ORDER BY seat"), {"g": body["id"]}
        ).all()
        dump = " ".join(str(r) for r in conn.execute(text("SELECT * FROM seats")).all())
    engine.dispose()
    for seat, token_hash in rows:
        token = body["seats"][seat]["token"]
        assert token_hash == hashlib.sha256(token.encode()).hexdigest()
        assert token not in dump


def test_join_takes_the_first_free_human_seat_then_refuses(client):
    body = client.post(
        "/api/games", json={"game": "garum", "seats": ["human", "human", "human"], "claim": [0]}
    ).json()
    assert [("token" in s) for s in body["seats"]] == [True, False, False]
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert listed[body["id"]]["free_seats"] == 2
    first = client.post(f"/api/games/{body['id']}/join")
    second = client.post(f"/api/games/{body['id']}/join")
    assert (first.status_code, second.status_code) == (200, 200)
    assert (first.json()["seat"], second.json()["seat"]) == (1, 2)
    third = client.post(f"/api/games/{body['id']}/join")
    assert third.status_code == 409 and "no free seat" in third.json()["detail"]
    assert body["id"] not in {g["id"] for g in client.get("/api/games").json()}
    view = client.get(
        f"/api/games/{body['id']}", headers={"Authorization": f"Bearer {first.json()['token']}"}
    )
    assert view.json()["seat"] == 1


def test_join_of_an_unknown_game_is_404(client):
    r = client.post("/api/games/nosuchgame/join")
    assert r.status_code == 404 and "no game" in r.json()["detail"]


def test_a_game_created_with_all_seats_claimed_is_not_listed(client):
    body = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"]}).json()
    assert body["id"] not in {g["id"] for g in client.get("/api/games").json()}


def _refused(client, payload, status, words):
    r = client.post("/api/games", json=payload)
    assert r.status_code == status, r.text
    for word in words:
        assert word in r.json()["detail"], r.json()
    return r


def test_unknown_game_is_refused_naming_the_known_ones(client):
    _refused(client, {"game": "chess", "seats": ["human", "human"]}, 422, ["unknown game 'chess'", "garum"])


def test_unknown_option_is_refused(client):
    _refused(
        client,
        {"game": "garum", "options": {"colour": "pink"}, "seats": ["human", "human"]},
        422,
        ["no option 'colour'"],
    )


def test_bad_option_value_is_refused(client):
    _refused(
        client,
        {"game": "garum", "options": {"board": "atlantis"}, "seats": ["human", "human"]},
        422,
        ["board"],
    )


def test_unknown_seat_kind_is_refused(client):
    _refused(client, {"game": "garum", "seats": ["human", "os.system"]}, 422, ["'os.system'", "random"])
    _refused(
        client, {"game": "garum", "seats": ["human", "ismcts:iterations=99999999"]}, 422, ["only 'seconds'"]
    )
    _refused(client, {"game": "garum", "seats": ["human", "ismcts:seconds=600"]}, 422, ["0.1 to 10"])
    _refused(client, {"game": "garum", "seats": ["human", "greedy:seconds"]}, 422, ["key=value"])


def test_seat_count_must_match_players(client):
    _refused(
        client, {"game": "garum", "options": {"players": 3}, "seats": ["human", "human"]}, 422, ["3 seats"]
    )


def test_turn_seconds_must_be_a_positive_number(client):
    for bad in (-1, 0, "soon", True):
        _refused(
            client,
            {"game": "garum", "options": {"turn_seconds": bad}, "seats": ["human", "human"]},
            422,
            ["turn_seconds"],
        )


def test_claim_must_name_human_seats(client):
    _refused(client, {"game": "garum", "seats": ["human", "random"], "claim": [1]}, 422, ["not a human seat"])


def test_missing_fields_are_named(client):
    _refused(client, {"game": "garum"}, 422, ["seats"])


def test_malformed_json_is_400(client):
    r = client.post(
        "/api/games", content=b'{"game": "garum", "seats": [', headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 400 and "malformed JSON" in r.json()["detail"]


def test_a_body_over_the_limit_is_413(client):
    r = client.post(
        "/api/games", json={"game": "garum", "seats": ["human"] * 2, "options": {"x": "y" * 70000}}
    )
    assert r.status_code == 413 and "larger than" in r.json()["detail"]


def test_a_streamed_body_over_the_limit_is_413(client):
    def chunks():
        yield b'{"game": "garum", "seats": ["human", "human"], "options": {"x": "'
        for _ in range(70):
            yield b"y" * 1000
        yield b'"}}'

    r = client.post("/api/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413


def test_openapi_documents_every_route(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/join",
        "/api/games/{game_id}/actions",
        "/api/games/{game_id}/undo",
        "/api/games/{game_id}/leave",
        "/api/games/{game_id}/record",
    ):
        assert path in paths
    responses = paths["/api/games/{game_id}/actions"]["post"]["responses"]
    assert {"200", "401", "403", "409", "422"} <= set(responses)
    assert "201" in paths["/api/games"]["post"]["responses"]
