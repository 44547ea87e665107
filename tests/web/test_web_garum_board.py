"""Garum played only by clicking the board and the panels (never the move list), at desktop and
phone widths: the panels (projected score, workers and pile left, every worker's line) follow each
move; the picked tile narrows the move list and is previewed once, with the bonuses it covers;
the keyboard stays on the board and the page does not scroll after a move; a 390-px phone opens
the board fitted to its width, every row and column target at least 24 px (44 px once zoomed); the
bot's last tile is marked; axe-core finds nothing serious. Screenshots go to
screenshots/garum-board-*.png."""

from __future__ import annotations

import random

import httpx
import pytest
from browser_helpers import BODY, version, wait_board_turn, wait_seat_live, wait_version_after
from test_web_lobby import serious_violations
from turn_log import check_turn_log

import ludus

SIZES = {"desktop": {"width": 1366, "height": 850}, "phone": {"width": 390, "height": 844}}
# the phone's game is also Haruspex with one worker set per player (ruling 15)
OPTIONS = {
    "desktop": {"players": 2, "board": "baelo_claudia"},
    "phone": {"players": 2, "board": "baelo_claudia", "variant": "haruspex", "two_player_workers": "shared"},
}
TARGETS = ".board-overlay [data-board-action]"
BOARD_TOP = "document.getElementById('board').getBoundingClientRect().top"  # where the board is on the screen

# what the panels show, read from the page, and what the view they were drawn from says
SHOWN = """(() => {
  const v = window.ludusGame.view;
  const text = (sel) => document.querySelector(sel)?.textContent.trim();
  return {
    version: v.version,
    projected: v.panels.seats.map((_, s) => text(`[data-testid=projected-${s}]`)),
    expected: v.panels.seats.map(String),
    workers: v.observation.colours.filter((c) => !c.ghost).map((c) => [text(`[data-testid=workers-${c.colour}]`),
      `${c.vilicus}V · ${c.dominus}D`]),
    piles: v.observation.colours.filter((c) => !c.ghost).map((c) => [text(`[data-testid=pile-${c.colour}]`),
      String(c.pile)]),
    lines: [...document.querySelectorAll("[data-testid^=line-]")].map((n) => n.dataset.testid.slice(5)).sort(),
    viewLines: v.panels.lines.map((l) => l.line).sort(),
  };
})()"""

# the hovered slot target: how many bonus spaces it covers, and what the one preview shows
PREVIEW = """(hit) => {
  const obs = window.ludusGame.view.observation;
  const x = Number(hit.getAttribute("x"));
  const y = Number(hit.getAttribute("y"));
  const covered = obs.bonuses.filter((b) => b.cell[1] >= x && b.cell[1] < x + 2 && b.cell[0] >= y && b.cell[0] < y + 2);
  const previews = document.querySelectorAll(".board-overlay g.preview");
  const shown = [...previews].filter((p) => p.getAttribute("visibility") === "visible");
  const rect = shown[0]?.querySelector("rect");
  return {previews: previews.length, shown: shown.length, covered: covered.length,
    badges: shown[0] ? shown[0].querySelectorAll(".preview-bonus text").length : -1,
    at: rect ? [Math.floor(Number(rect.getAttribute("x"))), Math.floor(Number(rect.getAttribute("y")))] : null,
    x, y};
}"""


def _check_panels(page) -> None:
    shown = page.evaluate(SHOWN)
    assert shown["projected"] == shown["expected"], shown
    for on_page, in_view in shown["workers"] + shown["piles"]:
        assert on_page in (in_view, "shared"), shown
    assert shown["lines"] == shown["viewLines"], shown


