"""The turn timer's countdown on the game page: shown for a game with ``turn_seconds``, counting
down on the server's clock (the browser's clock here is two hours fast), hidden without a timer."""

import re
import time

import httpx
from browser_helpers import BODY

TURN = 40
COUNTDOWN = "[data-testid=turn-countdown]"


def _create(server: str, options: dict) -> tuple[str, dict[int, str]]:
    body = httpx.post(
        f"{server}/api/games",
        json={"game": "garum", "options": {"players": 2, **options}, "seats": ["human", "human"]},
    ).json()
    return body["id"], {s["seat"]: s["token"] for s in body["seats"]}


def test_the_countdown_shows_the_time_left_for_the_turn_and_counts_down(page, server):
    game_id, tokens = _create(server, {"turn_seconds": TURN})
    mover = httpx.get(f"{server}/api/games/{game_id}").json()["current_player"]
    page.clock.install(time=time.time() + 2 * 3600)  # a browser clock two hours fast
    page.goto(f"{server}/games/{game_id}#token={tokens[mover]}")
    page.wait_for_function(f"{BODY}.myTurn === 'true'")
    # the socket's view of the seat resets the page's offset to the server's clock: wait for it, as a
    # view arriving after the clock is run would set the countdown back to the server's time
    page.wait_for_function(f"window.ludusGame.live?.seat === {mover}")
    countdown = page.locator(COUNTDOWN)
    countdown.wait_for(state="visible")
    # both read at one instant of the page: a second may tick between two separate reads
    seconds, text = page.evaluate(f"[{BODY}.secondsLeft, document.querySelector('{COUNTDOWN}').innerText]")
    first = int(seconds)
    assert 0 < first <= TURN
    assert re.fullmatch(rf"{first} s left", text.strip())
    page.clock.run_for(3_000)  # three seconds on the page's clock, its timers run at once
    later = int(re.fullmatch(r"(\d+) s left", countdown.inner_text().strip()).group(1))
    assert 0 < later < first
    assert page.js_errors == []


def test_no_countdown_without_a_turn_timer(page, server):
    game_id, tokens = _create(server, {})
    page.goto(f"{server}/games/{game_id}#token={tokens[0]}")
    page.wait_for_function(f"{BODY}.version !== undefined")
    assert page.locator(COUNTDOWN).is_hidden()
    assert page.evaluate(f"{BODY}.secondsLeft") is None
