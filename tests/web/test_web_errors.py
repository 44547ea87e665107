"""Errors a person meets: an unknown game id or path gets a page saying so (never "connecting…" forever
or raw JSON); API paths keep their JSON errors for programs."""

from __future__ import annotations

import httpx
import pytest
from test_web_lobby import serious_violations


def test_an_unknown_game_id_gets_a_page_saying_so(server):
    answer = httpx.get(f"{server}/games/nosuchgame")
    assert answer.status_code == 404 and answer.headers["content-type"].startswith("text/html")
    assert "No such game" in answer.text and "nosuchgame" in answer.text and 'href="/"' in answer.text


def test_an_existing_game_still_opens_its_page(server):
    created = httpx.post(
        f"{server}/api/games", json={"game": "garum", "options": {"players": 2}, "seats": ["human", "random"]}
    ).json()
    answer = httpx.get(f"{server}/games/{created['id']}")
    assert answer.status_code == 200 and 'id="board"' in answer.text


@pytest.mark.parametrize("path", ["/no/such/page", "/games", "/static/js/nothing.js"])
def test_an_unknown_path_gets_a_page(server, path):
    answer = httpx.get(server + path)
    assert answer.status_code == 404 and answer.headers["content-type"].startswith("text/html")
    assert "No page here" in answer.text


def test_a_game_id_is_shown_escaped(server):
    answer = httpx.get(f"{server}/games/%3Cscript%3Ex")
    assert answer.status_code == 404 and "<script>x" not in answer.text and "&lt;script&gt;x" in answer.text


@pytest.mark.parametrize("path", ["/api/nothing", "/api/games/nosuchgame", "/api/games/nosuchgame/record"])
def test_api_paths_keep_json_errors(server, path):
    answer = httpx.get(server + path)
    assert answer.status_code == 404 and answer.headers["content-type"].startswith("application/json")
    assert isinstance(answer.json()["detail"], str)


@pytest.mark.parametrize("width,height,tag", [(1366, 850, "desktop"), (390, 844, "phone")])
def test_error_page_in_the_browser(browser, server, screenshots, width, height, tag):
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        errors = []
        page.on(
            "console",
            lambda msg: errors.append(msg.text) if msg.type == "error" and "404" not in msg.text else None,
        )
        page.goto(f"{server}/games/nosuchgame")
        assert page.inner_text("h1") == "No such game"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert serious_violations(page) == []
        page.screenshot(path=str(screenshots / f"error-unknown-game-{tag}.png"), full_page=True)
        page.click("text=Go to the lobby")
        page.wait_for_url(server + "/")
        assert errors == []
    finally:
        context.close()