def _check_last_move(page, board) -> bool:
    """The bot's (seat 2's) last turn is marked on the board: its tiles' fish carry data-last-move="1"."""
    log = page.evaluate("window.ludusGame.view.log")
    run = []
    for entry in reversed(log):
        if entry["seat"] == 1:
            run.append(entry["action"])
        elif run:
            break
    places = [a for a in run if a.startswith("c")]  # two turns in a row when the amphora passes to it
    if not places:
        return False
    expected = []
    for place in places:
        cetarium, slot = (int(x) for x in place.split()[0][1:].split("."))
        expected += [f"{cell // board.size},{cell % board.size}" for cell in board.slot_cells[cetarium, slot]]
    page.wait_for_function(
        f"{BODY}.boardVersion === {BODY}.version && document.querySelector('#board svg g.fish.last-move')"
    )
    marked = page.eval_on_selector_all(
        '#board svg g.fish[data-last-move="1"]', "(ns) => ns.map((n) => n.dataset.cell)"
    )
    assert sorted(marked) == sorted(expected), (places, marked)
    return True


def _board_kept(page, before_top: float) -> None:
    """After a move: the keyboard is still on the board and the board has not moved on the screen.
    Read in one go: the bots' last moves may end the game at any moment, and the end screen then
    takes the focus (and its place above the board)."""
    now = page.evaluate(f"""({{over: {BODY}.terminal === 'true' || !!document.querySelector('[data-testid=game-over]'),
      onBoard: !!document.activeElement.closest('#board'), top: {BOARD_TOP},
      focused: document.activeElement.outerHTML.slice(0, 120)}})""")
    if now["over"]:
        return
    assert now["onBoard"], now["focused"]
    assert abs(now["top"] - before_top) < 2, now


def _place(page, rng: random.Random, shots: dict[str, str] | None) -> None:
    tiles = page.locator("#controls [data-tile][data-board-select]:not([disabled])")
    tiles.nth(rng.randrange(tiles.count())).click()
    turns = page.locator("#controls [data-orientation][data-board-select]")
    if turns.count() > 1 and rng.random() < 0.5:
        turns.nth(rng.randrange(turns.count())).click()
    # the move list keeps only the picked tile's placements
    orientations = set(turns.evaluate_all("(bs) => bs.map((b) => b.dataset.orientation)"))
    listed = page.locator("#legal [data-action]").evaluate_all("(bs) => bs.map((b) => b.dataset.action)")
    assert listed and all(a.split(" ")[1] in orientations for a in listed)
    legal = page.evaluate("window.ludusGame.view.legal_actions")
    assert set(listed) <= set(legal)
    hits = page.locator(TARGETS)
    covering = [
        i for i, n in enumerate(hits.evaluate_all(f"(hs) => hs.map((h) => ({PREVIEW})(h).covered)")) if n
    ]
    if shots is not None and "mid" not in shots and covering:  # the screenshot shows a covered bonus's badge
        target = hits.nth(covering[0])
    else:
        target = hits.nth(rng.randrange(hits.count()))
    target.scroll_into_view_if_needed()
    target.hover()
    seen = target.evaluate(PREVIEW)
    # one preview, at the hovered slot, with a badge on every bonus space it would cover
    assert seen["previews"] == 1 and seen["shown"] == 1, seen
    assert seen["at"] == [seen["x"], seen["y"]], seen
    assert seen["badges"] == seen["covered"], seen
    if hits.count() > 1:  # the keyboard on another target while the pointer stays: still one preview
        hits.nth(0 if target != hits.nth(0) else 1).focus()
        assert (
            page.evaluate("document.querySelectorAll('.board-overlay g.preview[visibility=visible]').length")
            == 1
        )
    if shots is not None and "mid" not in shots and seen["covered"]:
        shots["mid"] = "taken"
        target.hover()
        page.screenshot(path=shots["path"].format("mid"), full_page=False)
        assert serious_violations(page) == []
    before = version(page)
    scroll = page.evaluate(BOARD_TOP)
    target.click()
    wait_version_after(page, before)
    _board_kept(page, scroll)


