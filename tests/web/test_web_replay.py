"""The replay viewer loads the record once, then asks the server for each step it shows, once:
stepping back, jumping to a step it holds or playing again asks nothing; autoplay fetches the
next step ahead and stops at the end; a refusal for now (429, 503) is waited out. These step by
decision (stepping by turn: test_web_replay_turns.py)."""

import json
import random
import re
from collections import Counter

import httpx
import pytest
from browser_helpers import BODY, api_game

import ludus

STEP = re.compile(r"/replay\?step=(\d+)")


def finished_game(server, game, seed=1):
    """A 2-seat game played to its end by random moves: (id, record)."""
    gid, _ = api_game(server, game, seed=seed)
    return gid, httpx.get(f"{server}/api/games/{gid}/record").json()


def step_requests(page) -> list[str]:
    """The URLs of the replay steps the page asks for, as it asks them."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/replay" in r.url and "/api/" in r.url else None)
    return asked


def asked_steps(asked: list[str]) -> Counter:
    return Counter(int(m.group(1)) for url in asked if (m := STEP.search(url)))


def by_decision(page) -> None:
    """Step by decision (a turn is the default unit)."""
    page.click("[data-testid=by-decision]")
    page.wait_for_function(f"{BODY}.unit === 'decision'")


def press_to(page, key: str, step: int) -> None:
    page.keyboard.press(key)
    page.wait_for_function(f"{BODY}.step === '{step}'")


@pytest.mark.parametrize("game", ["garum", "celtae"])
def test_each_step_is_asked_once_and_going_back_asks_nothing(page, server, screenshots, game):
    gid, record = finished_game(server, game)
    n = len(record["actions"])
    asked = step_requests(page)
    page.goto(f"{server}/replay?game={gid}")
    page.wait_for_function(f"{BODY}.loaded === 'true' && {BODY}.step === '0'")
    by_decision(page)
    for step in (1, 2, 3):
        press_to(page, "ArrowRight", step)
    assert page.inner_text("[data-testid=step]").startswith("Step 3 of")
    assert page.locator("#log li.log-step.current").get_attribute("data-step") == "3"
    press_to(page, "ArrowLeft", 2)
    press_to(page, "End", n)
    final = ludus.replay(record)
    rows = page.locator("#scores tbody tr")
    for seat, score in enumerate(final.scores()):
        assert rows.nth(seat).locator("td.num").inner_text() == str(score)
    held = len(asked)
    press_to(page, "Home", 0)
    for step in (1, 2, 3):
        press_to(page, "ArrowRight", step)
    page.click("#log a.log-turn >> nth=-1")  # the last turn's sentence: the board after it
    page.wait_for_function(f"{BODY}.step === '{n}'")
    assert asked[held:] == []  # every step shown again came from memory
    steps = asked_steps(asked)
    assert max(steps.values()) == 1 and {0, 1, 2, 3, n} <= set(steps), steps
    # a page that draws its own board (Celtae) asks for no server board
    assert all(("svg=false" in url) == (game == "celtae") for url in asked)
    assert not page.js_errors


def test_autoplay_fetches_ahead_pauses_resumes_and_stops_at_the_end(page, server, screenshots):
    gid, record = finished_game(server, "garum", seed=2)
    n = len(record["actions"])
    asked = step_requests(page)
    page.clock.install()  # the page's timers run as usual, and can be run on at once (run_for)
    page.goto(f"{server}/replay?game={gid}")
    page.wait_for_function(f"{BODY}.loaded === 'true'")
    by_decision(page)
    page.select_option("[data-testid=speed]", value="120")
    page.click("[data-testid=play]")
    page.wait_for_function(f"Number({BODY}.step) >= 4")
    page.click("[data-testid=play]")  # pause
    assert page.evaluate(f"{BODY}.playing") == "false"
    # a step asked for before the pause is still shown when it comes (the server may be slower than 120 ms)
    page.wait_for_function(f"{BODY}.step === {BODY}.target")
    paused_at = page.evaluate(f"{BODY}.step")
    page.clock.run_for(5_000)  # any autoplay step still due would be taken now
    assert page.evaluate(f"{BODY}.target") == paused_at == page.evaluate(f"{BODY}.step")
    page.click("[data-testid=play]")
    page.wait_for_function(f"Number({BODY}.step) > {paused_at}")
    page.click("[data-testid=prev]")  # a step by hand stops it
    assert page.evaluate(f"{BODY}.playing") == "false"
    page.click("[data-testid=play]")  # and it plays on to the end, then stops there
    page.wait_for_function(f"{BODY}.step === '{n}' && {BODY}.playing === 'false'", timeout=60_000)
    steps = asked_steps(asked)
    # a whole game at the fastest speed: one request per step, within the server's replay rate
    assert set(steps) == set(range(n + 1)) and max(steps.values()) == 1, steps
    assert not page.js_errors


def test_an_uploaded_record_is_read_here_and_posted_step_by_step(page, server, tmp_path):
    seed = 2**62 + 7  # past 2**53: the record goes to the server as its own text
    state = ludus.load_game("garum", players=2).new_initial_state(seed=seed)
    rng = random.Random(3)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    saved = tmp_path / "record.json"
    saved.write_text(json.dumps(state.record()))
    posted = []
    page.on("request", lambda r: posted.append(r.post_data) if r.url.endswith("/api/replay") else None)
    page.goto(f"{server}/replay")
    page.set_input_files("[data-testid=record-file]", str(saved))
    page.wait_for_function(f"{BODY}.loaded === 'true'")
    press_to(page, "End", 12)
    assert page.locator("#board svg").count() >= 1
    assert len(posted) == 2 and all(str(seed) in body for body in posted)
    assert [json.loads(body)["step"] for body in posted] == [0, 12]
    assert not page.js_errors


def test_a_step_the_server_refuses_for_now_is_asked_again_after_retry_after(page, server):
    gid, _ = finished_game(server, "garum", seed=6)
    refused = []

    def once_too_many(route):
        if not refused:
            refused.append(route.request.url)
            route.fulfill(
                status=429, headers={"Retry-After": "1"}, json={"detail": "too many replay requests from you"}
            )
        else:
            route.continue_()

    page.route(re.compile(r".*/replay\?step=2&.*"), once_too_many)
    page.goto(f"{server}/replay?game={gid}")
    page.wait_for_function(f"{BODY}.loaded === 'true'")
    by_decision(page)
    press_to(page, "ArrowRight", 1)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.getElementById('message').textContent.includes('busy')")
    page.wait_for_function(f"{BODY}.step === '2'")
    assert len(refused) == 1 and "Replaying" in page.inner_text("#message")
    assert not page.js_errors


@pytest.mark.parametrize(("width", "height", "name"), [(1400, 900, "desktop"), (390, 844, "phone")])
def test_replay_screenshots(browser, server, screenshots, width, height, name):
    gid, _ = finished_game(server, "garum", seed=4)
    ctx = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = ctx.new_page()
        page.goto(f"{server}/replay?game={gid}")
        page.wait_for_selector("body[data-loaded=true]")
        page.click("[data-testid=by-decision]")
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
