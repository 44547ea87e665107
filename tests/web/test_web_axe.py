"""Accessibility: axe-core finds no serious or critical violation on the lobby, both games' pages in
the middle of a game and the replay viewer, at a desktop's and a phone's width; every clickable
part of the board is reachable by the keyboard, and the keyboard stays on the board after a move."""

import random

import httpx
import pytest
from browser_helpers import BODY

pytest.importorskip("axe_playwright_python", reason="the test extra (axe-playwright-python) is not installed")
from axe_playwright_python.sync_playwright import Axe  # noqa: E402

WIDTHS = [(1366, 850), (390, 844)]


def _game(server, game, moves, seed=1):
    """A 2-seat game of humans played ``moves`` random moves in: (id, tokens)."""
    created = httpx.post(f"{server}/api/games", json={"game": game, "options": {"players": 2},
                                                      "seats": ["human", "human"]}).json()
    gid, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    rng = random.Random(seed)
    with httpx.Client(base_url=server) as http:
        for _ in range(moves):
            view = http.get(f"/api/games/{gid}").json()
            if view["terminal"]:
                break
            auth = {"Authorization": f"Bearer {tokens[view['current_player']]}"}
            legal = http.get(f"/api/games/{gid}", headers=auth).json()["legal_actions"]
            http.post(f"/api/games/{gid}/actions", json={"action": rng.choice(legal), "version": view["version"]},
                      headers=auth)
    return gid, tokens


def _mover(server, gid, tokens):
    return tokens[httpx.get(f"{server}/api/games/{gid}").json()["current_player"]]


def serious(page):
    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
            for v in found if v["impact"] in ("serious", "critical")]


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
    gid, tokens = _game(server, game, 12)
    sized.goto(f"{server}/games/{gid}#token={_mover(server, gid, tokens)}")
    sized.wait_for_function(f"{BODY}.myTurn === 'true' && {BODY}.boardVersion === {BODY}.version")
    assert serious(sized) == []


@pytest.mark.parametrize("game", ["garum", "celtae"])
def test_the_replay_viewer_has_no_serious_violation(sized, server, game):
    gid, _ = _game(server, game, 400)
    sized.goto(f"{server}/replay?game={gid}")
    sized.wait_for_function(f"{BODY}.loaded === 'true'")
    for _ in range(10):
        sized.keyboard.press("ArrowRight")
    sized.wait_for_function(f"{BODY}.step === '10'")
    assert serious(sized) == []


@pytest.mark.parametrize("game", ["garum", "celtae"])
def test_every_board_target_is_reachable_by_keyboard_and_focus_stays_on_the_board(page, server, game):
    gid, tokens = _game(server, game, 6)
    page.goto(f"{server}/games/{gid}#token={_mover(server, gid, tokens)}")
    for _ in range(4):
        page.wait_for_function(f"{BODY}.myTurn === 'true' && {BODY}.boardVersion === {BODY}.version "
                               f"&& {BODY}.busy !== 'true'")
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
        page.wait_for_timeout(50)
        assert page.evaluate("!!document.activeElement.closest('#board')"), page.evaluate(
            "document.activeElement.outerHTML.slice(0, 120)")
        # another seat's turn comes next: play it over HTTP so the page's seat moves again
        with httpx.Client(base_url=server) as http:
            while True:
                view = http.get(f"/api/games/{gid}").json()
                if view["terminal"] or tokens[view["current_player"]] == _mover_token(page):
                    break
                auth = {"Authorization": f"Bearer {tokens[view['current_player']]}"}
                legal = http.get(f"/api/games/{gid}", headers=auth).json()["legal_actions"]
                http.post(f"/api/games/{gid}/actions", json={"action": legal[0], "version": view["version"]},
                          headers=auth)
    assert not page.js_errors


def _mover_token(page):
    return page.evaluate("sessionStorage.getItem(Object.keys(sessionStorage).find((k) => k.startsWith('ludus:token:')))")
