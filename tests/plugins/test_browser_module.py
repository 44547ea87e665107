"""The browser loads the board module a game declares (``Hooks.browser``), listed by /api/meta:
every game's module, ludus's own included, is served from its package, and a game declaring none
gets the client's generic board."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from ludus.engine import Hooks  # noqa: E402


@pytest.fixture
def client(tmp_path):
    from ludus.server import create_app
    from ludus.server.settings import Settings

    with TestClient(create_app(f"sqlite:///{tmp_path}/ludus.db", settings=Settings(bot_seconds=0.05))) as c:
        yield c


def _boards(client) -> dict[str, str | None]:
    return {g["name"]: g["board"] for g in client.get("/api/meta").json()["games"]}


def test_meta_lists_the_declared_browser_files_served_from_each_games_folder(client):
    """ludus's own games are served as any plugin's: from their packages, at /plugins/<game>/."""
    games = {g["name"]: g for g in client.get("/api/meta").json()["games"]}
    for name in ("garum", "celtae"):
        urls = [games[name]["board"], games[name]["styles"], games[name]["rules"]]
        assert all(url.startswith(f"/plugins/{name}/") for url in urls), urls
        kinds = [client.get(url).headers["content-type"] for url in urls]
        assert ["javascript" in kinds[0], "css" in kinds[1], "html" in kinds[2]] == [True] * 3
    assert client.get("/plugins/celtae/panels.js").status_code == 200  # a module beside the board's
    for bad in ("../game.py", "..%2Fgame.py", "game.py", ".hidden.js", "x" * 80 + ".js", "nope.js"):
        assert client.get(f"/plugins/celtae/{bad}").status_code == 404, bad


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
