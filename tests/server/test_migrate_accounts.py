"""A database made by the release before accounts (schema revision 0005) migrates to the newest schema with
every game playable: its seats keep their tokens and names, its actions replay, the game plays on, and
a guest's seat in it can be claimed by an account."""

from __future__ import annotations

import json
import time

from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import text

from ludus.server import create_app
from ludus.server.game_cache import shared_game
from ludus.server.migrations import alembic_config, upgrade
from ludus.server.runtime import play_forced
from ludus.server.security import hash_token
from ludus.server.settings import Settings
from ludus.server.storage import Store

TOKENS = ["token-of-seat-zero-" + "x" * 24, "token-of-seat-one-" + "y" * 24]
DECISIONS = 6


def _old_database(url: str) -> tuple[str, int]:
    """A database at revision 0005 holding one game of two people as that release stored it (each action
    with its seat, the single-choice steps after each decision included); its id and version."""
    store = Store(url)
    upgrade(store.engine, store.is_sqlite, revision="0005")
    game = shared_game("garum", {"players": 2})
    state = game.new_initial_state(seed=7)
    played = play_forced(state)
    for _ in range(DECISIONS):
        seat = state.current_player()
        state.apply_action(state.legal_actions()[0])
        played += [(seat, state.history()[-1]), *play_forced(state)]
    now = time.time() - 60
    with store.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO games (id, game, config, seed, turn_seconds, hints, version, meta_version, "
                "num_actions, status, created_at, updated_at, host, renewed_at) VALUES ('oldgame1', 'garum', "
                ":config, 7, NULL, NULL, :n, 1, :n, 'playing', :now, :now, 'addr:old', :now)"
            ),
            {"config": json.dumps(dict(game.config)), "n": len(played), "now": now},
        )
        for seat, (token, name) in enumerate(zip(TOKENS, ["Ann", None], strict=True)):
            conn.execute(
                text(
                    "INSERT INTO seats (game_id, seat, kind, token_hash, claimed, left_to, name) "
                    "VALUES ('oldgame1', :seat, 'human', :hash, :claimed, NULL, :name)"
                ),
                {"seat": seat, "hash": hash_token(token), "claimed": True, "name": name},
            )
        for ply, (seat, action) in enumerate(played):
            conn.execute(
                text(
                    "INSERT INTO actions (game_id, ply, seat, action, created_at, timed_out_to) "
                    "VALUES ('oldgame1', :ply, :seat, :action, :now, NULL)"
                ),
                {"ply": ply, "seat": seat, "action": action, "now": now},
            )
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == "0005"
    store.dispose()
    return "oldgame1", len(played)


def test_a_database_of_the_release_before_migrates_and_its_game_plays_on(database_url):
    game_id, version = _old_database(database_url)
    with TestClient(create_app(database_url, settings=Settings(bot_seconds=0.05))) as client:
        store = client.app.state.service.store
        with store.read() as conn:
            at = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        assert at == ScriptDirectory.from_config(alembic_config()).get_current_head()
        spectator = client.get(f"/api/games/{game_id}").json()
        assert spectator["version"] == version and spectator["status"] == "playing"
        assert [(s["name"], s["account"], s["free"]) for s in spectator["seats"]] == [
            ("Ann", False, False),
            (None, False, False),
        ]
        mover = spectator["current_player"]
        auth = {"Authorization": f"Bearer {TOKENS[mover]}"}
        seen = client.get(f"/api/games/{game_id}", headers=auth).json()
        assert seen["seat"] == mover and seen["legal_actions"]
        played = client.post(
            f"/api/games/{game_id}/actions",
            json={"action": seen["legal_actions"][0], "version": seen["version"]},
            headers=auth,
        )
        assert played.status_code == 200, played.text
        assert played.json()["version"] > version
        made = client.post("/api/accounts", json={"name": "ann", "password": "correct horse battery"})
        assert made.status_code == 201
        claimed = client.post("/api/me/claim", json={"tokens": [TOKENS[0]]}).json()
        assert claimed["claimed"] == [{"id": game_id, "seat": 0}]
        mine = client.get(f"/api/games/{game_id}").json()
        assert mine["seat"] == 0 and mine["seats"][0]["name"] == "ann" and mine["seats"][0]["account"]
