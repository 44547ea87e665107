"""A game outside ludus (examples/pig), installed as its own package with its entry point, is
found and played by every part of ludus without any change in ludus (the ``pig`` fixture, in
conftest.py, installs it)."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

import ludus
from ludus.bots import make, parse_spec
from ludus.engine import registry
from ludus.engine.conformance import check_game, check_hooks, configurations


def test_an_installed_plugin_is_listed_beside_ludus_own_games(pig):
    own = list(registry.built_in())
    assert {"garum", "celtae"} <= set(own) and ludus.game_names()[: len(own)] == own  # ludus's own first
    assert "pig" in ludus.game_names()[len(own) :]


@pytest.mark.parametrize("players", [2, 3])
def test_the_plugin_passes_the_conformance_kit(pig, players):
    assert {"players": players, "target": 30} in configurations("pig")
    assert check_game("pig", {"players": players, "target": 20}, games=3) > 0


@pytest.mark.parametrize("bot", ["random", "greedy", "ismcts:iterations=30"])
def test_every_bot_plays_the_plugin_to_the_end(pig, bot):
    name, params = parse_spec(bot)
    bots = [make(name, seed=s, **params) for s in range(2)]
    state = ludus.load_game("pig", players=2, target=20).new_initial_state(seed=3)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert max(state.scores()) >= 20


def test_the_cli_simulates_the_plugin_with_its_options_as_flags(pig, tmp_path):
    env = {**os.environ, "PYTHONPATH": f"{pig}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "ludus.cli",
            "simulate",
            "pig",
            "--games",
            "3",
            "--jobs",
            "1",
            "--players",
            "3",
            "--target",
            "20",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "pig players=3 target=20" in out.stdout


def test_the_server_hosts_the_plugin(pig, tmp_path):
    from fastapi.testclient import TestClient

    from ludus.server import create_app
    from ludus.server.settings import Settings

    with TestClient(
        create_app(f"sqlite:///{tmp_path}/ludus.db", settings=Settings(bot_seconds=0.05))
    ) as client:
        r = client.post("/api/games", json={"game": "pig", "seats": ["human", "human"]})
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        tokens = {s["seat"]: s["token"] for s in r.json()["seats"]}
        rng = random.Random(1)
        for _ in range(2000):
            view = client.get(f"/api/games/{gid}").json()
            if view["terminal"]:
                break
            auth = {"Authorization": f"Bearer {tokens[view['current_player']]}"}
            mine = client.get(f"/api/games/{gid}", headers=auth).json()
            r = client.post(
                f"/api/games/{gid}/actions",
                headers=auth,
                json={"action": rng.choice(mine["legal_actions"]), "version": mine["version"]},
            )
            assert r.status_code == 200, r.text
        assert client.get(f"/api/games/{gid}").json()["terminal"]
        assert client.get(f"/api/games/{gid}/record").json()["game"] == "pig"


def test_the_plugins_declared_hooks_load_with_the_right_shapes(pig):
    assert check_hooks("pig") == {"renderer": "ok", "heuristic": "ok"}


def test_greedy_and_hints_use_the_heuristic_the_plugin_declares(pig):
    from ludus.bots.greedy import heuristic
    from ludus.bots.hint import hint

    state = ludus.load_game("pig", players=2).new_initial_state(seed=1)
    state.apply_action("roll")
    assert heuristic("pig").__module__ == "ludus_pig.heuristic"
    assert heuristic("pig")(state, state.current_player()) == state.turn_total / 2
    assert {h["action"] for h in hint(state, n=2, seed=1)} <= {"roll", "hold"}


def test_the_cli_shows_the_plugins_own_text_board(pig):
    from click.testing import CliRunner

    from ludus.cli import main

    result = CliRunner().invoke(main, ["play", "pig", "--seats", "greedy,random", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "Pig to 30" in result.output and "Winner" in result.output
