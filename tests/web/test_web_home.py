"""A home for players, the whole flow in Chromium (issue 51, deliverable 12): two people sign up through the
page in two browser contexts; one invites the other by name to a rated turn-based table from the lobby; the
other accepts from My games; they play turns by clicks; the second goes on from My games on a third context
(another device); e-mail notices reach a real SMTP server (aiosmtpd) with a working link; chat is live across
the table; the finished game moves both ratings onto the leaderboard; the rematch reaches both. Screenshots
of each page of a player's home at a desktop's and a phone's width (under screenshots/)."""

from __future__ import annotations

import random
import re
import secrets
import time
from collections.abc import Iterator

import httpx
import pytest
from browser_helpers import BODY, click_random_legal, poll, serving, wait_turn, wait_version_after
from smtp_helpers import Inbox, free_port, smtp_server, text_of

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "correct horse battery"
DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
WIDTHS = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Iterator[tuple[str, Inbox]]:
    """A live server mailing through an aiosmtpd server of its own, its links at its own address."""
    from ludus.server.app import create_app
    from ludus.server.settings import Settings

    with smtp_server() as (inbox, smtp_port):
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        settings = Settings(
            smtp=f"smtp://127.0.0.1:{smtp_port}",
            mail_from="ludus@example.org",
            public_url=url,
            bot_seconds=0.2,
            create_rate="10000/minute",
            join_rate="10000/minute",
            ws_per_client=10000,
            lobby_per_host=10000,
        )
        app = create_app(f"sqlite:///{tmp_path_factory.mktemp('home') / 'ludus.db'}", settings=settings)
        with serving(app, port):
            yield url, inbox


def _context(browser, viewport=DESKTOP):
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    context.set_default_timeout(20_000)
    return context


