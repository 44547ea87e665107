"""Moved pieces travel (js/motion.js) and Garum opens fitted to a phone's screen.

With motion on, a Garum tile placed from the hand flies there from the hand's tile, the bot's tile
comes in and stays marked as its last move, and Celtae's rondel marker travels from its old corner;
with reduced motion, or by default on a page driven by automation (these tests), nothing moves.
Garum's board opens fitted to the screen at 390 and 1400 px with its rows', columns' and cetaria's
numbers readable (11 px and more) and its name as people write it. Screenshots go to
screenshots/garum-fit-*.png."""

from __future__ import annotations

import random

import httpx
import pytest
from browser_helpers import BODY, MOTION_ON, click_random_legal, wait_board_turn, wait_version_after

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1400, "height": 900}
# every piece the motion module animates, recorded as it starts (its Web Animations are named
# "ludus-motion"): window.moved = [{piece, place, moved, animated, last}], read without racing the 300 ms
RECORD = """() => {
  window.moved = [];
  new MutationObserver((records) => records.forEach(({target: n}) => n.dataset.moved && window.moved.push({
    piece: n.dataset.piece, place: n.dataset.place || null, moved: n.dataset.moved,
    animated: n.getAnimations().some((a) => a.id === 'ludus-motion'), last: !!n.querySelector('.last-move')})))
    .observe(document.getElementById('board'), {subtree: true, attributeFilter: ['data-moved']});
}"""


def _garum(browser, server, viewport, *, motion: bool, reduced: bool = False, board: str = "troia"):
    ctx = browser.new_context(
        viewport=viewport, bypass_csp=True, reduced_motion="reduce" if reduced else "no-preference"
    )
    ctx.set_default_timeout(15_000)
    if motion:
        ctx.add_init_script(MOTION_ON)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    created = httpx.post(
        f"{server}/api/games",
        json={"game": "garum", "seats": ["human", "random"], "options": {"players": 2, "board": board}},
    ).json()
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    page.goto(f"{server}/games/{created['id']}#token={token}")
    page.wait_for_selector("[data-testid=garum-panels]")
    return ctx, page, errors


def _place_a_tile(page) -> str:
    """Pick the first tile and click the first slot offered; the placed tile's piece name."""
    page.wait_for_function(f"{BODY}.phase === 'place'")
    page.locator("#controls [data-tile]:not([disabled])").first.click()
    target = page.locator(".board-overlay [data-board-action]").first
    action = target.get_attribute("data-board-action")
    target.click()
    return "tile " + action.split(" ")[0]


def _piece(name: str) -> str:
    return f'#board [data-piece="{name}"]'


def test_a_placed_tile_travels_from_the_hand_and_the_bots_tile_comes_in_marked(browser, server):
    ctx, page, errors = _garum(browser, server, DESKTOP, motion=True)
    page.evaluate(RECORD)
    rng = random.Random(2)
    mine = None
    for _ in range(30):  # my turns by the board until the bot has placed a tile
        assert wait_board_turn(page) == "mine"
        if any(m["moved"] == "enter" and m["last"] for m in page.evaluate("window.moved")):
            break
        before = int(page.evaluate(f"{BODY}.version"))
        if page.evaluate(f"{BODY}.phase") == "place":
            mine = mine or _place_a_tile(page)
        else:
            _worker_or_pass(page, rng)
        wait_version_after(page, before)
    else:
        raise AssertionError("the bot's tile never came in")
    moved = page.evaluate("window.moved")
    # mine flew from the hand (not out of nowhere), the bot's came in, its fish marked as its last move
    assert {"piece": mine, "place": None, "moved": "move", "animated": True, "last": False} in moved, moved
    assert all(m["animated"] and m["piece"].split()[0] in ("tile", "worker") for m in moved), moved
    assert not errors, errors
    ctx.close()


def _worker_or_pass(page, rng: random.Random) -> None:
    lines = page.locator(".board-overlay [data-board-action]")
    if lines.count():
        lines.nth(rng.randrange(lines.count())).locator("rect").first.click()
    else:
        page.click("#controls [data-testid=pass]")


