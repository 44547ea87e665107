"""Tokens stay out of URLs and every page holds to its Content-Security-Policy in a real browser.

The invite link carries the seat token in the fragment (never sent to a server); the game page
moves it to sessionStorage and clears the address bar; the WebSocket gets it as its first
message. No page, the API docs included, loads anything from another origin.
"""

from __future__ import annotations

import httpx
from browser_helpers import poll

BODY = "document.body.dataset"


def _create(server, claim=None):
    body = {"game": "garum", "options": {"players": 2}, "seats": ["human", "human"]}
    if claim is not None:
        body["claim"] = claim
    created = httpx.post(f"{server}/api/games", json=body).json()
    return created["id"], {s["seat"]: s["token"] for s in created["seats"] if "token" in s}


def _watch_traffic(page):
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    page.on("websocket", lambda ws: urls.append(ws.url))
    return urls


def test_the_seat_token_leaves_the_address_bar_and_travels_in_no_url(strict_page, server):
    page = strict_page
    game_id, tokens = _create(server)
    urls = _watch_traffic(page)
    page.goto(f"{server}/games/{game_id}#token={tokens[1]}")
    poll(page, f"{BODY}.seat === '1' && {BODY}.live === 'true'")
    assert page.url == f"{server}/games/{game_id}"
    assert any("/ws" in url for url in urls)
    assert not [url for url in urls if tokens[1] in url or "token=" in url]
    page.reload()  # the tab keeps its seat without the token in sight
    poll(page, f"{BODY}.seat === '1' && {BODY}.live === 'true'")
    assert page.url == f"{server}/games/{game_id}"
    assert page.js_errors == []
    page.go_back()  # the link's entry was replaced, not kept: the page before it comes back
    assert "token" not in page.url and "/games/" not in page.url


def test_an_old_query_link_is_cleared_too(strict_page, server):
    page = strict_page
    game_id, tokens = _create(server)
    page.goto(f"{server}/games/{game_id}?token={tokens[0]}")
    poll(page, f"{BODY}.seat === '0'")
    assert page.url == f"{server}/games/{game_id}"


def test_the_live_socket_serves_the_seat_that_sent_its_token(strict_page, server):
    page = strict_page
    game_id, tokens = _create(server)
    mover = httpx.get(f"{server}/api/games/{game_id}").json()["current_player"]
    other = 1 - mover
    page.goto(f"{server}/games/{game_id}#token={tokens[other]}")
    poll(page, f"{BODY}.live === 'true' && {BODY}.seat === '{other}'")
    view = httpx.get(
        f"{server}/api/games/{game_id}", headers={"Authorization": f"Bearer {tokens[mover]}"}
    ).json()
    r = httpx.post(
        f"{server}/api/games/{game_id}/actions",
        json={"action": view["legal_actions"][0], "version": 0},
        headers={"Authorization": f"Bearer {tokens[mover]}"},
    )
    assert r.status_code == 200
    poll(page, f"{BODY}.version === '1'")  # pushed over the socket, as the seat's own view
    assert page.evaluate("window.ludusGame.view.seat") == other


def test_lobby_invite_links_carry_the_token_in_the_fragment(strict_page, server):
    page = strict_page
    page.goto(server + "/")
    page.wait_for_selector("#games input")
    page.select_option("#seat-1", value="human")
    page.click("[data-testid=create]")
    page.wait_for_selector("#invites input")  # Create opened the seat; the game page holds the invites
    assert "#token=" not in page.url and "?token=" not in page.url  # the seat's token left the address bar
    values = page.locator("#invites input").evaluate_all("els => els.map(e => e.value)")
    assert values and all("#token=" in v and "?token=" not in v for v in values)


def test_every_page_loads_only_from_its_own_origin(strict_page, server):
    page = strict_page
    game_id, _ = _create(server)
    for path in ("/", "/replay", f"/games/{game_id}", "/docs"):
        urls = _watch_traffic(page)
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
        foreign = [
            u
            for u in urls
            if not (u.startswith(server) or u.startswith("ws://127.0.0.1") or u.startswith("data:"))
        ]
        assert foreign == [], (path, foreign)
    assert page.csp_violations == []


def test_the_api_docs_work_from_local_files_under_the_policy(strict_page, server):
    page = strict_page
    page.goto(server + "/docs")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "ludus server" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock-summary-path")
    assert page.js_errors == []
