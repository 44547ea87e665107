"""Whole browser games of the configurations the games' own browser tests leave out, with a clean
console (conftest's ``console_errors``: no page error, no console error): Garum with 3 and 4 players
and the Emperor variant, and with 3 players on a phone (each with its clicks per turn), Celtae with 3 and
4 players. The page plays one seat by clicks on the board;
the other seats are random bots that move at once, so the page often asks for the board of a view
the game has already moved on from.

With the other whole games (Garum 2 players on both boards, standard and Haruspex; Celtae solo and
2 players) every value of these options is played to the end in a browser."""

import random
import statistics

import httpx
import pytest
from browser_helpers import (
    BODY,
    count_piece_clicks,
    garum_decision_by_board,
    piece_clicks,
    version,
    wait_board_turn,
    wait_version_after,
)

import ludus

GARUM = [
    ({"players": 3, "board": "baelo_claudia", "variant": "emperor"}, (1366, 850)),
    ({"players": 3, "board": "troia", "variant": "standard"}, (390, 844)),  # a phone
    ({"players": 4, "board": "baelo_claudia", "variant": "emperor"}, (1366, 850)),
]


def _open(browser, server, game, options, size=(1366, 850)):
    """A new game with the page's seat first and random bots in the others; the page on its seat."""
    seats = ["human"] + ["random"] * (options["players"] - 1)
    created = httpx.post(f"{server}/api/games", json={"game": game, "seats": seats, "options": options})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    token = next(s["token"] for s in created.json()["seats"] if s["seat"] == 0)
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, bypass_csp=True)
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    page.goto(f"{server}/games/{game_id}#token={token}")
    return ctx, page, game_id


def _check_end(page, server, game_id) -> ludus.engine.State:
    page.locator("[data-testid=game-over]").wait_for()
    final = ludus.replay(httpx.get(f"{server}/api/games/{game_id}/record").json())
    assert final.is_terminal()
    for seat, score in enumerate(final.scores()):
        assert page.inner_text(f"[data-testid=total-{seat}]") == str(score)
    return final


@pytest.mark.parametrize(
    ("options", "size"),
    GARUM,
    ids=lambda o: f"{o['players']}p-{o['variant']}" if isinstance(o, dict) else str(o[0]),
)
def test_whole_garum_game_with_more_players_by_board_clicks(browser, server, options, size):
    """To the end by board clicks, the clicks of each turn (a tile and its place, then a worker)
    counted and printed."""
    ctx, page, game_id = _open(browser, server, "garum", options, size)
    try:
        page.wait_for_selector("#board svg")
        count_piece_clicks(page)
        rng = random.Random(options["players"])
        phases = set()
        per_turn, started = [], None
        while wait_board_turn(page) == "mine":
            before = version(page)
            phase = page.evaluate(f"{BODY}.phase")
            phases.add(phase)
            if phase == "place":  # a turn starts with placing one's own tile
                clicks = piece_clicks(page)
                if started is not None:
                    per_turn.append(clicks - started)
                started = clicks
            garum_decision_by_board(page, rng)
            wait_version_after(page, before)
            assert len(phases) < 10 and before < 2_000, "the game does not end"
        final = _check_end(page, server, game_id)
        assert final.game.num_players == options["players"] and "place" in phases
        assert per_turn and min(per_turn) >= 2  # a tile and its place at least
        print(
            f"\nGarum {options} at {size[0]} px: clicks per turn median {statistics.median(per_turn)}, "
            f"90th percentile {statistics.quantiles(per_turn, n=10)[-1]:.1f}, mean {statistics.mean(per_turn):.2f} "
            f"over {len(per_turn)} turns"
        )
        assert page.locator("#board svg").count() == 1
    finally:
        ctx.close()


@pytest.mark.parametrize("players", [3, 4])
def test_whole_celtae_game_with_more_players_by_board_clicks(browser, server, players):
    from test_web_celtae_board import play_by_board_steps

    ctx, page, game_id = _open(browser, server, "celtae", {"players": players})
    try:
        page.wait_for_selector("#board .cb")
        decisions, _, _ = play_by_board_steps(page, random.Random(players), False, 0, [])
        assert decisions > 10
        final = _check_end(page, server, game_id)
        assert page.locator("#board .cb-seat").count() == players == final.game.num_players
    finally:
        ctx.close()


def test_the_console_watch_records_every_error_but_a_guests_401_from_an_account_route(browser, server):
    from console_watch import watch_console

    ctx = browser.new_context()
    errors: list[str] = []
    watch_console(ctx, errors)
    try:
        page = ctx.new_page()
        page.goto(f"{server}/")
        page.evaluate("fetch('/api/me')")  # a guest: 401, allowed
        page.evaluate("fetch('/api/games/no-such-game/svg?version=3')")  # 404
        page.evaluate("fetch('/api/me/games?x=1')")  # 401 too, from an account route: allowed
        page.evaluate("fetch('/api/meta/../games/x')")  # 404
        page.evaluate("console.error('a page said so')")
        page.evaluate("setTimeout(() => { throw new Error('uncaught') }, 0)")
        deadline = 150  # 15 s at most, on a busy machine; as soon as the four are in, else
        while len(errors) < 4 and deadline:
            page.wait_for_timeout(100)
            deadline -= 1
        page.wait_for_timeout(300)  # nothing more comes
    finally:
        ctx.close()
    assert len(errors) == 4, errors
    # by the status phrase: the digits alone are in the server's port now and then (127.0.0.1:34015)
    assert sum("status of 404" in e for e in errors) == 2, errors
    assert not any("status of 401" in e for e in errors), errors
    assert any("a page said so" in e for e in errors) and any("page error: uncaught" in e for e in errors), (
        errors
    )
