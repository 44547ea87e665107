"""Turn deadlines: the time a turn began plus ``turn_seconds``, from what is stored, so that they
survive a server restart, and shown in every view (``turn_deadline``, ``server_time``)."""

from __future__ import annotations

import random
import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from ludus.server import create_app
from ludus.server.settings import Settings
from ludus.server.storage import Store, actions, games

TURN = 3600.0
BOT_SECONDS = 0.05


def _wait(t, predicate, seconds: float = 30.0) -> dict:
    deadline = time.monotonic() + seconds
    view = None
    while time.monotonic() < deadline:
        view = t.view()
        if predicate(view):
            return view
        time.sleep(0.05)
    pytest.fail(f"game {t.id} did not get there within {seconds} s: {view}")


def _shift_stored_times(database_url: str, game_id: str, seconds: float) -> None:
    """Move every stored time of the game ``seconds`` into the past, as if the server had been down."""
    store = Store(database_url)
    try:

        def work(conn) -> None:
            conn.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(created_at=games.c.created_at - seconds, updated_at=games.c.updated_at - seconds)
            )
            conn.execute(
                update(actions)
                .where(actions.c.game_id == game_id)
                .values(created_at=actions.c.created_at - seconds)
            )

        store.transact(work)
    finally:
        store.dispose()


def _to_mid_turn(t) -> dict:
    """Play until the seat to move has made a decision of its current turn (one it may undo)."""
    rng = random.Random(5)
    for _ in range(200):
        view = t.mover_view()
        after = t.act(view["seat"], rng.choice(view["legal_actions"]), view["version"]).json()
        if after["current_player"] == view["seat"] and not after["terminal"]:
            return after
    pytest.fail("no turn with two decisions")


def test_the_view_carries_the_turn_deadline_the_turns_start_plus_turn_seconds(table):
    before = time.time()
    t = table(seats=["human", "human"], turn_seconds=TURN)
    after = time.time()
    for seat in (None, *t.tokens):
        view = t.view(seat)
        assert before + TURN <= view["turn_deadline"] <= after + TURN
        assert before <= view["server_time"] <= time.time()
    mover = t.mover_view()
    before = time.time()
    moved = t.act(mover["seat"], mover["legal_actions"][0], mover["version"]).json()
    after = time.time()
    assert before + TURN <= moved["turn_deadline"] <= after + TURN  # the action began a new turn
    assert t.view()["turn_deadline"] == moved["turn_deadline"]


def test_a_view_made_before_says_the_time_it_is_sent_not_the_time_it_was_made(table):
    t = table(seats=["human", "human"], turn_seconds=TURN)
    first = t.view()
    time.sleep(0.05)
    sent = time.time()
    again = t.view()  # the same version: the view kept as text since the first
    assert again["version"] == first["version"]
    assert sent <= again["server_time"] <= time.time()
    assert '"server_time"' not in t.client.get(f"/api/games/{t.id}").text[2:]  # said once, first


def test_the_view_has_no_turn_deadline_without_a_timer(table):
    t = table(seats=["human", "human"])
    view = t.view()
    assert view["turn_deadline"] is None and isinstance(view["server_time"], float)


def test_no_turn_deadline_while_bots_move_nor_once_the_game_is_over(table):
    t = table(seats=["random", "random"], turn_seconds=TURN)
    seen = [t.view()]
    while not seen[-1]["terminal"]:
        seen.append(_wait(t, lambda v, last=seen[-1]: v["version"] != last["version"]))
    assert [v["turn_deadline"] for v in seen] == [None] * len(seen)


def test_an_undo_starts_the_turn_again(table):
    t = table(turn_seconds=TURN)
    mid = _to_mid_turn(t)
    before = time.time()
    r = t.client.post(
        f"/api/games/{t.id}/undo", json={"version": mid["version"]}, headers=t.auth(mid["seat"])
    )
    after = time.time()
    assert r.status_code == 200, r.text
    assert mid["turn_deadline"] < before + TURN <= r.json()["turn_deadline"] <= after + TURN


def test_the_last_join_starts_the_turn_deadline_and_leaving_does_not_move_it(client):
    r = client.post(
        "/api/games",
        json={
            "game": "garum",
            "options": {"turn_seconds": TURN},
            "seats": ["human", "human", "human"],
            "claim": [0, 1],
        },
    )
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    tokens = {s["seat"]: s["token"] for s in r.json()["seats"] if "token" in s}
    assert client.get(f"/api/games/{gid}").json()["turn_deadline"] is None  # waiting for seat 2
    before = time.time()
    joined = client.post(f"/api/games/{gid}/join").json()
    tokens[joined["seat"]] = joined["token"]
    view = client.get(f"/api/games/{gid}").json()
    deadline = view["turn_deadline"]
    assert before + TURN <= deadline <= time.time() + TURN  # the table started with the last join
    idle = next(seat for seat in tokens if seat != view["current_player"])
    r = client.post(f"/api/games/{gid}/leave", headers={"Authorization": f"Bearer {tokens[idle]}"})
    assert r.status_code == 200, r.text
    assert client.get(f"/api/games/{gid}").json()["turn_deadline"] == deadline


def test_the_turn_deadline_is_the_same_after_a_restart(database_url, table_on):
    with TestClient(create_app(database_url, settings=Settings(bot_seconds=BOT_SECONDS))) as c:
        t = table_on(c, seats=["human", "human"], turn_seconds=TURN)
        mover = t.mover_view()
        assert t.act(mover["seat"], mover["legal_actions"][0], mover["version"]).status_code == 200
        first = t.view()
    with TestClient(create_app(database_url, settings=Settings(bot_seconds=BOT_SECONDS))) as c:
        t.client = c
        again = t.view()
    assert again["version"] == first["version"]
    assert again["turn_deadline"] == pytest.approx(first["turn_deadline"], abs=1e-3)


def test_a_turn_whose_time_ran_out_while_the_server_was_down_is_played_right_after_the_restart(
    database_url, table_on
):
    with TestClient(create_app(database_url, settings=Settings(bot_seconds=BOT_SECONDS))) as c:
        t = table_on(c, seats=["human", "human"], turn_seconds=TURN)
        mover = t.mover_view()
        before = time.time()
        assert t.act(mover["seat"], mover["legal_actions"][0], mover["version"]).status_code == 200
        waiting = t.view()
        assert waiting["turn_deadline"] >= before + TURN  # the new turn's timer, from the action on
    _shift_stored_times(database_url, t.id, TURN + 60)  # the server was down past the deadline
    with TestClient(create_app(database_url, settings=Settings(bot_seconds=BOT_SECONDS))) as c:
        t.client = c
        # a fresh timer would wait another TURN seconds: the stand-in bot moves at once instead
        moved = _wait(t, lambda v: v["version"] > waiting["version"], seconds=30)
    assert moved["ply"] > waiting["ply"]


def test_the_openapi_schema_documents_the_turn_deadline(client):
    view = client.get("/openapi.json").json()["components"]["schemas"]["View"]["properties"]
    assert "epoch" in view["turn_deadline"]["description"] and "clock" in view["server_time"]["description"]
