"""Table chat and ratings in the browser: a message typed at one seat appears live at the other, shown as
text (markup stays text, no element made of it); a mute hides a seat's messages; a spectator reads only.
A finished rated game between two accounts lists both on the leaderboard (reached from the lobby) and on
their players' pages, with a rating chart. Screenshots of the chat panel, the leaderboard and the player
page at a desktop's and a phone's width."""

from __future__ import annotations

import secrets
import time

import httpx
from axe_playwright_python.sync_playwright import Axe
from browser_helpers import BODY, play_out, poll

DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
PASSWORD = "correct horse battery"
MARKUP = '<img src=x onerror="document.body.dataset.pwned=1"> <b>bold?</b>'


def _context(browser, viewport):
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    context.set_default_timeout(20_000)
    return context


def _seat_page(context, server, gid, token=None):
    page = context.new_page()
    page.goto(f"{server}/games/{gid}" + (f"#token={token}" if token else ""))
    page.wait_for_function(f"{BODY}.live === 'true'")
    page.wait_for_selector("#chat h2")
    return page


def test_a_message_appears_live_at_the_other_seat_as_text_and_a_mute_hides_it(browser, server, screenshots):
    created = httpx.post(f"{server}/api/games", json={"game": "garum", "seats": ["human", "human"]}).json()
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    first, second, watcher = (_context(browser, v) for v in (DESKTOP, PHONE, DESKTOP))
    try:
        a = _seat_page(first, server, gid, tokens[0])
        b = _seat_page(second, server, gid, tokens[1])
        spectator = _seat_page(watcher, server, gid)
        a.get_by_test_id("chat-input").fill(MARKUP)
        a.get_by_test_id("chat-send").click()
        for page in (a, b, spectator):
            shown = page.locator("[data-testid=chat-message] .chat-text").first
            shown.wait_for()
            assert shown.text_content() == MARKUP
            assert page.locator("#chat img, #chat b").count() == 0
            assert page.evaluate(f"{BODY}.pwned") is None
        b.get_by_test_id("chat-input").fill("hello from seat 2\nsecond line")
        b.get_by_test_id("chat-input").press("Enter")
        a.locator("[data-testid=chat-message]").nth(1).wait_for()
        assert spectator.locator("#chat-form").is_hidden()
        assert spectator.get_by_text("You are watching: the players at the table write here.").is_visible()
        a.locator("#chat").scroll_into_view_if_needed()
        a.locator("#chat").screenshot(path=str(screenshots / "chat-panel-desktop.png"))
        b.locator("#chat").scroll_into_view_if_needed()
        b.screenshot(path=str(screenshots / "chat-panel-phone.png"), full_page=False)
        b.locator("#chat").screenshot(path=str(screenshots / "chat-panel-phone-panel.png"))

        b.get_by_test_id("chat-mute-0").click()
        b.wait_for_function(
            "document.querySelectorAll('[data-testid=chat-message][data-seat=\"0\"]').length === 0"
        )
        assert b.get_by_test_id("chat-mute-0").get_attribute("aria-pressed") == "true"
        a.get_by_test_id("chat-input").fill("you cannot hear me")
        a.get_by_test_id("chat-send").click()
        spectator.get_by_text("you cannot hear me").wait_for()  # pushed to everyone ...
        time.sleep(0.5)
        assert b.get_by_text("you cannot hear me").count() == 0  # ... but skipped where muted
        b.reload()
        b.wait_for_selector("[data-testid=chat-message]")
        assert b.locator("[data-testid=chat-message][data-seat='0']").count() == 0
    finally:
        for context in (first, second, watcher):
            context.close()


def _account(server: str, name: str) -> httpx.Client:
    http = httpx.Client(base_url=server, timeout=10)
    assert http.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    return http


