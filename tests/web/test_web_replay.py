"""The replay viewer loads a game once, then steps from memory: by buttons, keys, and on its own."""

import json
import random

import httpx
import pytest
from browser_helpers import BODY, api_game

import ludus


def finished_game(server, game, seed=1):
    """A 2-seat game played to its end by random moves: (id, record)."""
    gid, _ = api_game(server, game, seed=seed)
    return gid, httpx.get(f"{server}/api/games/{gid}/record").json()


@pytest.mark.parametrize("game", ["garum", "celtae"])
def test_a_replay_is_fetched_once_then_stepped_from_memory(page, server, screenshots, game):
    gid, record = finished_game(server, game)
    n = len(record["actions"])
    api_calls = []
    page.on("request", lambda r: api_calls.append(r.url) if "/api/" in r.url else None)
    page.goto(f"{server}/replay?game={gid}")
    page.wait_for_function(f"{BODY}.loaded === 'true' && {BODY}.step === '0'")
    loaded_calls = len(api_calls)
    assert any(u.split("?")[0].endswith("/replay/all") for u in api_calls)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(f"{BODY}.step === '3'")
    assert record["actions"][2] in page.inner_text("[data-testid=step]")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"{BODY}.step === '2'")
    page.keyboard.press("End")
    page.wait_for_function(f"{BODY}.step === '{n}'")
    final = ludus.replay(record)
    rows = page.locator("#scores tbody tr")
    for seat, score in enumerate(final.scores()):
        assert rows.nth(seat).locator("td.num").inner_text() == str(score)
    page.keyboard.press("Home")
    page.wait_for_function(f"{BODY}.step === '0'")
    assert len(api_calls) == loaded_calls, api_calls[loaded_calls:]  # no request per step
    assert not page.js_errors


def test_autoplay_plays_and_pauses_and_a_hand_step_stops_it(page, server, screenshots):
    gid, record = finished_game(server, "garum", seed=2)
    page.goto(f"{server}/replay?game={gid}")
    page.wait_for_function(f"{BODY}.loaded === 'true'")
    page.select_option("[data-testid=speed]", value="120")
    page.click("[data-testid=play]")
    page.wait_for_function(f"Number({BODY}.step) >= 4")
    page.click("[data-testid=play]")  # pause
    assert page.evaluate(f"{BODY}.playing") == "false"
    paused_at = page.evaluate(f"{BODY}.step")
    page.wait_for_timeout(400)
    assert page.evaluate(f"{BODY}.step") == paused_at
    page.click("[data-testid=play]")
    page.wait_for_function(f"Number({BODY}.step) > {paused_at}")
    page.click("[data-testid=prev]")
    assert page.evaluate(f"{BODY}.playing") == "false"
    assert not page.js_errors


def test_an_uploaded_record_replays_in_one_request(page, server, tmp_path):
    state = ludus.load_game("garum", players=2).new_initial_state(seed=2**62 + 7)  # a seed past 2**53
    rng = random.Random(3)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    saved = tmp_path / "record.json"
    saved.write_text(json.dumps(state.record()))
    page.goto(f"{server}/replay")
    page.set_input_files("[data-testid=record-file]", str(saved))
    page.wait_for_function(f"{BODY}.loaded === 'true'")
    page.keyboard.press("End")
    page.wait_for_function(f"{BODY}.step === '12'")
    shown = page.evaluate("document.querySelector('#board svg title')?.textContent || ''")
    assert "garum" in shown.lower() or page.locator("#board svg").count() == 1
    assert not page.js_errors


@pytest.mark.parametrize(("width", "height", "name"), [(1366, 850, "desktop"), (390, 844, "phone")])
def test_replay_screenshots(browser, server, screenshots, width, height, name):
    gid, _ = finished_game(server, "garum", seed=4)
    ctx = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = ctx.new_page()
        page.goto(f"{server}/replay?game={gid}")
        page.wait_for_selector("body[data-loaded=true]")
        for _ in range(30):
            page.keyboard.press("ArrowRight")
        page.wait_for_selector("body[data-step='30']")
        # the current move is in sight within the move list
        assert page.evaluate("""(() => { const box = document.getElementById('log').getBoundingClientRect();
          const item = document.querySelector('#log li.current').getBoundingClientRect();
          return item.top >= box.top - 1 && item.bottom <= box.bottom + 1; })()""")
        page.screenshot(path=str(screenshots / f"replay-{name}.png"), full_page=True)
        # no part of the page is wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    finally:
        ctx.close()
