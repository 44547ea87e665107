"""Accounts in the browser: a guest's game is claimed when the browser signs up; a game created signed in
is the account's; on another device (a second browser context, a phone's width) the account signs in,
finds both in "My games" and plays its seat with the session alone. The account pages pass the axe
checks at a desktop's and a phone's width, hold the Content-Security-Policy, and are screenshotted."""

from __future__ import annotations

import random
import secrets

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_helpers import BODY, click_random_legal, create_in_lobby, open_my_seat, poll, wait_turn

PASSWORD = "correct horse battery"
DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}


def _context(browser, viewport):
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    context.set_default_timeout(20_000)
    return context


def _account_name() -> str:
    return "web-" + secrets.token_hex(4)  # the browser tests share one server


def _sign(page, server, name, create, go=True):
    """Fill the sign-in form (opened first unless ``go`` is false) and send it."""
    if go:
        page.goto(f"{server}/signin")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    if create:
        page.get_by_label("Email (optional)").fill(f"{name}@example.org")
    page.get_by_role("button", name="Create account" if create else "Sign in", exact=True).click()


def _signed_in_header(page, name):
    page.wait_for_function(f"{BODY}.account === 'signed-in'")
    header = page.locator("header.top")
    assert header.get_by_text(name, exact=True).is_visible()
    assert header.get_by_role("link", name="My games").is_visible()
    assert header.get_by_role("button", name="Sign out").is_visible()


def _my_games(page):
    page.wait_for_function(f"{BODY}.games === 'loaded'")
    return page.locator("#my-games a[href^='/games/']")


def serious(page):
    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']})" for v in found if v["impact"] in ("serious", "critical")]


def test_a_guests_game_and_a_signed_in_game_are_played_from_another_device(browser, server, screenshots):
    name = _account_name()
    desk = _context(browser, DESKTOP)
    phone = _context(browser, PHONE)
    try:
        page = desk.new_page()
        create_in_lobby(page, server, "garum", {"players": "2"}, ["human", "random"])  # as a guest
        guest_game = open_my_seat(page)
        page.goto(f"{server}/")
        page.wait_for_function(f"{BODY}.account === 'signed-out'")
        page.get_by_role("link", name="Sign in").click()
        page.wait_for_url("**/signin**")
        page.screenshot(path=str(screenshots / "accounts-signin-desktop.png"))
        _sign(page, server, name, create=True, go=False)
        page.wait_for_url(f"{server}/")  # back where the "Sign in" link was followed
        _signed_in_header(page, name)
        create_in_lobby(page, server, "garum", {"players": "2"}, ["human", "random"])  # signed in
        own_game = open_my_seat(page)
        page.goto(f"{server}/me")
        links = _my_games(page)
        assert {links.nth(i).get_attribute("href") for i in range(links.count())} >= {
            f"/games/{guest_game}",
            f"/games/{own_game}",
        }
        page.screenshot(path=str(screenshots / "accounts-my-games-desktop.png"))

        other = phone.new_page()  # another device: no token of either game
        _sign(other, server, name, create=False)
        other.wait_for_url("**/me")
        _signed_in_header(other, name)
        other.screenshot(path=str(screenshots / "accounts-my-games-phone.png"))
        links = _my_games(other)
        assert links.count() >= 2
        for game in (guest_game, own_game):
            other.goto(f"{server}/me")
            _my_games(other)
            other.locator(f"#my-games a[href='/games/{game}']").click()
            other.wait_for_url(f"**/games/{game}")
            poll(other, f"{BODY}.seat === '0'")  # the session opened the account's seat
            assert wait_turn(other) == "mine"
            before = int(other.evaluate(f"{BODY}.version"))
            click_random_legal(other, random.Random(5))
            other.wait_for_function(f"Number({BODY}.version) > {before}")
            held = other.evaluate("Object.keys(sessionStorage).filter((k) => k.startsWith('ludus:token:'))")
            assert held == []  # no token was needed, none was kept
        other.screenshot(path=str(screenshots / "accounts-game-phone.png"))
        other.get_by_role("button", name="Sign out").click()
        other.wait_for_url(f"{server}/")
        other.wait_for_function(f"{BODY}.account === 'signed-out'")
    finally:
        desk.close()
        phone.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_account_pages_have_no_serious_violation(browser, server, viewport, screenshots):
    context = _context(browser, viewport)
    width = "desktop" if viewport is DESKTOP else "phone"
    try:
        page = context.new_page()
        page.goto(f"{server}/signin")
        page.wait_for_function(f"{BODY}.ready === 'true' && {BODY}.account === 'signed-out'")
        assert serious(page) == []
        page.screenshot(path=str(screenshots / f"accounts-signin-{width}.png"))
        page.goto(f"{server}/reset")
        page.wait_for_function(f"{BODY}.ready === 'true'")
        assert serious(page) == []
        page.screenshot(path=str(screenshots / f"accounts-reset-{width}.png"))
        _sign(page, server, _account_name(), create=True)
        page.wait_for_url("**/me")
        _my_games(page)
        _signed_in_header(page, page.evaluate("document.querySelector('.account-name').textContent"))
        assert serious(page) == []
        page.goto(f"{server}/")
        page.wait_for_function(f"{BODY}.ready === 'true' && {BODY}.account === 'signed-in'")
        assert serious(page) == []  # the lobby with the signed-in header
        page.screenshot(path=str(screenshots / f"accounts-lobby-{width}.png"))
    finally:
        context.close()


def test_the_account_pages_hold_the_content_security_policy(strict_page, server):
    for path in ("/signin", "/reset"):
        strict_page.goto(f"{server}{path}")
        poll(strict_page, f"{BODY}.ready === 'true' && {BODY}.account === 'signed-out'")
    strict_page.goto(f"{server}/me")
    strict_page.wait_for_url("**/signin?next=/me")  # "My games" signed out: sign in first
    poll(strict_page, f"{BODY}.account === 'signed-out'")
    assert strict_page.js_errors == []


def test_a_wrong_password_is_said_on_the_page_and_nothing_is_signed_in(page, server):
    _sign(page, server, _account_name(), create=False)
    page.wait_for_function(
        "document.getElementById('message').textContent.includes('wrong name or password')"
    )
    assert page.url.endswith("/signin")
    page.goto(f"{server}/")
    page.wait_for_function(f"{BODY}.account === 'signed-out'")