def test_a_finished_rated_game_lists_both_players_on_the_leaderboard_and_their_pages(
    browser, server, screenshots
):
    names = [f"rated-{secrets.token_hex(3)}" for _ in range(2)]
    alice, bob = (_account(server, name) for name in names)
    body = {"game": "garum", "seats": ["human", "human"], "claim": [0], "rated": True}
    gid = alice.post("/api/games", json=body).json()["id"]
    assert bob.post(f"/api/games/{gid}/join").status_code == 200
    play_out(server, gid, {0: alice, 1: bob})
    deadline = time.monotonic() + 30
    while {r["name"] for r in httpx.get(f"{server}/api/ratings/garum").json()} < set(names):
        assert time.monotonic() < deadline, "the ratings never moved"
        time.sleep(0.1)
    for viewport, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        context = _context(browser, viewport)
        try:
            page = context.new_page()
            page.goto(f"{server}/")
            page.get_by_role("link", name="Leaderboards").click()
            page.wait_for_function(f"{BODY}.ready === 'true'")
            if "garum" not in page.url:
                page.locator("#game-links a[href='/ratings/garum']").click()
                page.wait_for_function(f"{BODY}.ready === 'true'")
            listed = page.locator("[data-testid=leaderboard-row]").evaluate_all(
                "rows => rows.map(r => r.dataset.name)"
            )
            assert set(names) <= set(listed)
            page.screenshot(path=str(screenshots / f"ratings-leaderboard-{label}.png"), full_page=True)
            page.locator(f"[data-testid=leaderboard-row][data-name='{names[0]}'] a").click()
            page.wait_for_function(f"{BODY}.ready === 'true'")
            assert page.get_by_test_id("player-name").text_content() == names[0]
            assert page.locator(".rating-chart circle").count() == 1
            result = page.locator(f"[data-testid=player-game][data-game='{gid}']")
            assert result.get_by_text(" of 2").count() == 1 and result.get_by_text("rated").count() == 1
            page.screenshot(path=str(screenshots / f"ratings-player-{label}.png"), full_page=True)
        finally:
            context.close()
    # the game page shows each seat's rating beside its name, asking the server for them once
    context = _context(browser, DESKTOP)
    try:
        page = context.new_page()
        asked = []
        page.on(
            "request", lambda r: asked.append(r.url) if r.url.endswith(f"/api/games/{gid}/ratings") else None
        )
        page.goto(f"{server}/games/{gid}")
        page.wait_for_function(f"{BODY}.live === 'true'")
        page.get_by_test_id("seat-rating-0").wait_for()
        page.get_by_test_id("seat-rating-1").wait_for()
        assert page.locator("#chat-rated").is_visible()
        assert len(asked) == 1, asked  # the seats list and the waiting room share one answer
        page.locator("#seats").screenshot(path=str(screenshots / "ratings-seats-desktop.png"))
    finally:
        context.close()
    alice.close()
    bob.close()


def test_the_chat_and_the_ratings_pages_hold_the_content_security_policy_and_pass_axe(strict_page, server):
    created = httpx.post(f"{server}/api/games", json={"game": "garum", "seats": ["human", "human"]}).json()
    gid, token = created["id"], created["seats"][0]["token"]
    httpx.post(
        f"{server}/api/games/{gid}/chat", json={"text": "hi"}, headers={"Authorization": f"Bearer {token}"}
    )
    name = f"axe-{secrets.token_hex(3)}"
    _account(server, name).close()
    pages = {
        f"/games/{gid}#token={token}": "document.querySelectorAll('[data-testid=chat-message]').length === 1",
        "/ratings/garum": f"{BODY}.ready === 'true'",
        f"/players/{name}": f"{BODY}.ready === 'true'",
    }
    for path, ready in pages.items():
        strict_page.goto(server + path)
        poll(strict_page, ready)
        found = Axe().run(strict_page).response["violations"]
        serious = [f"{v['id']} ({v['impact']})" for v in found if v["impact"] in ("serious", "critical")]
        assert serious == [], (path, serious)
    assert strict_page.js_errors == []
