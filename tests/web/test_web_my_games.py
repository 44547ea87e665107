"""A player's home in Chromium, the finishing touches of issue 51: a signed-in host enters their seat by
the session (no token in any link or in the browser's storage; a guest keeps their seat's link); My games
rows say the options in words, the time to move and who invites you; the rating chart's labels stay
readable on a phone; the "Legal moves" box shows only on your turn. Screenshots of My games and a
player's page at a desktop's and a phone's width (under screenshots/)."""

from __future__ import annotations

import secrets

import httpx
import pytest
from browser_helpers import BODY, PASSWORD, api_game, play_out, poll, signed_up

DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
WIDTHS = {"desktop": DESKTOP, "phone": PHONE}

# every label of the chart: its font size on screen, in CSS pixels (the SVG's scale included)
LABEL_SIZES = """() => [...document.querySelectorAll('#rating-chart text')].map((t) => {
  const m = t.getScreenCTM();
  return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
})"""


def _context(browser, viewport=DESKTOP):
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    context.set_default_timeout(20_000)
    return context


def _account(server: str, prefix: str) -> tuple[str, httpx.Client]:
    name = prefix + secrets.token_hex(3)
    http = httpx.Client(base_url=server, timeout=10)
    assert http.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    return name, http


def _create_in_lobby(page, server: str) -> str:
    """A Garum table of two made in the lobby, its second seat offered by the link; the game's id."""
    page.goto(server + "/")
    poll(page, f"{BODY}.ready === 'true'")
    page.check("[data-testid=game-garum]")
    page.select_option("#opt-players", label="2")
    page.select_option("#seat-1", value="human")
    page.click("[data-testid=create]")
    page.wait_for_url("**/games/**")
    poll(page, f"{BODY}.seat === '0' && {BODY}.waiting === 'true'")
    return page.url.split("/games/")[1].split("#")[0]


def _stored(page, game_id: str) -> dict:
    return page.evaluate(
        """(id) => ({session: sessionStorage.getItem(`ludus:token:${id}`),
                     local: JSON.parse(localStorage.getItem(`ludus:game:${id}`) || '{}')})""",
        game_id,
    )


def test_a_signed_in_host_enters_by_the_session_with_no_token_anywhere_and_a_guest_keeps_the_link(
    browser, server
):
    context = _context(browser)
    try:
        page = context.new_page()
        addresses: list[str] = []
        page.on("framenavigated", lambda frame: addresses.append(frame.url))
        signed_up(page, server, "host")
        game_id = _create_in_lobby(page, server)
        assert not [a for a in addresses if "token" in a], addresses
        assert page.locator("[data-testid=own-link]").count() == 0
        assert page.input_value("[data-testid=join-link]").endswith(f"/games/{game_id}#join")  # others' link
        stored = _stored(page, game_id)
        assert stored["session"] is None and "mine" not in stored["local"], stored
        page.reload()  # the session alone opens the seat again
        poll(page, f"{BODY}.seat === '0' && {BODY}.waiting === 'true'")
    finally:
        context.close()
    guest = _context(browser)
    try:
        page = guest.new_page()
        game_id = _create_in_lobby(page, server)
        own = page.input_value("[data-testid=own-link]")
        assert f"/games/{game_id}#token=" in own
        assert _stored(page, game_id)["local"]["mine"] == own.split("#token=")[1]
    finally:
        guest.close()


def test_my_games_rows_say_the_options_the_time_to_move_and_who_invites_you(browser, server, screenshots):
    host, http = _account(server, "ann")
    other, _ = _account(server, "cid")
    context = _context(browser)
    try:
        page = context.new_page()
        me = signed_up(page, server, "bob")
        seats = ["human", {"kind": "human", "invite": me}, {"kind": "human", "invite": other}]
        options = {"players": 3, "board": "baelo_claudia", "variant": "emperor"}
        r = http.post(
            "/api/games", json={"game": "garum", "options": options, "seats": seats, "turn_hours": 24}
        )
        assert r.status_code == 201, r.text
        game_id = r.json()["id"]
        page.goto(f"{server}/me")
        poll(page, f"{BODY}.games === 'loaded'")
        words = page.get_by_test_id(f"my-game-options-{game_id}").inner_text()
        assert words == "3 players · Baelo Claudia · Emperor · 24 hours to move"
        who = page.get_by_test_id(f"my-game-players-{game_id}").inner_text()
        assert who == f"{host} invites you, with {other} (invited)"
        assert "(you)" not in page.inner_text("#my-games")
        for label, viewport in WIDTHS.items():
            page.set_viewport_size(viewport)
            page.screenshot(path=str(screenshots / f"my-games-rows-{label}.png"), full_page=True)
    finally:
        context.close()
        http.close()


def _rated_game_played(server: str) -> str:
    """A rated game of two accounts played to its end by first legal moves; the first player's name."""
    (first, ann), (_, bob) = _account(server, "chart"), _account(server, "chart")
    created = ann.post(
        "/api/games", json={"game": "garum", "seats": ["human", "human"], "claim": [0], "rated": True}
    )
    gid = created.json()["id"]
    assert bob.post(f"/api/games/{gid}/join").status_code == 200
    play_out(server, gid, {0: ann, 1: bob})
    ann.close()
    bob.close()
    return first


@pytest.mark.slow
def test_the_rating_charts_labels_are_at_least_11_pixels_on_a_phone_and_a_desktop(
    browser, server, screenshots
):
    name = _rated_game_played(server)
    for label, viewport in WIDTHS.items():
        context = _context(browser, viewport)
        try:
            page = context.new_page()
            page.goto(f"{server}/players/{name}")
            poll(
                page,
                f"{BODY}.ready === 'true' && document.querySelectorAll('#rating-chart circle').length === 1",
            )
            sizes = page.evaluate(LABEL_SIZES)
            assert len(sizes) >= 3 and min(sizes) >= 11, (label, sizes)
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")  # nothing wider
            page.screenshot(path=str(screenshots / f"player-page-{label}.png"), full_page=True)
            other = PHONE if viewport is DESKTOP else DESKTOP  # turned or resized: drawn again to its width
            page.set_viewport_size(other)
            poll(page, f"({LABEL_SIZES})().every((s) => s >= 11 && s < 16)")
        finally:
            context.close()


def test_the_legal_moves_box_shows_only_to_the_seat_to_move(browser, server):
    gid, tokens = api_game(server, "garum", players=2, moves=0)
    to_move = httpx.get(f"{server}/api/games/{gid}").json()["current_player"]
    context = _context(browser)
    try:
        for token, shown in ((tokens[to_move], True), (tokens[1 - to_move], False), (None, False)):
            page = context.new_page()  # a page of its own: only the address's #token differs
            page.goto(f"{server}/games/{gid}" + (f"#token={token}" if token else ""))
            poll(page, f"{BODY}.version !== undefined")
            assert page.is_visible("#moves") is shown, (token, shown)
            assert page.locator("#legal").count() == 1 and page.locator("#typed").count() == 1  # hidden, kept
            if shown:
                assert page.locator("#legal [data-action]").count() > 0
            else:
                assert "Legal moves" not in page.inner_text("main")
    finally:
        context.close()
