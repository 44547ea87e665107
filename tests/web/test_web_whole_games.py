"""Whole games by board and panel clicks only (never the move list) that the games' own browser
tests leave out: Celtae solo on a 390-px phone, and Garum on the Troia board (16 rounds) at desktop
and phone widths. Screenshots: screenshots/whole-*.png."""

import random
import statistics

import httpx
import pytest
from browser_helpers import create_in_lobby

import ludus


def _context(browser, width, height):
    ctx = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return ctx, page, errors


def test_whole_celtae_solo_game_by_board_clicks_on_a_phone(browser, server, screenshots):
    from test_web_celtae_board import BODY, check_log, play_by_board_steps, poll, smallest_text_px, wait_turn

    ctx, page, errors = _context(browser, 390, 850)
    try:
        create_in_lobby(page, server, "celtae", {"players": "1", "difficulty": "easy"}, ["human"])
        poll(page, f"{BODY}.version !== undefined")
        game_id = page.url.split("/games/")[1].split("?")[0].split("#")[0]
        page.wait_for_selector("#board .cb")
        rng = random.Random(31)
        decisions = marked = wheres = 0
        while wait_turn(page) == "mine":
            # each decision: every legal action on the board, targets >= 44 px, no one-answer question
            d, m, _ = play_by_board_steps(page, rng, True, 10, [])
            decisions += d
            marked += m
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page scrolls sideways"
            assert smallest_text_px(page) >= 12, "board text under 12 px on a phone"
            if decisions in range(20, 30):
                page.screenshot(path=str(screenshots / "whole-celtae-solo-phone-mid.png"))
            if wait_turn(page) == "mine" and page.locator("[data-testid=show-where]").count():
                # one tap on "Show where" brings the decision's first piece into sight, the keyboard on it
                page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
                page.click("[data-testid=show-where]")
                poll(
                    page,
                    """(() => { const b = document.activeElement, r = b.getBoundingClientRect();
                  return b.classList.contains('legal') && r.top >= 0 && r.bottom <= innerHeight; })()""",
                )
                if not wheres:
                    page.screenshot(path=str(screenshots / "whole-celtae-solo-phone-show-where.png"))
                wheres += 1
        assert decisions > 20 and wheres > 0
        assert marked > 0, "Solitairix's last turn was never marked on the board"
        page.locator("[data-testid=game-over]").wait_for()
        record = httpx.get(f"{server}/api/games/{game_id}/record").json()
        final = ludus.replay(record)
        for seat, score in enumerate(final.scores()):
            assert page.inner_text(f"[data-testid=total-{seat}]") == str(score)
        check_log(page, record, solo=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(screenshots / "whole-celtae-solo-phone-end.png"), full_page=True)
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_whole_garum_game_on_troia_by_board_clicks(browser, server, screenshots, size):
    """Troia's 16 rounds to the end against a greedy bot; the move list never touched."""
    from browser_helpers import BODY, count_piece_clicks, piece_clicks, wait_board_turn
    from test_web_garum_board import SIZES, _check_last_move, _check_panels, _place, _worker

    options = {"players": 2, "board": "troia"}
    ctx, page, errors = _context(browser, SIZES[size]["width"], SIZES[size]["height"])
    try:
        created = httpx.post(
            f"{server}/api/games", json={"game": "garum", "seats": ["human", "greedy"], "options": options}
        ).json()
        token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
        page.goto(f"{server}/games/{created['id']}#token={token}")
        page.wait_for_selector("#board svg")
        board = ludus.load_game("garum", **options).board
        rng = random.Random(41)
        marks = turns = 0
        # every click on a board or panel piece, counted in the page: clicks per turn (tile to worker)
        count_piece_clicks(page)
        per_turn, started = [], None
        while wait_board_turn(page) == "mine":
            _check_panels(page)
            phase = page.evaluate(f"{BODY}.phase")
            if phase == "place":
                clicks = piece_clicks(page)
                if started is not None:
                    per_turn.append(clicks - started)
                started = clicks
                marks += _check_last_move(page, board)
                _place(page, rng, None)
            elif phase == "worker":
                _worker(page, rng, size == "phone", None)
            else:
                raise AssertionError(f"unexpected phase {phase}")
            turns += 1
            if turns == 30:
                page.screenshot(path=str(screenshots / f"whole-garum-troia-{size}-mid.png"))
            assert turns < 300, "the game does not end"
        page.locator("[data-testid=game-over]").wait_for()
        assert per_turn and min(per_turn) >= 2  # a tile and its place at least
        print(
            f"\nGarum Troia {size}: clicks per turn median {statistics.median(per_turn)}, "
            f"mean {statistics.mean(per_turn):.1f} over {len(per_turn)} turns"
        )
        record = httpx.get(f"{server}/api/games/{created['id']}/record").json()
        final = ludus.replay(record)
        assert final.game.board.rounds == 16 and page.locator("#log .log-round").count() == 16
        assert [int(page.inner_text(f"[data-testid=projected-{s}]")) for s in range(2)] == final.scores()
        assert marks > 5
        if size == "phone":
            assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
        page.screenshot(path=str(screenshots / f"whole-garum-troia-{size}-end.png"), full_page=True)
        assert errors == []
    finally:
        ctx.close()
