"""A plugin's observation carries only its own fields (Pig's has no "game"): the replay and board
routes pick the renderer by the game's name from the record or the game row, never from the
observation, so they answer (a board, or none) rather than fail."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

from ludus.engine.hooks import hook
from ludus.server import create_app
from ludus.server.settings import Settings
from ludus.web.routes import replay_answer

pytestmark = pytest.mark.usefixtures("pig")


def _finished_pig(client: TestClient) -> tuple[str, dict]:
    created = client.post(
        "/api/games", json={"game": "pig", "options": {"target": 20}, "seats": ["human", "human"]}
    ).json()
    gid, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    rng = random.Random(2)
    while not (view := client.get(f"/api/games/{gid}").json())["terminal"]:
        auth = {"Authorization": f"Bearer {tokens[view['current_player']]}"}
        mine = client.get(f"/api/games/{gid}", headers=auth).json()
        action = rng.choice(mine["legal_actions"])
        assert client.post(
            f"/api/games/{gid}/actions", headers=auth, json={"action": action, "version": mine["version"]}
        ).is_success
    return gid, client.get(f"/api/games/{gid}/record").json()


def test_a_plugin_observation_without_game_replays_and_its_board_is_drawn(tmp_path, monkeypatch):
    drawn = []

    def render_svg(observation):
        assert "game" not in observation  # Pig's own fields only
        drawn.append(observation)
        return f"<svg><text>{observation['scores']}</text></svg>"

    # the very module the server draws with (hooks are loaded once and kept)
    monkeypatch.setattr(hook("pig", "renderer"), "render_svg", render_svg, raising=False)
    with TestClient(
        create_app(f"sqlite:///{tmp_path}/ludus.db", settings=Settings(bot_seconds=0.05))
    ) as client:
        gid, record = _finished_pig(client)
        n = len(record["actions"])
        step = client.get(f"/api/games/{gid}/replay", params={"step": n})
        assert step.status_code == 200, step.text
        scores = step.json()["observation"]["scores"]
        assert "game" not in step.json()["observation"]
        board = client.get(f"/api/games/{gid}/svg")
        assert board.status_code == 200 and board.text == f"<svg><text>{scores}</text></svg>"
    # a replay step is made in a worker process, where this test's renderer is not: the same
    # function, called here, draws it by the record's game
    status, answer = replay_answer(None, record, n, True, False)
    assert status == 200 and json.loads(answer)["svg"] == f"<svg><text>{scores}</text></svg>"
    assert drawn


def test_a_plugin_without_an_svg_renderer_replays_without_a_board(tmp_path):
    with TestClient(
        create_app(f"sqlite:///{tmp_path}/ludus.db", settings=Settings(bot_seconds=0.05))
    ) as client:
        gid, record = _finished_pig(client)
        step = client.get(f"/api/games/{gid}/replay", params={"step": len(record["actions"])})
        assert step.status_code == 200 and step.json()["svg"] is None and step.json()["terminal"]
        board = client.get(f"/api/games/{gid}/svg")
        assert board.status_code == 404 and "pig has no SVG renderer" in board.json()["detail"]


def test_a_renderer_that_fails_on_a_view_gets_a_404_with_the_reason_not_a_500(tmp_path, monkeypatch):
    def render_svg(observation):
        raise KeyError("a field the renderer expected")

    monkeypatch.setattr(hook("pig", "renderer"), "render_svg", render_svg, raising=False)
    with TestClient(
        create_app(f"sqlite:///{tmp_path}/ludus.db", settings=Settings(bot_seconds=0.05))
    ) as client:
        gid, _ = _finished_pig(client)
        board = client.get(f"/api/games/{gid}/svg")
        assert board.status_code == 404 and "could not draw this board" in board.json()["detail"]
