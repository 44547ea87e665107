"""The pages of plugin games without a browser module of their own, installed as packages of their
own (examples/pig: no SVG renderer, its board the generic table of its observation; examples/liars_dice:
the server's SVG board of a seat's hidden dice), at a desktop's and a phone's width: the game page
draws the board without a script error, a game played to its end by clicks shows the end screen
with no error (the record and the final replay step answer), and the replay viewer draws its steps."""

from __future__ import annotations

import random
import re
import time

import httpx
import pytest
from browser_helpers import BODY, click_random_legal, serving, wait_turn
from plugins.site import install, on_path
from turn_log import check_turn_log

GAMES = {"pig": {"players": 2, "target": 20}, "liars_dice": {"players": 2, "dice": 2}}
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
END_SCREEN = r"/api/games/[^/]+/(record|replay\?step=)"  # what the end screen asks for


@pytest.fixture(scope="module")
def plugin_server(tmp_path_factory):
    """A live server started once the examples are on the path: its bot workers, spawned with that
    path, find them too."""
    from ludus.server.app import create_app
    from ludus.server.settings import Settings

    with on_path(install(tmp_path_factory.mktemp("site"))):
        settings = Settings(bot_seconds=0.05, bot_pace=0, create_rate="1000/minute", bot_games_per_host=1000)
        app = create_app(f"sqlite:///{tmp_path_factory.mktemp('db') / 'ludus.db'}", settings=settings)
        with serving(app) as url:
            yield url


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", GAMES)
def test_a_plugin_game_is_drawn_played_and_ended_without_an_error(
    page, plugin_server, screenshots, game, width
):
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS[width], strict=True)))
    created = httpx.post(
        f"{plugin_server}/api/games",
        json={"game": game, "options": GAMES[game], "seats": ["human", "random"]},
    ).json()
    gid, token = created["id"], created["seats"][0]["token"]
    answers: list[tuple[str, int]] = []
    page.on("response", lambda r: answers.append((r.url, r.status)) if re.search(END_SCREEN, r.url) else None)
    page.goto(f"{plugin_server}/games/{gid}#token={token}")
    page.wait_for_function(f"{BODY}.boardVersion !== undefined")
    if game == "pig":  # no SVG: the observation as a table, each field by its name in words
        board = page.locator("[data-testid=generic-board]")
        assert board.locator("th", has_text="Turn total").count() == 1
    else:  # the server's SVG: the seat's own dice face up, the other cups closed
        assert (
            "Seat 1 (you)" in page.text_content("#board svg")
            and page.locator("#board svg text", has_text="?").count() == 2
        )
    page.screenshot(path=str(screenshots / f"plugin-{game}-{width}.png"), full_page=True)
    rng = random.Random(3)
    for _ in range(400):
        if wait_turn(page) == "over":
            break
        before = page.evaluate(f"{BODY}.version")
        click_random_legal(page, rng)
        page.wait_for_function(f"{BODY}.version !== '{before}' && {BODY}.busy !== 'true'")
    page.locator("[data-testid=game-over]").wait_for()
    ended = _end_screen_answers(page, answers)  # it fetches the record, then the final replay step
    assert [status for _, status in ended] == [200, 200], ended
    assert "not available" not in page.inner_text("#message") and "error" not in page.inner_text("#message")
    record = httpx.get(f"{plugin_server}/api/games/{gid}/record").json()
    sentences = check_turn_log(page, record)  # one entry per turn, each with its own steps
    # a game with no words of its own: each turn a sentence with the seat's name and what it played
    assert all(re.fullmatch(r"Seat [12] played \S.*\.", s) for s in sentences), sentences[:3]
    page.screenshot(path=str(screenshots / f"plugin-{game}-{width}-over.png"), full_page=True)
    page.goto(f"{plugin_server}/replay?game={gid}")
    page.wait_for_function(f"{BODY}.loaded === 'true'")
    page.wait_for_selector("#board svg, #board [data-testid=generic-board]")
    assert page.js_errors == []


def _end_screen_answers(page, answers: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """The record's and the final replay step's answers to the end screen, once both came (15 s at most)."""
    deadline = time.monotonic() + 15
    while len(answers) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    return answers
