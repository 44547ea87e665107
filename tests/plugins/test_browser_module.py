"""The browser loads the board module a game declares (``Hooks.browser``), listed by /api/meta:
ludus's own games keep their static URLs, a plugin's module is served from its package, and a
game declaring none gets the client's generic board."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from ludus.engine import Hooks  # noqa: E402


@pytest.fixture
def client(tmp_path):
    from ludus.server import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path}/ludus.db", bot_seconds=0.05)) as c:
        yield c


def _boards(client) -> dict[str, str | None]:
    return {g["name"]: g["board"] for g in client.get("/api/meta").json()["games"]}


def test_meta_lists_the_declared_board_modules_at_their_static_urls(client):
    boards = _boards(client)
    assert boards["garum"] == "/static/js/garum.js" and boards["celtae"] == "/static/js/celtae.js"
    assert client.get(boards["garum"]).status_code == 200


def test_a_plugins_board_module_is_served_from_its_package(client, tmp_path, monkeypatch):
    package = tmp_path / "site" / "fake_board"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "board.js").write_text(
        'import {el} from "/static/js/util.js";\nexport const ownBoard = false;\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    game = type(__import__("ludus").load_game("garum"))
    monkeypatch.setattr(game, "hooks", Hooks(browser="fake_board:board.js"))
    assert _boards(client)["garum"] == "/plugins/garum/board.js"
    served = client.get("/plugins/garum/board.js")
    assert served.status_code == 200 and "javascript" in served.headers["content-type"]
    assert "export const ownBoard" in served.text


def test_a_game_declaring_no_board_module_gets_the_generic_board(client, monkeypatch):
    game = type(__import__("ludus").load_game("garum"))
    monkeypatch.setattr(game, "hooks", Hooks())
    assert _boards(client)["garum"] is None
    assert client.get("/plugins/garum/board.js").status_code == 404
    assert client.get("/plugins/chess/board.js").status_code == 404
