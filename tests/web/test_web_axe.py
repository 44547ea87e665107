"""Accessibility: axe-core finds no serious or critical violation on the lobby, both games' pages in
the middle of a game and the replay viewer, at a desktop's and a phone's width; every clickable
part of the board is reachable by the keyboard, and the keyboard stays on the board after a move."""

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_helpers import BODY, api_game, wait_seat_live
from playwright.sync_api import TimeoutError as PlaywrightTimeout

WIDTHS = [(1366, 850), (390, 844)]


def _mover(server, gid, tokens):
    return tokens[httpx.get(f"{server}/api/games/{gid}").json()["current_player"]]


def serious(page):
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


@pytest.fixture(params=WIDTHS, ids=["desktop", "phone"])
def sized(request, browser):
    width, height = request.param
    ctx = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    ctx.set_default_timeout(15_000)
    yield ctx.new_page()
    ctx.close()


def test_the_lobby_has_no_serious_violation(sized, server):
    sized.goto(f"{server}/")
    sized.wait_for_selector("[data-testid=create]")
    assert serious(sized) == []


@pytest.mark.parametrize("game", ["garum", "celtae"])
def test_a_game_page_in_the_middle_of_a_game_has_no_serious_violation(sized, server, game):
    gid, tokens = api_game(server, game, moves=12)
    sized.goto(f"{server}/games/{gid}#token={_mover(server, gid, tokens)}")
    sized.wait_for_function(f"{BODY}.myTurn === 'true' && {BODY}.boardVersion === {BODY}.version")
    assert serious(sized) == []


@pytest.mark.parametrize("game", ["garum", "celtae"])
def test_the_replay_viewer_has_no_serious_violation(sized, server, game):
    gid, _ = api_game(server, game)
    sized.goto(f"{server}/replay?game={gid}")
    sized.wait_for_function(f"{BODY}.loaded === 'true'")
    sized.click("[data-testid=by-decision]")
    for _ in range(10):
        sized.keyboard.press("ArrowRight")
    sized.wait_for_function(f"{BODY}.step === '10'")
    assert serious(sized) == []


@pytest.mark.parametrize("game", ["garum", "celtae"])
def test_every_board_target_is_reachable_by_keyboard_and_focus_stays_on_the_board(page, server, game):
    created = httpx.post(
        f"{server}/api/games", json={"game": game, "options": {"players": 2}, "seats": ["human", "random"]}
    ).json()
    page.goto(f"{server}/games/{created['id']}#token={created['seats'][0]['token']}")
    wait_seat_live(page)  # its redraw would take the focus given before it
    for turn in range(4):
        page.wait_for_function(
            f"{BODY}.myTurn === 'true' && {BODY}.boardVersion === {BODY}.version && {BODY}.busy !== 'true'"
        )
        if turn:  # and through the other seat's move, drawn meanwhile
            assert page.evaluate("!!document.activeElement.closest('#board')")
        # a clickable part of the board that the Tab key cannot reach
        unreachable = page.evaluate("""[...document.querySelectorAll('#board [data-board-action], #board [data-board-select]')]
          .filter((e) => e.getClientRects().length && !e.matches('button:not([disabled]), a[href], [tabindex="0"]'))
          .map((e) => e.outerHTML.slice(0, 120))""")
        assert unreachable == []
        target = page.locator("#board [data-board-action]").first
        if not target.count():
            break
        before = int(page.evaluate(f"{BODY}.version"))
        target.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(f"Number({BODY}.version) > {before} && {BODY}.boardVersion === {BODY}.version")
        try:  # focus is put back once the board is drawn again
            page.wait_for_function("!!document.activeElement.closest('#board')", timeout=15_000)
        except PlaywrightTimeout:
            pytest.fail(
                "focus left the board: " + page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
            )
    assert not page.js_errors
