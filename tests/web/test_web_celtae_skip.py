"""Celtae by the board: one click on a move's piece while optional steps wait plays the skips and the
move in one request (a piece one decision on, the route the view's ``ahead`` offers); undo brings
back the optional steps as they were shown (never a step the server played for the seat)."""

import json
import random

import httpx

BODY = "document.body.dataset"
MOVES_PAST_OPTIONAL = "#board [data-board-skip][data-board-action]:not([disabled]):not([data-optional] *)"


def ready(page) -> bool:
    page.wait_for_function(
        f"({BODY}.myTurn === 'true' || {BODY}.terminal === 'true') && {BODY}.busy !== 'true'"
        f" && Number({BODY}.boardVersion) === Number({BODY}.version)"
    )
    return page.evaluate(f"{BODY}.terminal") != "true"


def test_one_click_skips_the_optional_steps_and_undo_brings_them_back(page, server):
    created = httpx.post(
        f"{server}/api/games",
        json={"game": "celtae", "options": {"players": 2}, "seats": ["human", "random"]},
    ).json()
    gid, token = created["id"], created["seats"][0]["token"]
    page.goto(f"{server}/games/{gid}#token={token}")
    page.wait_for_selector("#board .cb")
    rng = random.Random(3)
    skipped = undone = 0
    for _ in range(400):
        if not ready(page) or undone:
            break
        before = int(page.evaluate(f"{BODY}.version"))
        # the move's own pieces (outside the side controls) that pass over the optional steps first
        targets = page.locator(MOVES_PAST_OPTIONAL)
        skip = page.evaluate("window.ludusGame.view.after_skip")
        if skip and page.locator("[data-testid=optional-steps]").count() and targets.count():
            target = targets.nth(rng.randrange(targets.count()))
            action = target.get_attribute("data-board-action")
            assert json.loads(target.get_attribute("data-board-skip")) == skip["skip"]
            assert action in skip["legal"]
            route = [*skip["skip"], action, *json.loads(target.get_attribute("data-board-then") or "[]")]
            target.click()
            page.wait_for_function(f"Number({BODY}.version) > {before}")
            skipped += 1
            log = page.evaluate("window.ludusGame.view.log")
            mine = [e["action"] for e in log if e["seat"] == 0 and not e.get("auto")]
            assert mine[-len(route) :] == route  # the skips, then the move, in one request
            if page.evaluate(f"{BODY}.myTurn") == "true" and not page.locator("#undo").is_disabled():
                ready(page)
                page.click("#undo")
                page.wait_for_function(
                    f"window.ludusGame.view.after_skip !== null || {BODY}.refused !== undefined"
                )
                if page.evaluate("window.ludusGame.view.after_skip") == skip:
                    page.locator("[data-testid=optional-steps]").wait_for()
                    undone += 1
            continue
        # any piece; one that sends a route one decision on (the view's ahead) sends one offered
        options = page.locator("#board [data-board-action]:not([disabled])")
        option = options.nth(rng.randrange(options.count()))
        sent = json.loads(option.get_attribute("data-board-skip") or "[]")
        if sent and not skip:
            stage = page.evaluate("window.ludusGame.view.ahead")[sent[0]]
            assert sent[1:] == stage["skip"] and option.get_attribute("data-board-action") in stage["legal"]
        option.click()
        page.wait_for_function(f"Number({BODY}.version) > {before} || {BODY}.terminal === 'true'")
    assert skipped > 0 and undone > 0
    assert not page.js_errors
