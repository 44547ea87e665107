"""A game that is installed but fails to load is said in the server's log when it starts, one error
line each (its name, entry point and error), and the server still serves the games that load."""

from __future__ import annotations

import logging

from fastapi.testclient import TestClient

import ludus
from ludus.server import create_app


def test_the_server_logs_each_game_that_fails_to_load_at_start(installed, tmp_path, caplog):
    installed.module("ludus_test_broken", 'raise RuntimeError("the rules file is missing")\n')
    installed(broken="ludus_test_broken:BrokenGame")
    with (
        caplog.at_level(logging.ERROR, logger="ludus.server"),
        TestClient(create_app(f"sqlite:///{tmp_path / 'ludus.db'}")) as client,
    ):
        names = [g["name"] for g in client.get("/api/meta").json()["games"]]
    said = [r.getMessage() for r in caplog.records if r.name == "ludus.server" and r.levelno == logging.ERROR]
    assert said == [
        "the game 'broken' (ludus_test_broken:BrokenGame) failed to load: RuntimeError: the rules file is missing"
    ]
    assert names == ludus.game_names() and "broken" not in names
