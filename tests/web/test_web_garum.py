"""Garum in a real browser: a whole 2-player game against a bot played by clicks only, undo,
the end screen and its record, then the replay viewer on that game."""

import json
import random

import httpx
from browser_helpers import (
    BODY,
    create_in_lobby,
    garum_decision_by_board,
    open_my_seat,
    version,
    wait_board_turn,
    wait_version_after,
)
from turn_log import check_turn_log

import ludus

HAND = """(() => { const o = window.ludusGame.view.observation;
  return o.colours.find((c) => c.colour === o.current_colour).hand.length; })()"""


def test_whole_two_player_garum_game_against_a_bot_by_clicking(page, server, screenshots, tmp_path):
    create_in_lobby(page, server, "garum", {"players": "2", "board": "baelo claudia"}, ["human", "random"])
    game_id = open_my_seat(page)
    page.wait_for_selector("#board svg")
    rng = random.Random(11)
    decisions = 0
    undone = False
    cancelled = False
    while wait_board_turn(page) == "mine":
        before = version(page)
        phase = page.evaluate(f"{BODY}.phase")
        if phase == "place" and not cancelled:
            # a two-step move can be cancelled: pick a tile, press Escape, the slots go away
            page.locator("[data-tile]:not([disabled])").first.click()
            assert page.locator(".board-overlay [data-board-action]").count() > 0
            page.keyboard.press("Escape")
            assert page.locator(".board-overlay [data-board-action]").count() == 0
            cancelled = True
        if decisions % 10 == 0:
            # each legal action of the seat to move is exactly one element carrying its notation
            offered = page.locator("#legal [data-action]").evaluate_all(
                "(bs) => bs.map((b) => b.dataset.action)"
            )
            legal = page.evaluate("window.ludusGame.view.legal_actions")
            assert sorted(offered) == sorted(legal) and len(set(offered)) == len(offered)
            assert page.locator("[data-action]").count() == len(legal)
        garum_decision_by_board(page, rng)
        wait_version_after(page, before)
        decisions += 1
        if (
            not undone
            and page.evaluate(f"{BODY}.phase") == "worker"
            and page.evaluate(f"{BODY}.myTurn") == "true"
        ):
            # undo within one's own turn takes the placement back
            at = version(page)
            hand = page.evaluate(HAND)
            page.click("[data-testid=undo]")
            wait_version_after(page, at)
            assert page.evaluate(f"{BODY}.phase") == "place"
            assert page.evaluate(HAND) == hand + 1
            assert page.locator("[data-tile]").count() == hand + 1
            undone = True
        assert decisions < 400, "the game does not end"
    assert undone and cancelled
    over = page.locator("[data-testid=game-over]")
    over.wait_for()
    record = httpx.get(f"{server}/api/games/{game_id}/record").json()
    final = ludus.replay(record)
    assert final.is_terminal()
    for seat, score in enumerate(final.scores()):
        assert over.locator(f"[data-testid=total-{seat}]").inner_text() == str(score)
    check_turn_log(page, record)  # one log entry per turn, its steps the record's actions
    assert not page.locator("#legal [data-action]").count()
    with page.expect_download() as download:
        page.click("[data-testid=download-record]")
    saved = tmp_path / "record.json"
    download.value.save_as(saved)
    assert json.loads(saved.read_text()) == record
    page.screenshot(path=str(screenshots / "garum-end.png"), full_page=True)
    assert not page.js_errors

    # the replay viewer steps through that game, forward and back
    page.goto(f"{server}/replay?game={game_id}")
    page.wait_for_function(f"{BODY}.step === '0'")
    page.wait_for_selector("#board svg")
    page.click("[data-testid=by-decision]")  # a decision at a time (a turn is the default)
    page.click("[data-testid=next]")
    page.wait_for_function(f"{BODY}.step === '1'")
    assert page.locator("#log li.log-step.current").get_attribute("data-step") == "1"
    page.keyboard.press("End")
    page.wait_for_function(f"{BODY}.step === '{len(record['actions'])}'")
    page.click("[data-testid=prev]")
    page.wait_for_function(f"{BODY}.step === '{len(record['actions']) - 1}'")
    # and an uploaded record
    page.goto(f"{server}/replay")
    page.set_input_files("[data-testid=record-file]", str(saved))
    page.wait_for_function(f"{BODY}.step === '0'")
    page.click("[data-testid=by-decision]")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"{BODY}.step === '1'")
    assert not page.js_errors