# each row or column target: the side of the largest square one of its rectangles holds, in pixels
TARGET_SIZES = """(gs) => gs.map((g) => [g.dataset.boardAction, Math.max(...[...g.querySelectorAll('rect')].map((r) => {
  const b = r.getBoundingClientRect();
  return Math.min(b.width, b.height); }))])"""


def _worker(page, rng: random.Random, minimum: int | None, shots: dict[str, str] | None) -> None:
    """One worker decision; every row and column target at least ``minimum`` px (24 on a phone's
    fitted board, a finger's 44 on the zoomed one)."""
    lines = page.locator(TARGETS)
    if minimum:
        sizes = lines.evaluate_all(TARGET_SIZES)
        assert sizes and all(size >= minimum for _, size in sizes), sizes
    if shots is not None and "worker" not in shots and lines.count():
        shots["worker"] = "taken"
        page.screenshot(path=shots["path"].format("worker"), full_page=False)
        assert serious_violations(page) == []
    before = version(page)
    if lines.count() and rng.random() < 0.7:
        kinds = page.locator("#controls [data-worker][data-board-select]")
        if kinds.count() > 1 and rng.random() < 0.3:
            kinds.nth(1).click()
            listed = page.locator("#legal [data-action]").evaluate_all(
                "(bs) => bs.map((b) => b.dataset.action)"
            )
            assert listed and all(a.startswith("D ") or a == "pass" for a in listed)
            lines = page.locator(TARGETS)
        target = lines.nth(rng.randrange(lines.count())).locator("rect").first
        target.scroll_into_view_if_needed()
        scroll = page.evaluate(BOARD_TOP)
        target.click()
        wait_version_after(page, before)
        _board_kept(page, scroll)
    else:
        page.click("#controls [data-testid=pass][data-board-action=pass]")
        wait_version_after(page, before)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_whole_garum_game_by_board_and_panel_clicks(browser, server, screenshots, size):
    ctx = browser.new_context(viewport=SIZES[size], bypass_csp=True)
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    created = httpx.post(
        f"{server}/api/games", json={"game": "garum", "seats": ["human", "random"], "options": OPTIONS[size]}
    ).json()
    game_id = created["id"]
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    page.goto(f"{server}/games/{game_id}#token={token}")
    wait_seat_live(page)  # its redraw would drop a hover or focus given before it
    page.wait_for_selector("#board svg")
    page.wait_for_selector("[data-testid=garum-panels]")
    phone = size == "phone"
    if phone:  # the board opens fitted to the screen: the page never grows sideways
        assert not page.evaluate("document.body.classList.contains('garum-zoom')")
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    shots = {"path": str(screenshots / f"garum-board-{size}-{{}}.png")}
    rng = random.Random(23)
    clicked = set()
    lines_seen = 0
    marks = 0
    board = ludus.load_game("garum", **OPTIONS[size]).board
    for _ in range(200):
        if wait_board_turn(page) == "over":
            break
        _check_panels(page)
        phase = page.evaluate(f"{BODY}.phase")
        if phase == "place":
            marks += _check_last_move(page, board)
            _place(page, rng, shots)
        elif phase == "worker":
            _worker(page, rng, 24 if phone else None, shots)
        else:
            raise AssertionError(f"unexpected phase {phase}")
        clicked.add(phase)
        lines_seen = max(lines_seen, page.locator("[data-testid^=line-]").count())
    else:
        raise AssertionError("the game does not end")
    page.locator("[data-testid=game-over]").wait_for()
    _check_panels(page)
    assert clicked == {"place", "worker"} and lines_seen > 0 and marks > 5
    record = httpx.get(f"{server}/api/games/{game_id}/record").json()
    final = ludus.replay(record)
    # the projection of the finished board is the final score, seat by seat
    assert [int(page.inner_text(f"[data-testid=projected-{s}]")) for s in range(2)] == final.scores()
    assert page.evaluate(f"{BODY}.refused") in (None, "0")
    # the log is the server's: an entry per turn, its steps the actions, in sentences, with the acting
    # colour's chip and rounds
    check_turn_log(page, record)
    turn = page.locator("#log [data-testid=log-turn]").first
    first = turn.inner_text()
    assert "Round 1" in first and "placed the" in first and "tile in cetarium" in first
    assert turn.locator(".log-line.log-turn .chip").count() == 1
    assert page.locator("#log .log-round").count() == final.game.board.rounds
    if phone:  # the end tally too scrolls inside its box
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    page.screenshot(path=str(screenshots / f"garum-board-{size}-end.png"), full_page=True)
    assert not errors, errors
    ctx.close()


