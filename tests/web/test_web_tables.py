"""Tables in the browser: the lobby offers a seat to a player by name on a turn-based table; the game
page's waiting room shows who is awaited, live; the invited player accepts from My games and the table
starts on both pages; the host starts a waiting table with bots; a finished game's "Rematch" makes the
new table. Screenshots of the lobby form, the waiting room and My games at a desktop's and a phone's
width (under screenshots/)."""

from __future__ import annotations

import httpx
from browser_helpers import BODY, poll, signed_up

DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}


def _context(browser, viewport=DESKTOP):
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(20_000)
    return context


def test_an_invitation_by_name_waits_then_starts_when_accepted(browser, server, screenshots):
    host_ctx, guest_ctx = _context(browser), _context(browser)
    try:
        host, guest = host_ctx.new_page(), guest_ctx.new_page()
        signed_up(host, server, "tbl-")
        bob = signed_up(guest, server, "tbl-")
        host.goto(server + "/")
        poll(host, f"{BODY}.ready === 'true'")
        host.check("[data-testid=game-garum]")
        host.select_option("#opt-players", label="2")
        host.select_option("#seat-1", value="human")
        host.check("[data-testid=seat-offer-1-invite]")
        host.fill("[data-testid=seat-invite-1]", bob)
        assert host.is_hidden("#seat-name-1")  # the invited player's account names the seat
        host.check("[data-testid=turn-based]")
        host.fill("[data-testid=turn-hours]", "48")
        host.select_option("[data-testid=on-timeout]", value="others")
        host.locator("#new-game").screenshot(path=str(screenshots / "tables-lobby-desktop.png"))
        host.set_viewport_size(PHONE)
        host.screenshot(path=str(screenshots / "tables-lobby-phone.png"), full_page=True)
        host.set_viewport_size(DESKTOP)
        host.click("[data-testid=create]")
        host.wait_for_url("**/games/**")
        poll(host, f"{BODY}.waiting === 'true'")
        room = host.locator("[data-testid=waiting-room]")
        assert bob in room.locator("[data-testid=room-seat-1]").inner_text()
        # every seat an account's: a rated table, which this server starts with no bots
        # once the table's rating is known
        host.locator("[data-testid=rated-no-bots]").wait_for(state="visible")
        assert host.locator("[data-testid=start-with-bots]").count() == 0
        assert "Waiting for players" in host.locator("[data-testid=turn]").inner_text()
        assert "48 h to move" in host.locator("[data-testid=turn-based]").inner_text()
        host.screenshot(path=str(screenshots / "tables-waiting-room-desktop.png"))
        host.set_viewport_size(PHONE)
        host.screenshot(path=str(screenshots / "tables-waiting-room-phone.png"), full_page=True)
        game_id = host.url.split("/games/")[1].split("#")[0]

        guest.goto(f"{server}/me")
        poll(guest, f"{BODY}.games === 'loaded'")
        row = guest.locator(f"tr[data-game='{game_id}']")
        assert row.get_attribute("data-status") == "invited"
        guest.screenshot(path=str(screenshots / "tables-my-games-invited-desktop.png"))
        guest.set_viewport_size(PHONE)
        guest.screenshot(path=str(screenshots / "tables-my-games-invited-phone.png"), full_page=True)
        guest.click(f"[data-testid=accept-{game_id}]")
        guest.wait_for_url(f"**/games/{game_id}")
        poll(guest, f"{BODY}.seat === '1' && {BODY}.waiting === 'false'")
        poll(host, f"{BODY}.waiting === 'false'")  # live on the host's page: the table started
        assert host.locator("[data-testid=waiting-room]").is_hidden()
        mover = host.evaluate("window.ludusGame.view.current_player")
        poll(host if mover == 0 else guest, f"{BODY}.myTurn === 'true'")  # the seat to move may play now
    finally:
        host_ctx.close()
        guest_ctx.close()


def test_the_host_starts_a_waiting_table_with_bots(browser, server):
    ctx = _context(browser)
    try:
        page = ctx.new_page()
        page.goto(server + "/")
        poll(page, f"{BODY}.ready === 'true'")
        page.check("[data-testid=game-garum]")
        page.select_option("#opt-players", label="2")
        page.select_option("#seat-1", value="human")
        page.check("[data-testid=seat-offer-1-open]")
        page.click("[data-testid=create]")
        page.wait_for_url("**/games/**")
        poll(page, f"{BODY}.waiting === 'true'")
        assert "open lobby" in page.locator("[data-testid=room-seat-1]").inner_text()
        page.select_option("[data-testid=start-level]", index=0)
        page.click("[data-testid=start-with-bots]")
        poll(page, f"{BODY}.waiting === 'false'")
        poll(
            page,
            "document.querySelectorAll('#seats td').length > 0 && document.querySelector('#seats').textContent.includes('bot')",
        )
    finally:
        ctx.close()


def test_rematch_after_the_end_opens_the_new_table(browser, server):
    created = httpx.post(f"{server}/api/games", json={"game": "garum", "seats": ["human", "random"]}).json()
    token = created["seats"][0]["token"]
    gid = created["id"]
    ctx = _context(browser)
    try:
        page = ctx.new_page()
        page.goto(f"{server}/games/{gid}#token={token}")
        poll(page, f"{BODY}.seat === '0'")
        left = httpx.post(f"{server}/api/games/{gid}/leave", headers={"Authorization": f"Bearer {token}"})
        assert left.status_code == 200
        poll(page, f"{BODY}.terminal === 'true'", timeout=90)
        page.click("[data-testid=rematch]")
        page.wait_for_url(lambda url: gid not in url)
        poll(page, f"{BODY}.seat === '0'")
        new_id = page.url.split("/games/")[1].split("#")[0]
        old = httpx.get(f"{server}/api/games/{gid}").json()
        assert old["rematch"] == new_id
    finally:
        ctx.close()
