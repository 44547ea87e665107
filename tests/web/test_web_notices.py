"""Notices in the page: while the tab is hidden, the other player's move that makes it this seat's turn
shows in the tab title and as a dot on the tab's icon; seeing the tab again clears both. The "Sound"
toggle is kept in localStorage; "Notify me" is offered, and no permission is asked on load."""

from __future__ import annotations

import httpx
from browser_helpers import BODY, api_game, poll

HIDE = """(hidden) => {
  Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def _move_until_turn_of(server: str, gid: str, tokens: dict, seat: int) -> None:
    """The other seat plays (its first legal moves) until ``seat`` is to move."""
    with httpx.Client(base_url=server) as http:
        while (view := http.get(f"/api/games/{gid}").json())["current_player"] != seat:
            auth = {"Authorization": f"Bearer {tokens[view['current_player']]}"}
            legal = http.get(f"/api/games/{gid}", headers=auth).json()["legal_actions"]
            r = http.post(
                f"/api/games/{gid}/actions",
                json={"action": legal[0], "version": view["version"]},
                headers=auth,
            )
            assert r.status_code == 200, r.text


def test_the_hidden_tab_title_and_icon_tell_of_the_turn_and_clear_when_seen(page, server):
    gid, tokens = api_game(server, "garum", moves=0)
    mover = httpx.get(f"{server}/api/games/{gid}").json()["current_player"]
    me = 1 - mover
    page.goto(f"{server}/games/{gid}#token={tokens[me]}")
    poll(page, f"{BODY}.version !== undefined && {BODY}.seat === '{me}'")
    assert page.evaluate(f"{BODY}.myTurn") == "false"
    assert not page.title().startswith("●")
    assert page.get_by_role("button", name="Notify me").is_visible()  # offered, never asked on load
    assert page.evaluate("Notification.permission") == "default"
    sound = page.get_by_label("Sound")
    assert sound.is_checked()
    sound.uncheck()
    assert page.evaluate("localStorage.getItem('ludus.sound')") == "off"
    page.evaluate(HIDE, True)
    _move_until_turn_of(server, gid, tokens, me)
    poll(page, f"{BODY}.myTurn === 'true'")
    title = poll(page, "document.title.startsWith('●') && document.title")
    assert "Your turn" in title
    poll(page, "document.querySelector(\"link[rel~='icon']\").href.startsWith('data:image/png')")
    page.evaluate(HIDE, False)
    poll(page, "!document.title.startsWith('●')")
    assert page.evaluate("document.querySelector(\"link[rel~='icon']\").getAttribute('href')") == "data:,"
    page.reload()
    poll(page, f"{BODY}.version !== undefined")
    assert not page.get_by_label("Sound").is_checked()  # the choice is kept
