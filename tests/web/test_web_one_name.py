"""One name per person in the browser: a signed-in player's account name (and a guest's given name) in
the seats, the move log, Garum's panels, the end screen and the replay viewer of the finished game."""

from __future__ import annotations

import random
import secrets

import httpx
from browser_helpers import BODY, poll

PASSWORD = "correct horse battery"


def _play(server: str, gid: str, tokens: dict[int, str], rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        seen = httpx.get(f"{server}/api/games/{gid}").json()
        if seen["terminal"]:
            return
        seat = seen["current_player"]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        mine = httpx.get(f"{server}/api/games/{gid}", headers=auth).json()
        body = {"action": rng.choice(mine["legal_actions"]), "version": mine["version"]}
        assert httpx.post(f"{server}/api/games/{gid}/actions", json=body, headers=auth).status_code == 200


def test_the_account_name_shows_wherever_its_seat_does(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        name = "one-" + secrets.token_hex(4)
        page.goto(f"{server}/signin")
        page.get_by_label("Name").fill(name)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Create account", exact=True).click()
        page.wait_for_url(lambda url: "/signin" not in url)
        body = {
            "game": "garum",
            "options": {"players": 2},
            "seats": ["human", "human"],
            "names": [None, "Bo"],
        }
        created = page.request.post(f"{server}/api/games", data=body, headers={"Origin": server}).json()
        gid, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
        rng = random.Random(3)
        _play(server, gid, tokens, rng, 6)
        page.goto(f"{server}/games/{gid}")  # the session alone: no token
        poll(page, f"{BODY}.seat === '0' && {BODY}.version !== undefined")
        assert f"{name}, Seat 1 (you)" in page.inner_text("#seats")
        assert "Bo, Seat 2" in page.inner_text("#seats")
        assert name in page.inner_text("[data-testid=projected-seat-0]")  # Garum's panel
        assert "Bo" in page.inner_text("[data-testid=projected-seat-1]")
        log = page.inner_text("#log")
        assert name in log and "Bo" in log and "Seat 1" not in log
        _play(server, gid, tokens, rng, 5000)
        over = page.locator("[data-testid=game-over]")
        over.wait_for()
        assert name in over.inner_text() and "Bo" in over.inner_text()

        page.goto(f"{server}/replay?game={gid}")
        poll(page, f"{BODY}.loaded === 'true'")
        poll(page, "document.querySelectorAll('#scores tbody tr').length === 2")
        scores = page.inner_text("#scores")
        assert name in scores and "Bo" in scores and "Seat 1" not in scores  # the names, as at the table
    finally:
        context.close()
