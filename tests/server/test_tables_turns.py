"""Turn-based tables: a time to move in hours (1 to 336), its deadline in every view and kept in the
database; when it passes, a bot plays the turn (rule 'bot') or the others may hand the seat to a bot for
good (rule 'others'). Time passes by moving the stored times into the past, then restarting the server."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from tables_helpers import bearer, created, view

from ludus.server import create_app
from ludus.server.settings import Settings
from ludus.server.storage import Store, games

HOUR = 3600.0
SETTINGS = Settings(bot_seconds=0.05)


def _hours_pass(database_url: str, game_id: str, hours: float) -> None:
    """The game's turn began ``hours`` earlier, as if the server had been down that long."""
    store = Store(database_url)
    try:
        store.transact(
            lambda conn: conn.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(
                    updated_at=games.c.updated_at - hours * HOUR, renewed_at=games.c.renewed_at - hours * HOUR
                )
            )
        )
    finally:
        store.dispose()


def _wait(client: TestClient, gid: str, predicate, seconds: float = 30.0) -> dict:
    deadline = time.monotonic() + seconds
    seen = None
    while time.monotonic() < deadline:
        seen = view(client, gid)
        if predicate(seen):
            return seen
        time.sleep(0.05)
    pytest.fail(f"game {gid} did not get there within {seconds} s: {seen}")


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ({"turn_hours": 0}, "turn_hours"),
        ({"turn_hours": 337}, "turn_hours"),
        ({"turn_hours": 1.5}, "turn_hours"),
        ({"turn_hours": True}, "turn_hours"),
        ({"turn_hours": 2, "options": {"turn_seconds": 60}}, "not both"),
        ({"on_timeout": "bot"}, "turn_hours too"),
        ({"turn_hours": 2, "on_timeout": "never"}, "on_timeout"),
    ],
)
def test_turn_based_settings_out_of_bounds_are_refused(client, extra, reason):
    r = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"], **extra})
    assert r.status_code == 422 and reason in r.text, r.text


@pytest.mark.parametrize("hours", [1, 336])
def test_every_view_shows_the_turn_based_deadline(client, hours):
    before = time.time()
    game = created(client, seats=["human", "human"], turn_hours=hours, on_timeout="others")
    after = time.time()
    for token in (None, game["seats"][0]["token"], game["seats"][1]["token"]):
        seen = view(client, game["id"], token)
        assert before + hours * HOUR <= seen["turn_deadline"] <= after + hours * HOUR
        assert seen["table"]["turn_hours"] == hours and seen["table"]["on_timeout"] == "others"


def test_a_waiting_turn_based_table_starts_its_clock_when_it_starts(client):
    game = created(client, seats=["human", {"kind": "human", "link": True}], turn_hours=5)
    assert view(client, game["id"])["turn_deadline"] is None
    before = time.time()
    assert client.post(f"/api/games/{game['id']}/join").status_code == 200
    assert view(client, game["id"])["turn_deadline"] >= before + 5 * HOUR


def test_with_rule_bot_a_passed_deadline_plays_the_turn_even_across_a_restart(database_url):
    with TestClient(create_app(database_url, settings=SETTINGS)) as c:
        game = created(c, seats=["human", "human"], turn_hours=1, on_timeout="bot")
        first = view(c, game["id"])
    _hours_pass(database_url, game["id"], 2)
    with TestClient(create_app(database_url, settings=SETTINGS)) as c:
        moved = _wait(c, game["id"], lambda v: v["version"] > first["version"])
    mover = first["current_player"]
    assert moved["seats"][mover]["timed_out"] >= 1 and moved["seats"][mover]["bot"] is None


def test_with_rule_others_the_seat_is_handed_over_only_after_the_deadline(database_url):
    with TestClient(create_app(database_url, settings=SETTINGS)) as c:
        game = created(c, seats=["human", "human"], turn_hours=1, on_timeout="others")
        gid = game["id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        late = view(c, gid)["current_player"]
        other = 1 - late
        early = c.post(f"/api/games/{gid}/seats/{late}/bot", headers=bearer(tokens[other]))
        assert early.status_code == 409 and "not run out" in early.json()["detail"]
    _hours_pass(database_url, gid, 2)
    with TestClient(create_app(database_url, settings=SETTINGS)) as c:
        before = view(c, gid)
        assert before["seats"][late]["bot"] is None  # no bot took the turn by itself
        own = c.post(f"/api/games/{gid}/seats/{late}/bot", headers=bearer(tokens[late]))
        assert own.status_code == 403
        assert c.post(f"/api/games/{gid}/seats/{late}/bot").status_code == 401  # nobody seated
        r = c.post(f"/api/games/{gid}/seats/{late}/bot", headers=bearer(tokens[other]))
        assert r.status_code == 200, r.text
        assert r.json()["seat"] == late
        moved = _wait(c, gid, lambda v: v["current_player"] != late or v["terminal"])
        assert moved["seats"][late]["bot"] == r.json()["bot"] and moved["seats"][late]["left"]
        again = c.post(f"/api/games/{gid}/seats/{late}/bot", headers=bearer(tokens[other]))
        assert again.status_code in (403, 409)


def test_the_hand_over_is_refused_on_a_table_whose_rule_is_bot(client):
    game = created(client, seats=["human", "human"], turn_hours=1)
    late = view(client, game["id"])["current_player"]
    token = game["seats"][1 - late]["token"]
    r = client.post(f"/api/games/{game['id']}/seats/{late}/bot", headers=bearer(token))
    assert r.status_code == 409 and "others" in r.json()["detail"]
    assert client.post(f"/api/games/{game['id']}/seats/99/bot", headers=bearer(token)).status_code == 422
