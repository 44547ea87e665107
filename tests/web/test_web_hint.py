"""The Hint button: the best moves of the seat to move marked on the board (Garum, Celtae, Celtae solo)
with their value and why; hidden when the game has hints off; 403 and 429 answered with a message."""

from __future__ import annotations

import httpx
import pytest
from browser_helpers import BODY, poll

MARKED = "[...document.querySelectorAll('.hint-mark')]"
FIRST = ".hint-mark[data-hint-rank='1']"


def _open(page, server, game, options, seats, **server_options):
    created = httpx.post(
        f"{server}/api/games", json={"game": game, "options": {**options, **server_options}, "seats": seats}
    ).json()
    token = next(s["token"] for s in created["seats"] if "token" in s)
    page.goto(f"{server}/games/{created['id']}#token={token}")
    poll(page, f"{BODY}.myTurn === 'true'", timeout=30)
    return created["id"], token


def _hints(page):
    poll(page, "document.querySelectorAll('[data-testid=hint-list] li').length > 0", timeout=30)
    return page.eval_on_selector_all("[data-testid=hint-list] li", "ls => ls.map(l => l.dataset.hintAction)")


def _marks(page):
    return page.evaluate(f"""{MARKED}.map(e => ({{action: e.getAttribute('data-board-action'),
        select: e.getAttribute('data-board-select'), tile: e.getAttribute('data-tile'),
        rank: e.getAttribute('data-hint-rank')}}))""")


@pytest.mark.parametrize(
    "game, options, seats, tag",
    [
        ("garum", {"players": 2, "board": "baelo_claudia"}, ["human", "random"], "garum"),
        ("celtae", {"players": 2}, ["human", "random"], "celtae"),
        ("celtae", {"players": 1, "difficulty": "easy"}, ["human"], "celtae-solo"),
    ],
)
def test_hint_marks_the_best_moves_on_the_board(strict_page, server, screenshots, game, options, seats, tag):
    page = strict_page
    _open(page, server, game, options, seats)
    legal = set(page.evaluate("window.ludusGame.view.legal_actions"))
    assert page.is_visible("[data-testid=hint]")
    page.click("[data-testid=hint]")
    actions = _hints(page)
    assert actions and set(actions) <= legal
    assert all(w.strip() for w in page.eval_on_selector_all(".hint-why", "ws => ws.map(w => w.textContent)"))
    sentences = page.eval_on_selector_all(".hint-sentence", "ws => ws.map(w => w.textContent)")
    assert len(sentences) == len(actions) and all(s.strip().endswith((".", ")")) for s in sentences)
    values = page.eval_on_selector_all(".hint-value", "vs => vs.map(v => v.textContent)")
    assert len(values) == len(actions) and all(v.startswith("You'd finish") for v in values), values
    marks = _marks(page)
    assert marks, "no hinted move was marked on the board"
    for m in marks:  # each mark plays a hinted move, or is the first step of one
        assert m["action"] in actions or m["select"] or m["tile"] is not None, m
    page.screenshot(path=str(screenshots / f"hint-{tag}.png"), full_page=True)
    best = actions[0]
    before = int(page.evaluate(f"{BODY}.version"))
    exact_css = f".hint-mark[data-board-action='{best}']"
    exact = page.locator(exact_css)
    step_css = f"{FIRST}:not([aria-pressed='true'])"  # a step not taken yet
    for _ in range(4):  # the marked steps lead to the move itself (Garum: tile, orientation, quarter)
        if exact.count():
            break
        page.evaluate(f"window.hintStep = document.querySelector({step_css!r})")
        page.locator(step_css).first.click()
        poll(
            page,
            f"document.querySelector({exact_css!r}) || "
            f"((e) => e && e !== window.hintStep)(document.querySelector({step_css!r}))",
        )
    assert exact.count(), "following the marks never reached the hinted move"
    exact.first.click()
    poll(page, f"Number({BODY}.version) > {before}")
    poll(page, f"{MARKED}.length === 0 && document.getElementById('hint-box').hidden")
    assert page.js_errors == []


def test_no_hint_button_when_the_game_has_hints_off_and_403_says_why(strict_page, server):
    page = strict_page
    _open(page, server, "garum", {"players": 2, "board": "baelo_claudia"}, ["human", "random"], hints=False)
    assert page.is_hidden("[data-testid=hint]")
    poll(page, f"{BODY}.live === 'true'", timeout=30)
    # a page that still believed hints were on: the server's 403 is shown, nothing is marked (shown and
    # clicked in one step, so that no view arriving meanwhile redraws the button away)
    page.evaluate(
        "window.ludusGame.view.options.hints = true; const b = document.getElementById('hint');"
        " b.hidden = false; b.click()"
    )
    poll(page, "document.querySelector('[data-testid=hint-note]')")
    assert "hints are off" in page.inner_text("[data-testid=hint-note]")
    assert _marks(page) == []


def test_too_many_hints_wait_out_retry_after(strict_page, server):
    page = strict_page
    game_id, token = _open(
        page, server, "garum", {"players": 2, "board": "baelo_claudia"}, ["human", "random"]
    )
    route = httpx.get(f"{server}/openapi.json").json()["paths"]["/api/games/{game_id}/hint"]["get"]
    limit = next(
        p["schema"]["maximum"] for p in route["parameters"] if p["name"] == "n"
    )  # moves one hint lists
    asked = 0
    for n in (k for k in range(1, limit + 1) if k != 3):  # other questions, each counted (3: the button's)
        r = httpx.get(
            f"{server}/api/games/{game_id}/hint",
            params={"n": n},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        if r.status_code == 429:
            break
        asked += 1
    page.click("[data-testid=hint]")
    poll(page, "document.querySelector('[data-testid=hint-note]')", timeout=30)
    note = page.inner_text("[data-testid=hint-note]")
    assert "Too many hints" in note and "ask again in" in note, (asked, note)
    assert page.is_disabled("[data-testid=hint]")


@pytest.mark.parametrize("width, height", [(1400, 900), (390, 844)])
@pytest.mark.parametrize(
    "game, options, seats",
    [
        ("garum", {"players": 3}, ["human", "random", "random"]),
        ("celtae", {"players": 2}, ["human", "random"]),
    ],
)
def test_the_hint_box_reads_in_plain_words_on_desktop_and_phone(
    browser, server, screenshots, game, options, seats, width, height
):
    """Each hint a sentence with its value in words, the box within the screen's width (screenshots)."""
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    try:
        _open(page, server, game, options, seats)
        page.click("[data-testid=hint]")
        _hints(page)
        box = page.locator("#hint-box")
        box.scroll_into_view_if_needed()
        shape = box.bounding_box()
        assert shape["x"] >= 0 and shape["x"] + shape["width"] <= width + 1
        text = box.inner_text()
        assert "You'd finish" in text and "(done)" not in text and "decline" not in text.lower()
        box.screenshot(path=str(screenshots / f"hint-box-{game}-{width}.png"))
        page.screenshot(path=str(screenshots / f"hint-page-{game}-{width}.png"))
    finally:
        ctx.close()