def _shoot(page, screenshots, name: str) -> None:
    """``name``-desktop.png and ``name``-phone.png of the page as it is, back at the desktop's width after."""
    for label, viewport in WIDTHS.items():
        page.set_viewport_size(viewport)
        page.screenshot(path=str(screenshots / f"home-{name}-{label}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def _sign_up(page, server: str, name: str, screenshots=None) -> None:
    """Through the page: the "Sign in" link, then the form's "Create account"."""
    page.goto(server + "/")
    poll(page, f"{BODY}.account === 'signed-out'")
    page.get_by_role("link", name="Sign in").click()
    page.wait_for_url("**/signin**")
    poll(page, f"{BODY}.ready === 'true'")
    if screenshots is not None:
        _shoot(page, screenshots, "signin")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Email (optional)").fill(f"{name}@example.org")
    page.get_by_role("button", name="Create account", exact=True).click()
    page.wait_for_url(f"{server}/")
    poll(page, f"{BODY}.account === 'signed-in'")


def _my_games(page, server: str) -> None:
    page.goto(f"{server}/me")
    poll(page, f"{BODY}.games === 'loaded'")


def _api(context, server: str) -> httpx.Client:
    """An HTTP client holding the context's session cookie, sending as a page of the server would."""
    cookies = {c["name"]: c["value"] for c in context.cookies(server)}
    return httpx.Client(base_url=server, cookies=cookies, headers={"Origin": server}, timeout=10)


def _current(server: str, gid: str) -> dict:
    return httpx.get(f"{server}/api/games/{gid}", timeout=10).json()


def _click_turn(page, watchers: list, rng: random.Random) -> None:
    """This page's seat plays one decision by a click; every page of the table sees it."""
    assert wait_turn(page) == "mine"
    before = int(page.evaluate(f"{BODY}.version"))
    click_random_legal(page, rng)
    for seen in (page, *watchers):
        wait_version_after(seen, before)


def _play_out(server: str, gid: str, players: dict[int, httpx.Client]) -> None:
    """Each seat's first legal action by the API (session cookies) until the game ends."""
    for _ in range(3000):
        view = _current(server, gid)
        if view["terminal"]:
            return
        mine = players[view["current_player"]].get(f"/api/games/{gid}").json()
        assert mine["legal_actions"], mine
        r = players[mine["seat"]].post(
            f"/api/games/{gid}/actions", json={"action": mine["legal_actions"][0], "version": mine["version"]}
        )
        assert r.status_code in (200, 409), r.text
    raise AssertionError("the game did not end")


def _rated(server: str, names: set[str], timeout: float = 30.0) -> dict[str, dict]:
    """The leaderboard's rows by name, once it lists every one of ``names``."""
    deadline = time.monotonic() + timeout
    while not names <= set(rows := {r["name"]: r for r in httpx.get(f"{server}/api/ratings/garum").json()}):
        assert time.monotonic() < deadline, f"the ratings never moved: {rows}"
        time.sleep(0.2)
    return rows


@pytest.mark.clean_console  # a whole game: no page or console error but a guest's 401 (conftest.py)
def test_two_friends_play_a_rated_turn_based_game_by_name_over_devices_with_mail_chat_ratings_and_rematch(
    browser, home, screenshots
):
    server, inbox = home
    ann, bob = (f"{who}-{secrets.token_hex(3)}" for who in ("ann", "bob"))
    rng = random.Random(51)
    first, second, third = _context(browser), _context(browser), _context(browser, PHONE)
    try:
        errors: list[str] = []
        for context in (first, second, third):
            context.on("page", lambda page: page.on("pageerror", lambda exc: errors.append(str(exc))))
        a, b = first.new_page(), second.new_page()
        _sign_up(a, server, ann, screenshots)
        _sign_up(b, server, bob)
        for name in (ann, bob):
            assert httpx.get(f"{server}/api/players/{name}").json()["ratings"] == []

        # Ann invites Bob by name to a turn-based table from the lobby's form
        a.goto(server + "/")
        poll(a, f"{BODY}.ready === 'true'")
        a.check("[data-testid=game-garum]")
        a.select_option("#opt-players", label="2")
        a.select_option("#opt-board", value="1")  # Baelo Claudia, 12 rounds: the shorter game
        a.select_option("#seat-1", value="human")
        a.check("[data-testid=seat-offer-1-invite]")
        a.fill("[data-testid=seat-invite-1]", bob)
        a.check("[data-testid=turn-based]")
        a.fill("[data-testid=turn-hours]", "24")
        a.click("[data-testid=create]")
        a.wait_for_url("**/games/**")
        gid = a.url.split("/games/")[1].split("#")[0].split("?")[0]
        link = f"{server}/games/{gid}"
        poll(a, f"{BODY}.waiting === 'true'")
        assert httpx.get(f"{server}/api/games/{gid}/ratings").json()["rated"] is True
        assert _current(server, gid)["options"]["board"] == "baelo_claudia"
        inbox.wait_for(bob, "an invitation", link)

        # Bob accepts from My games
        _my_games(b, server)
        assert b.locator(f"tr[data-game='{gid}']").get_attribute("data-status") == "invited"
        _shoot(b, screenshots, "my-games-invited")
        b.click(f"[data-testid=accept-{gid}]")
        b.wait_for_url(f"**/games/{gid}")
        poll(b, f"{BODY}.seat === '1' && {BODY}.waiting === 'false'")
        poll(a, f"{BODY}.waiting === 'false'")
        a.get_by_test_id("chat-mute-1").filter(has_text=f"Mute {bob}").wait_for()  # renamed as Bob sat down

        # a few turns by clicks, until it is Bob's turn after Ann played
        pages = {0: a, 1: b}
        moved = 0
        while moved < 3 or _current(server, gid)["current_player"] != 1:
            mover = _current(server, gid)["current_player"]
            _click_turn(pages[mover], [pages[1 - mover]], rng)
            moved += 1
            assert moved < 60, "Bob's turn never came"
        turn_mail = inbox.wait_for(bob, "your turn", link)
        assert "24 hours to move" in text_of(turn_mail)

        # Bob on another device: signs in, goes on from My games, then by the e-mail's link
        c = third.new_page()
        c.goto(f"{server}/signin")
        c.get_by_label("Name").fill(bob)
        c.get_by_label("Password").fill(PASSWORD)
        c.get_by_role("button", name="Sign in", exact=True).click()
        c.wait_for_url("**/me")
        poll(c, f"{BODY}.games === 'loaded'")
        assert c.locator(f"tr[data-game='{gid}']").get_attribute("data-status") == "your_turn"
        c.locator(f"#my-games a[href='/games/{gid}']").first.click()
        c.wait_for_url(f"**/games/{gid}")
        poll(c, f"{BODY}.seat === '1' && {BODY}.live === 'true'")
        _click_turn(c, [a, b], rng)
        c.goto(link)  # the e-mail's link opens the seat with the session alone
        poll(c, f"{BODY}.seat === '1' && {BODY}.live === 'true'")

        # chat: Ann's message appears live on Bob's other device
        a.locator("#chat h2").wait_for()
        c.locator("#chat h2").wait_for()
        a.get_by_test_id("chat-input").fill("your move, Bob")
        a.get_by_test_id("chat-send").click()
        c.locator("[data-testid=chat-message] .chat-text", has_text="your move, Bob").wait_for()
        assert a.get_by_test_id("turn-based").is_visible()
        a.get_by_test_id("turn-deadline").wait_for()
        _shoot(a, screenshots, "game-chat-deadline")

        # the end, by API moves with the session cookies: both ratings move, the leaderboard lists both
        players = {0: _api(first, server), 1: _api(third, server)}
        _play_out(server, gid, players)
        for http in players.values():
            http.close()
        for name in (ann, bob):
            inbox.wait_for(name, "game over", link)
        rows = _rated(server, {ann, bob})
        assert rows[ann]["games"] == rows[bob]["games"] == 1
        if len(_current(server, gid)["winners"]) == 1:  # one won: the ratings parted
            assert rows[ann]["rating"] != rows[bob]["rating"]
        else:  # a shared win (rare: the deal is the server's): one shared place, equal ratings
            assert rows[ann]["rating"] == rows[bob]["rating"]
        a.goto(f"{server}/ratings/garum")
        poll(a, f"{BODY}.ready === 'true'")
        listed = a.locator("[data-testid=leaderboard-row]").evaluate_all(
            "rows => rows.map(r => r.dataset.name)"
        )
        assert {ann, bob} <= set(listed)
        _shoot(a, screenshots, "leaderboard")
        a.locator(f"[data-testid=leaderboard-row][data-name='{bob}'] a").click()
        a.wait_for_url(lambda url: "/players/" in url)  # the leaderboard was ready too: poll the new page
        poll(a, f"{BODY}.ready === 'true'")
        assert a.get_by_test_id("player-name").text_content() == bob
        assert a.locator(f"[data-testid=player-game][data-game='{gid}']").get_by_text("rated").count() == 1
        _shoot(a, screenshots, "player")

        # rematch: Ann's click makes the table again; it reaches Bob's games as an invitation
        a.goto(link)
        poll(a, f"{BODY}.terminal === 'true'")
        a.click("[data-testid=rematch]")
        a.wait_for_url(lambda url: gid not in url)
        rematch = a.url.split("/games/")[1].split("#")[0].split("?")[0]
        assert re.fullmatch(r"[\w-]+", rematch)
        poll(a, f"{BODY}.seat === '0'")
        assert httpx.get(f"{server}/api/games/{rematch}/ratings").json()["rated"] is True
        _my_games(c, server)
        assert c.locator(f"tr[data-game='{rematch}']").get_attribute("data-status") == "invited"
        c.get_by_test_id(f"accept-{rematch}").wait_for()
        inbox.wait_for(bob, "an invitation", f"{server}/games/{rematch}")
        assert errors == []
    finally:
        for context in (first, second, third):
            context.close()