def test_the_celtae_marker_travels_from_its_old_corner(browser, server):
    ctx = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    ctx.set_default_timeout(15_000)
    ctx.add_init_script(MOTION_ON)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    created = httpx.post(
        f"{server}/api/games",
        json={"game": "celtae", "options": {"players": 2}, "seats": ["human", "random"]},
    ).json()
    page.goto(f"{server}/games/{created['id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("#board .cb")
    rng = random.Random(7)
    for _ in range(60):
        assert wait_board_turn(page) == "mine", "the game ended before a rondel move"
        moves = page.locator("#legal [data-action^='move ']")
        before = int(page.evaluate(f"{BODY}.version"))
        if moves.count():
            corner = page.get_attribute(_piece("marker"), "data-place")
            page.evaluate(RECORD)
            moves.nth(rng.randrange(moves.count())).click()
            wait_version_after(page, before)
            page.wait_for_function("window.moved.some((m) => m.piece === 'marker')")
            marker = next(m for m in page.evaluate("window.moved") if m["piece"] == "marker")
            assert marker["moved"] == "move" and marker["animated"] and marker["place"] != corner, marker
            break
        click_random_legal(page, rng)
        wait_version_after(page, before)
    else:
        raise AssertionError("no rondel move was offered")
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("setting", ["reduced motion", "automation's default"])
def test_nothing_moves_with_reduced_motion_or_by_default_in_tests(browser, server, setting):
    reduced = setting == "reduced motion"
    ctx, page, errors = _garum(browser, server, DESKTOP, motion=reduced, reduced=reduced)
    assert wait_board_turn(page) == "mine"
    tile = _place_a_tile(page)
    page.wait_for_selector(_piece(tile))
    # a few frames on: the piece was drawn in place, and nothing on the board moved or pulses
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert page.eval_on_selector(_piece(tile), "(n) => n.getAnimations({subtree: true}).length") == 0
    assert page.locator("#board [data-moved]").count() == 0
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize(("viewport", "tag"), [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_garum_opens_fitted_with_readable_row_column_and_cetarium_labels(
    browser, server, screenshots, viewport, tag
):
    ctx, page, errors = _garum(browser, server, viewport, motion=False, board="baelo_claudia")
    assert wait_board_turn(page) == "mine"
    fitted = page.evaluate("""() => {
      const svg = document.querySelector('#board .board-svg > svg');
      const scale = svg.getScreenCTM().a;  // screen pixels per unit of the drawing
      const sizes = (sel) => [...svg.querySelectorAll(sel)].map((n) => parseFloat(n.getAttribute('font-size')) * scale);
      const labels = [...svg.querySelectorAll('.coordinate')].map((n) => n.textContent);
      return {zoomed: document.body.classList.contains('garum-zoom'), width: svg.getBoundingClientRect().width,
        page: document.documentElement.scrollWidth, labels, coordinate: Math.min(...sizes('.coordinate')),
        cetarium: Math.min(...sizes('.cetarium-number text')), cetaria: svg.querySelectorAll('.cetarium-number').length};
    }""")
    assert not fitted["zoomed"]
    assert fitted["page"] <= viewport["width"] and fitted["width"] <= viewport["width"]
    assert {f"h{i}" for i in range(1, 17)} | {f"v{i}" for i in range(1, 17)} == set(fitted["labels"])
    assert fitted["coordinate"] >= 11 and fitted["cetarium"] >= 11, fitted
    grid = page.evaluate("window.ludusGame.view.observation.grid")
    assert fitted["cetaria"] == sum(1 for row in grid for n in row if n)  # every cetarium numbered
    assert "Board: Baelo Claudia" in page.inner_text("#summary")
    page.locator("#board").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"garum-fit-{tag}-start.png"))
    rng = random.Random(11)
    for _ in range(12):  # mid-game: a few turns of tiles and workers by the board
        if wait_board_turn(page) == "over":
            break
        before = int(page.evaluate(f"{BODY}.version"))
        if page.evaluate(f"{BODY}.phase") == "place":
            _place_a_tile(page)
        else:
            lines = page.locator(".board-overlay [data-board-action]")
            if (
                tag == "phone" and lines.count()
            ):  # every row and column target 24 px and more on the fitted board
                sizes = lines.evaluate_all("""(gs) => gs.map((g) => Math.max(...[...g.querySelectorAll('rect')]
                  .map((r) => Math.min(r.getBoundingClientRect().width, r.getBoundingClientRect().height))))""")
                assert sizes and min(sizes) >= 24, sizes
            _worker_or_pass(page, rng)
        wait_version_after(page, before)
    wait_board_turn(page)
    page.locator("#board").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"garum-fit-{tag}-mid.png"))
    assert not errors, errors
    ctx.close()
