"""Celtae by the board: one click on a move's piece while optional steps wait plays the skips and the
move in one request; undo brings back the optional steps as they were shown (never a step the
server played for the seat)."""

import random

import httpx

BODY = "document.body.dataset"


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
        targets = page.locator("#board [data-board-skip][data-board-action]:not([disabled])")
        if page.locator("[data-testid=optional-steps]").count() and targets.count():
            skip = page.evaluate("window.ludusGame.view.after_skip")
            target = targets.nth(rng.randrange(targets.count()))
            action = target.get_attribute("data-board-action")
            assert action in skip["legal"]
            target.click()
            page.wait_for_function(f"Number({BODY}.version) > {before}")
            skipped += 1
            log = page.evaluate("window.ludusGame.view.log")
            mine = [e["action"] for e in log if e["seat"] == 0 and not e.get("auto")]
            assert mine[-len(skip["skip"]) - 1 :] == [*skip["skip"], action]  # the skips, then the move
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
        options = page.locator("#board [data-board-action]:not([disabled])")
        options.nth(rng.randrange(options.count())).click()
        page.wait_for_function(f"Number({BODY}.version) > {before} || {BODY}.terminal === 'true'")
    assert skipped > 0 and undone > 0
    assert not page.js_errors