def test_tooltips_on_the_garum_board_and_panels(page, server):
    created = httpx.post(
        f"{server}/api/games", json={"game": "garum", "seats": ["human", "random"], "options": {"players": 2}}
    ).json()
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    page.goto(f"{server}/games/{created['id']}#token={token}")
    wait_seat_live(page)  # its redraw would drop the hover's bubble
    page.wait_for_selector("#board svg .bonus")
    bonus = page.locator("#board svg g.bonus").first
    bonus.hover(force=True)
    bubble = page.locator("#ludus-tooltip")
    bubble.wait_for(state="visible")
    assert "bonus" in bubble.inner_text().lower()
    assert page.locator("[aria-describedby=ludus-tooltip]").count() == 1
    page.locator("#hands [data-tip]").first.focus()  # by the keyboard too
    assert bubble.inner_text().startswith("tile: top ")
    page.keyboard.press("Escape")
    assert not bubble.is_visible()
    assert not page.js_errors


def test_emperor_choice_and_ghost_tile_by_clicks_on_the_zoomed_phone_board(browser, server):
    """Troia, 3 players, Emperor: the round's cetarium chosen on the board, the ghost's tile placed
    by the same clicks as one's own; with the board zoomed (the toggle), every cetarium, row and
    column target a finger wide on the phone, the page itself never wider than the screen."""
    ctx = browser.new_context(viewport=SIZES["phone"], bypass_csp=True)
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    created = httpx.post(
        f"{server}/api/games",
        json={
            "game": "garum",
            "seats": ["human", "random", "random"],
            "options": {"players": 3, "variant": "emperor"},
        },
    ).json()
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    page.goto(f"{server}/games/{created['id']}#token={token}")
    page.wait_for_selector("[data-testid=garum-panels]")
    page.click("[data-testid=zoom]")
    assert page.evaluate("document.body.classList.contains('garum-zoom')")
    assert page.get_attribute("[data-testid=zoom]", "aria-pressed") == "true"
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES["phone"]["width"]
    rng = random.Random(5)
    done = set()
    for _ in range(80):
        if wait_board_turn(page) == "over" or {"choose", "ghost"} <= done:
            break
        phase = page.evaluate(f"{BODY}.phase")
        _check_panels(page)
        if phase in ("place", "ghost"):
            if phase == "ghost":
                assert page.locator("#controls [data-tile]").count() == 1  # the ghost's one tile
            _place(page, rng, None)
        elif phase == "worker":
            _worker(page, rng, 44, None)
        elif phase == "choose":
            cetaria = page.locator(TARGETS)
            sizes = cetaria.evaluate_all(
                "(rs) => rs.map((r) => Math.min(r.getBoundingClientRect().width, "
                "r.getBoundingClientRect().height))"
            )
            assert sizes and min(sizes) >= 44, sizes
            target = cetaria.nth(rng.randrange(cetaria.count()))
            chosen = int(target.get_attribute("data-board-action").split("c")[-1])
            before = version(page)
            target.scroll_into_view_if_needed()
            scroll = page.evaluate(BOARD_TOP)
            target.click()
            wait_version_after(page, before)
            _board_kept(page, scroll)
            assert page.evaluate("window.ludusGame.view.observation.cetarium") == chosen
        done.add(phase)
    assert {"choose", "ghost", "place"} <= done, done
    assert not errors, errors
    ctx.close()
