"""The rematch of a finished game: the same game, options and seats, the caller in their seat, every other
account invited, bots kept, guests' seats offered by the link; the old game's view names it. And a
database of the release before tables (revision 0006) migrates with its game playable, never waiting."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import text
from tables_helpers import bearer, created, person, statuses, view

from ludus.server import create_app
from ludus.server.game_cache import shared_game
from ludus.server.migrations import alembic_config, upgrade
from ludus.server.runtime import play_forced
from ludus.server.security import hash_token
from ludus.server.settings import Settings
from ludus.server.storage import Store

TOKENS = ["token-of-seat-zero-" + "x" * 24, "token-of-seat-one-" + "y" * 24]


def _finished(client: TestClient, gid: str, leavers: list[tuple[TestClient, dict[str, str]]]) -> dict:
    """Every person leaves (bots play their seats) and the game plays to its end."""
    for device, headers in leavers:
        assert device.post(f"/api/games/{gid}/leave", headers=headers).status_code == 200
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        seen = view(client, gid)
        if seen["terminal"]:
            return seen
        time.sleep(0.1)
    raise AssertionError(f"game {gid} did not finish")


def test_a_rematch_makes_the_same_table_with_invitations(client):
    ann, bob = person(client, "ann"), person(client, "bob")
    game = created(
        ann,
        seats=["human", {"kind": "human", "invite": "bob"}, "random", {"kind": "human", "link": True}],
        options={"players": 4},
        turn_hours=24,
        on_timeout="others",
    )
    gid = game["id"]
    before_end = ann.post(f"/api/games/{gid}/rematch")
    assert before_end.status_code == 409  # not finished (it even waits)
    assert bob.post(f"/api/games/{gid}/accept").status_code == 200
    guest = client.post(f"/api/games/{gid}/join").json()
    _finished(client, gid, [(ann, {}), (bob, {}), (client, bearer(guest["token"]))])
    assert client.post(f"/api/games/{gid}/rematch").status_code == 401  # a spectator
    r = ann.post(f"/api/games/{gid}/rematch")
    assert r.status_code == 201, r.text
    new = r.json()["id"]
    assert new != gid and r.json()["seat"] == 0
    again = bob.post(f"/api/games/{gid}/rematch")  # the same rematch for everyone at the table
    assert again.status_code == 201 and again.json()["id"] == new
    assert view(client, gid)["rematch"] == new and view(bob, gid)["rematch"] == new
    fresh = view(ann, new)
    assert fresh["seat"] == 0 and fresh["waiting"] and fresh["options"]["players"] == 4
    assert fresh["table"] == {"host_seat": 0, "turn_hours": 24, "on_timeout": "others"}
    assert [s["name"] for s in fresh["seats"]][:1] == ["ann"] and fresh["seats"][2]["bot"] == "random"
    assert fresh["waiting_for"] == [
        {"seat": 1, "offer": "invite", "name": "bob"},
        {"seat": 3, "offer": "link", "name": None},
    ]
    assert statuses(bob)[new] == "invited" and statuses(ann)[new] == "open"


def test_a_guest_gets_its_seat_back_by_a_new_token_in_a_rematch(client):
    game = created(client, seats=["human", "random"], options={"players": 2})
    gid, token = game["id"], game["seats"][0]["token"]
    _finished(client, gid, [(client, bearer(token))])
    r = client.post(f"/api/games/{gid}/rematch", headers=bearer(token))
    assert r.status_code == 201, r.text
    made = r.json()
    mine = next(s["token"] for s in made["seats"] if "token" in s)
    fresh = view(client, made["id"], mine)
    assert fresh["seat"] == 0 and not fresh["waiting"] and fresh["seats"][1]["bot"] == "random"


def _finished_table_of(client: TestClient, *names: str) -> tuple[str, list[TestClient]]:
    """A finished game of the accounts ``names``: the first created it and invited the others."""
    people = [person(client, name) for name in names]
    seats: list = ["human", *({"kind": "human", "invite": name} for name in names[1:])]
    gid = created(people[0], seats=seats, options={"players": len(names)})["id"]
    for device in people[1:]:
        assert device.post(f"/api/games/{gid}/accept").status_code == 200
    _finished(client, gid, [(device, {}) for device in people])
    return gid, people


def test_a_rematch_offers_a_banned_or_deleted_players_seat_by_the_link(client):
    gid, (ann, _, _) = _finished_table_of(client, "ann", "bob", "cid")
    client.app.state.accounts.ban("bob")
    client.app.state.accounts.delete("cid")
    r = ann.post(f"/api/games/{gid}/rematch")
    assert r.status_code == 201, r.text
    assert view(ann, r.json()["id"])["waiting_for"] == [
        {"seat": 1, "offer": "link", "name": None},
        {"seat": 2, "offer": "link", "name": None},
    ]


def test_simultaneous_first_rematches_make_one_game(client, monkeypatch):
    gid, people = _finished_table_of(client, "ann", "bob")
    lobby = client.app.state.service.lobby
    create, both_in = lobby.create, threading.Barrier(2, timeout=30)

    def create_together(*args, **kwargs):  # both requests have seen no rematch before either makes one
        both_in.wait()
        return create(*args, **kwargs)

    monkeypatch.setattr(lobby, "create", create_together)
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda device: device.post(f"/api/games/{gid}/rematch"), people))
    assert [r.status_code for r in answers] == [201, 201], [r.text for r in answers]
    ids = {r.json()["id"] for r in answers}
    assert len(ids) == 1 and view(client, gid)["rematch"] in ids
    made = [g for g, status in statuses(people[1]).items() if g != gid]
    assert made == list(ids), made  # one new game: bob is invited to it alone


def _database_at_0006(url: str) -> tuple[str, int]:
    """A database at revision 0006 (accounts, before tables) holding one game of two guests, with a free
    seat that the release before did not wait for; its id and version."""
    store = Store(url)
    upgrade(store.engine, store.is_sqlite, revision="0006")
    game = shared_game("garum", {"players": 3})
    state = game.new_initial_state(seed=11)
    played = play_forced(state)
    for _ in range(3):
        seat = state.current_player()
        state.apply_action(state.legal_actions()[0])
        played += [(seat, state.history()[-1]), *play_forced(state)]
    now = time.time() - 60
    with store.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO games (id, game, config, seed, turn_seconds, hints, version, meta_version, "
                "num_actions, status, created_at, updated_at, host, renewed_at) VALUES ('oldgame7', 'garum', "
                ":config, 11, NULL, NULL, :n, 1, :n, 'playing', :now, :now, NULL, :now)"
            ),
            {"config": json.dumps(dict(game.config)), "n": len(played), "now": now},
        )
        for seat in range(3):
            conn.execute(
                text(
                    "INSERT INTO seats (game_id, seat, kind, token_hash, claimed, left_to, name, account_id) "
                    "VALUES ('oldgame7', :seat, 'human', :hash, :claimed, NULL, NULL, NULL)"
                ),
                {"seat": seat, "hash": hash_token(TOKENS[seat]) if seat < 2 else None, "claimed": seat < 2},
            )
        for ply, (seat, action) in enumerate(played):
            conn.execute(
                text(
                    "INSERT INTO actions (game_id, ply, seat, action, created_at, timed_out_to) "
                    "VALUES ('oldgame7', :ply, :seat, :action, :now, NULL)"
                ),
                {"ply": ply, "seat": seat, "action": action, "now": now},
            )
    store.dispose()
    return "oldgame7", len(played)


def test_a_database_at_0006_migrates_and_its_game_plays_on_without_waiting(database_url):
    game_id, version = _database_at_0006(database_url)
    with TestClient(create_app(database_url, settings=Settings(bot_seconds=0.05))) as client:
        with client.app.state.service.store.read() as conn:
            at = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        assert ScriptDirectory.from_config(alembic_config()).get_revision(at).revision >= "0007"
        spectator = view(client, game_id)
        assert spectator["version"] == version and not spectator["waiting"] and spectator["table"] is None
        mover = spectator["current_player"]
        tokens = list(TOKENS)
        if mover == 2:  # the free seat's turn: a person joins it, as before
            tokens.append(client.post(f"/api/games/{game_id}/join").json()["token"])
        seen = view(client, game_id, tokens[mover])
        assert seen["legal_actions"]
        r = client.post(
            f"/api/games/{game_id}/actions",
            json={"action": seen["legal_actions"][0], "version": seen["version"]},
            headers=bearer(tokens[mover]),
        )
        assert r.status_code == 200, r.text
        assert r.json()["version"] > version
