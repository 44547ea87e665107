"""Link seats in the browser: the lobby's "Anyone with the link" makes a waiting table whose waiting room
shows the link with a Copy button; whoever opens the link takes the seat (a guest by the seat's token, a
signed-in player by their account), the host sees it live and the table starts with the last seat; a
rated table's host is not offered "Start with bots". Screenshots of the waiting room with a link seat
at a desktop's and a phone's width (under screenshots/)."""

from __future__ import annotations

import httpx
from browser_helpers import BODY, poll, signed_up

DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}


def _context(browser, viewport=DESKTOP):
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(20_000)
    return context


def _create_with_link_seat(page, server, name: str | None = None) -> str:
    page.goto(server + "/")
    poll(page, f"{BODY}.ready === 'true'")
    if name is not None:
        page.fill("[data-testid=my-name]", name)
    page.check("[data-testid=game-garum]")
    page.select_option("#opt-players", label="2")
    page.select_option("#seat-1", value="human")
    assert page.is_checked("[data-testid=seat-offer-1-link]")  # the default offer
    page.click("[data-testid=create]")
    page.wait_for_url("**/games/**")
    poll(page, f"{BODY}.waiting === 'true'")
    return page.url.split("/games/")[1].split("#")[0]


def test_a_guest_opening_the_link_takes_the_seat_and_the_host_sees_it_live(browser, server, screenshots):
    host_ctx, guest_ctx, watcher_ctx = _context(browser), _context(browser, PHONE), _context(browser)
    try:
        host = host_ctx.new_page()
        game_id = _create_with_link_seat(host, server, name="Ann")
        room = host.locator("[data-testid=waiting-room]")
        assert "anyone with the link" in room.locator("[data-testid=room-seat-1]").inner_text()
        link = host.input_value("[data-testid=join-link]")
        assert link == f"{server}/games/{game_id}#join"
        assert host.locator("[data-testid=join-link-copy]").inner_text() == "Copy"
        # an unrated table, once its rating is known
        host.locator("[data-testid=start-with-bots]").wait_for(state="visible")
        host.screenshot(path=str(screenshots / "tables-link-waiting-room-desktop.png"))
        host.set_viewport_size(PHONE)
        host.screenshot(path=str(screenshots / "tables-link-waiting-room-phone.png"), full_page=True)
        host.set_viewport_size(DESKTOP)

        again = host_ctx.new_page()  # the host opening the link in another tab keeps their own seat
        again.goto(link)
        poll(again, f"{BODY}.seat === '0' && {BODY}.waiting === 'true'")
        again.close()

        guest = guest_ctx.new_page()
        guest.goto(link)
        poll(guest, f"{BODY}.seat === '1' && {BODY}.waiting === 'false'")
        assert "#join" not in guest.url
        token = guest.evaluate(f"sessionStorage.getItem('ludus:token:{game_id}')")
        mine = httpx.get(f"{server}/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
        assert mine.json()["seat"] == 1  # the person who opened the link holds the seat's token
        poll(host, f"{BODY}.waiting === 'false'")  # live on the host's page: the last seat was taken
        assert room.is_hidden()
        guest.reload()  # the seat stays this tab's
        poll(guest, f"{BODY}.seat === '1'")
        watcher = watcher_ctx.new_page()
        watcher.goto(link)  # once every seat is taken, the link only shows the game
        poll(watcher, f"{BODY}.seat === 'spectator' && {BODY}.version !== undefined")
        assert "Every seat of this table is taken" in watcher.inner_text("#message")
    finally:
        for ctx in (host_ctx, guest_ctx, watcher_ctx):
            ctx.close()


def test_a_signed_in_player_opening_the_link_holds_the_seat_by_their_account(browser, server):
    host_ctx, guest_ctx = _context(browser), _context(browser)
    try:
        host, guest = host_ctx.new_page(), guest_ctx.new_page()
        signed_up(host, server, "lnk-")
        bob = signed_up(guest, server, "lnk-")
        game_id = _create_with_link_seat(host, server)
        guest.goto(host.input_value("[data-testid=join-link]"))
        poll(guest, f"{BODY}.seat === '1' && {BODY}.waiting === 'false'")
        poll(host, f"document.getElementById('seats').textContent.includes('{bob}')")
        # the account holds the seat: a page of the game without any token, on the same session
        guest.evaluate(f"sessionStorage.removeItem('ludus:token:{game_id}')")
        guest.goto(f"{server}/games/{game_id}")
        poll(guest, f"{BODY}.seat === '1'")
    finally:
        host_ctx.close()
        guest_ctx.close()


def test_a_rated_table_offers_its_host_no_start_with_bots(browser, server):
    host_ctx, guest_ctx = _context(browser), _context(browser)
    try:
        host, guest = host_ctx.new_page(), guest_ctx.new_page()
        signed_up(host, server, "lnk-")
        bob = signed_up(guest, server, "lnk-")
        host.goto(server + "/")
        poll(host, f"{BODY}.ready === 'true'")
        host.check("[data-testid=game-garum]")
        host.select_option("#opt-players", label="2")
        host.select_option("#seat-1", value="human")
        host.check("[data-testid=seat-offer-1-invite]")
        host.fill("[data-testid=seat-invite-1]", bob)  # every seat an account's: rated
        host.click("[data-testid=create]")
        host.wait_for_url("**/games/**")
        poll(host, f"{BODY}.waiting === 'true'")
        host.locator("[data-testid=rated-no-bots]").wait_for()
        assert host.locator("[data-testid=start-with-bots]").count() == 0
    finally:
        host_ctx.close()
        guest_ctx.close()
