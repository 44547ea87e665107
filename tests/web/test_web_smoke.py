"""The pages load and the client's helper endpoints answer."""

import httpx


def test_pages_and_meta_are_served(server):
    for path in ("/", "/replay", "/static/js/game.js", "/static/css/ludus.css", "/static/css/lobby.css"):
        assert httpx.get(server + path).status_code == 200, path
    meta = httpx.get(server + "/api/meta").json()
    garum = next(g for g in meta["games"] if g["name"] == "garum")
    assert [o["name"] for o in garum["options"]][:2] == ["players", "board"]
    assert "random" in meta["bots"]
