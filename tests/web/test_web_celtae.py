"""Celtae in a real browser: a whole 2-player game against a bot and a whole solo game against
Solitairix, every decision clicked in the list of legal moves."""

import random

import httpx
from browser_helpers import (
    click_random_legal,
    create_in_lobby,
    open_my_seat,
    version,
    wait_turn,
    wait_version_after,
)
from turn_log import check_turn_log

import ludus


def board_move(page, rng):
    """A move clicked on a piece of the board, or a first step (data-board-select) then its completion."""
    targets = page.locator(
        "#board [data-board-action]:not([disabled]), #board [data-board-select]:not([disabled])"
    )
    if not targets.count():
        return None
    target = targets.nth(rng.randrange(targets.count()))
    action = target.get_attribute("data-board-action")
    target.click()
    if action is None:
        page.wait_for_selector("[data-testid=cancel]")
        choices = page.locator("#board [data-board-action]:not([disabled])")
        assert choices.count() > 0
        choice = choices.nth(rng.randrange(choices.count()))
        action = choice.get_attribute("data-board-action")
        choice.click()
    return action


def play_to_the_end(page, rng, limit=600):
    decisions = on_board = 0
    while wait_turn(page) == "mine":
        before = version(page)
        page.wait_for_function(f"Number(document.body.dataset.boardVersion) === {before}")
        if rng.random() < 0.7 and board_move(page, rng):
            on_board += 1
        else:
            click_random_legal(page, rng)
        wait_version_after(page, before)
        decisions += 1
        assert decisions < limit, "the game does not end"
    assert on_board > 3, "no move was clicked on the board"
    return decisions


def check_end(page, server, game_id):
    over = page.locator("[data-testid=game-over]")
    over.wait_for()
    record = httpx.get(f"{server}/api/games/{game_id}/record").json()
    final = ludus.replay(record)
    assert final.is_terminal()
    for seat, score in enumerate(final.scores()):
        assert over.locator(f"[data-testid=total-{seat}]").inner_text() == str(score)
    # the score by category comes from the replayed record once the game is over
    page.wait_for_selector("#breakdown th:text-is('A citadels')")
    # one entry per turn, its steps the record's actions (and Solitairix's turns: the server's log has both)
    check_turn_log(page, record)
    assert not page.js_errors


def test_whole_two_player_celtae_game_against_a_bot(page, server, screenshots):
    create_in_lobby(page, server, "celtae", {"players": "2"}, ["human", "random"])
    game_id = open_my_seat(page)
    page.wait_for_selector("#board .cb")
    assert play_to_the_end(page, random.Random(2)) > 10
    check_end(page, server, game_id)
    page.screenshot(path=str(screenshots / "celtae-end.png"), full_page=True)


def test_whole_celtae_solo_game_against_solitairix(page, server, screenshots):
    create_in_lobby(page, server, "celtae", {"players": "1", "difficulty": "easy"}, ["human"])
    game_id = open_my_seat(page)
    page.wait_for_selector("#board .cb")
    assert play_to_the_end(page, random.Random(4)) > 10
    check_end(page, server, game_id)
    verdict = page.inner_text("[data-testid=winners]")
    won = httpx.get(f"{server}/api/games/{game_id}").json()["winners"] == [0]
    assert (
        verdict.startswith("You beat Solitairix" if won else "Solitairix wins") and "(target 25)" in verdict
    )
    page.screenshot(path=str(screenshots / "celtae-solo-end.png"), full_page=True)
