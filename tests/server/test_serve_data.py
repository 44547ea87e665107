"""``ludus serve --data DIR``: every table plays with the folder's data files, and its view, the lobby
and its record say which data (``LUDUS_DATA``, which the command sets for the server and its workers)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import ludus
from ludus.engine.data import DATA_ENV, DataFiles, export
from ludus.engine.registry import game_class
from ludus.server import create_app
from ludus.server.game_cache import _shared_game
from ludus.server.settings import Settings


def create(client: TestClient, game: str, seats: list[str] | None = None) -> dict:
    seats = seats or ["human", "human"]
    body = {"game": game, "options": {}, "seats": seats, "claim": [0] if seats[0] == "human" else None}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def view(client: TestClient, game_id: str, token: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = client.get(f"/api/games/{game_id}", headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Garum's files, a species bonus worth 7 points."""
    target = tmp_path / "mine"
    export(DataFiles.of_package(game_class("garum").data_package), target)
    raw = json.loads((target / "troia.json").read_text())
    raw["bonus_points"]["value"]["species"] = 7
    (target / "troia.json").write_text(json.dumps(raw))
    return target


@pytest.fixture
def client_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """``client_with(folder)``: an app on SQLite whose process plays with ``folder``'s data (None: none)."""
    opened: list[TestClient] = []

    def make(data: Path | None) -> TestClient:
        if data is not None:
            monkeypatch.setenv(DATA_ENV, str(data))
        client = TestClient(create_app(f"sqlite:///{tmp_path}/ludus.db", settings=Settings(bot_seconds=0.05)))
        opened.append(client.__enter__())
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)
    _shared_game.cache_clear()  # the games made with the folder's data stay out of other tests


def test_every_table_plays_with_the_folders_data_and_says_so(client_with, folder):
    client = client_with(folder)
    tag = ludus.load_game("garum", data=folder).data_tag
    garum = create(client, "garum")
    assert garum["options"]["data"] == tag and view(client, garum["id"])["options"]["data"] == tag
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert listed[garum["id"]]["options"]["data"] == tag
    celtae = create(client, "celtae")  # the folder holds none of its files
    assert view(client, celtae["id"])["options"]["data"] == "the printed components"


def test_bots_play_a_table_with_the_folders_data_and_its_record_names_it(
    client_with, folder, monkeypatch, caplog
):
    """The bots think in worker processes of their own: they play with the folder's data too (a bot that
    cannot read the state it is sent gives no move, and the server says so in its log)."""
    caplog.set_level(logging.WARNING, logger="ludus.server")
    client = client_with(folder)
    created = create(client, "garum", ["random", "random"])
    deadline = time.monotonic() + 120
    while not view(client, created["id"])["terminal"]:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    assert not [r.getMessage() for r in caplog.records if "gave no move" in r.getMessage()]
    record = client.get(f"/api/games/{created['id']}/record").json()
    assert record["data"] == ludus.load_game("garum", data=folder).data_tag
    assert ludus.replay(record, data=folder).scores() == view(client, created["id"])["scores"]
    monkeypatch.delenv(DATA_ENV)  # elsewhere than on the server, the record needs its data
    with pytest.raises(ludus.RecordError, match="needs its data"):
        ludus.replay(record)


def test_without_a_data_folder_the_views_are_as_before(client_with, monkeypatch):
    monkeypatch.delenv(DATA_ENV, raising=False)
    client = client_with(None)
    created = create(client, "garum")
    assert "data" not in view(client, created["id"])["options"]
    assert "data" not in client.get(f"/api/games/{created['id']}/record").json()
