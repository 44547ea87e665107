"""The replay viewer steps by turn (the default) or by decision: the move list is the table's log in
sentences, one entry per turn with each seat's name as at the table, each turn opening to its
decisions; a step by turn asks the server only for the turn's last step; no console error."""

from __future__ import annotations

import re

import httpx
import pytest
from browser_helpers import BODY, api_game

pytestmark = pytest.mark.clean_console

STEP = re.compile(r"/replay\?step=(\d+)")
NAMES = {"garum": ["Ann", "Bo"], "celtae": ["Ann"]}  # Celtae solo: Ann against the game's own seat


def named_game(server: str, game: str, seed: int = 1) -> tuple[str, dict, list[dict]]:
    """A game of named human seats played to its end by random moves: (id, record, the server's turns)."""
    gid, _ = api_game(server, game, players=len(NAMES[game]), seed=seed, names=NAMES[game])
    with httpx.Client(base_url=server, timeout=60) as http:
        record = http.get(f"/api/games/{gid}/record").json()
        turns = http.get(f"/api/games/{gid}/replay", params={"svg": "false", "turns": "true"}).json()["turns"]
    return gid, record, turns


def asked_steps(page) -> list[int]:
    """The replay steps the page asks for, in order, as it asks them."""
    asked: list[int] = []
    page.on("request", lambda r: asked.append(int(m.group(1))) if (m := STEP.search(r.url)) else None)
    return asked


def shown(page, step: int, turn: int) -> None:
    """Wait until the page shows ``step`` with ``turn`` highlighted; what it shows if it never does."""
    try:
        page.wait_for_function(f"{BODY}.step === '{step}' && {BODY}.turn === '{turn}'")
    except Exception:
        at = page.evaluate(f"[{BODY}.step, {BODY}.turn, {BODY}.target, {BODY}.unit]")
        raise AssertionError(
            f"step {step}, turn {turn} never shown: step, turn, target, unit = {at}"
        ) from None


def said(turn: dict) -> str:
    return f"{turn['name']} {turn['text']}."


@pytest.mark.parametrize("game", ["garum", "celtae"])
def test_a_replay_steps_by_turn_and_by_decision_with_the_tables_names(browser, server, screenshots, game):
    gid, record, turns = named_game(server, game)
    n = len(record["actions"])
    ctx = browser.new_context(viewport={"width": 1400, "height": 900}, bypass_csp=True)
    try:
        page = ctx.new_page()
        asked = asked_steps(page)
        page.goto(f"{server}/replay?game={gid}")
        page.wait_for_function(f"{BODY}.loaded === 'true' && {BODY}.step === '0'")
        assert page.evaluate(f"{BODY}.unit") == "turn"
        assert page.get_attribute("[data-testid=by-turn]", "aria-pressed") == "true"
        # the move list: one entry per turn, the table's sentence after the seat's name as at the table
        lines = page.locator("#log [data-testid=log-turn] .log-line")
        assert lines.count() == len(turns)
        for i in range(6):
            text = lines.nth(i).inner_text()
            assert text.endswith(said(turns[i])), (text, said(turns[i]))
        log_text = page.inner_text("#log") + page.inner_text("#scores")
        assert "Seat 1" not in log_text and "Ann" in log_text
        # by turn: each Forward shows the board after the turn's last decision, its sentence said
        for i in range(3):
            page.keyboard.press("ArrowRight")
            shown(page, turns[i]["actions"][1], i)
            assert page.inner_text("[data-testid=now]") == said(turns[i])
            assert page.locator("#log li.log-entry.current").get_attribute("data-turn") == str(i)
            assert f"Turn {i + 1} of {len(turns)}" in page.inner_text("[data-testid=step]")
        ends = {0} | {t["actions"][1] for t in turns}
        assert set(asked) <= ends, asked  # a step by turn asks only the turns' last steps
        # by decision: one action at a time, the decision said and marked in its opened turn
        at = turns[2]["actions"][1]
        page.click("[data-testid=by-decision]")
        assert page.evaluate(f"{BODY}.unit") == "decision"
        page.keyboard.press("ArrowRight")
        third = next(i for i, t in enumerate(turns) if t["actions"][0] <= at < t["actions"][1])
        shown(page, at + 1, third)
        decision = next(s for s in turns[third]["steps"] if s.get("step") == at + 1)
        assert page.inner_text("[data-testid=now]") == f"{decision['name']} {decision['text']}."
        assert decision["name"] in NAMES[game]
        current = page.locator("#log li.log-step.current")
        assert current.get_attribute("data-step") == str(at + 1) and current.is_visible()
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        shown(
            page, at - 1, next(i for i, t in enumerate(turns) if t["actions"][0] < at - 1 <= t["actions"][1])
        )
        # a turn's sentence is a link to the board after it; the decisions in it too
        pick = len(turns) // 2
        page.click(f"#log a.log-turn[data-turn='{pick}']")
        shown(page, turns[pick]["actions"][1], pick)
        # a turn of two decisions or more, not yet opened: its first decision is within it
        many = [i for i, t in enumerate(turns) if t["actions"][1] - t["actions"][0] > 1]
        other = next(i for i in many if i >= 4 and i != pick)
        details = page.locator(f"#log li.log-entry[data-turn='{other}'] details")
        assert details.get_attribute("open") is None
        details.locator("summary").click()
        first_step = next(s["step"] for s in turns[other]["steps"] if "step" in s)
        details.locator(f"a[data-step='{first_step}']").click()
        shown(page, first_step, other)
        page.screenshot(path=str(screenshots / f"replay-{game}-by-decision.png"))
        # back to turns: from within a turn, Forward ends it and Back shows the turn before it
        page.click("[data-testid=by-turn]")
        page.keyboard.press("ArrowRight")
        shown(page, turns[other]["actions"][1], other)
        page.keyboard.press("ArrowLeft")
        shown(page, turns[other - 1]["actions"][1], other - 1)
        page.keyboard.press("End")
        shown(page, n, len(turns) - 1)
        assert page.is_disabled("[data-testid=next]")
        rows = page.locator("#scores tbody tr td:first-child")
        assert [rows.nth(i).inner_text().split(" (")[0].rstrip(" ▶") for i in range(rows.count())] == NAMES[
            game
        ]
        page.screenshot(path=str(screenshots / f"replay-{game}-by-turn.png"))
        assert max(asked.count(s) for s in set(asked)) == 1  # each step asked once
    finally:
        ctx.close()


def test_autoplay_by_turn_asks_only_the_turns_last_steps(page, server):
    gid, record, turns = named_game(server, "garum", seed=3)
    asked = asked_steps(page)
    page.clock.install()
    page.goto(f"{server}/replay?game={gid}")
    page.wait_for_function(f"{BODY}.loaded === 'true'")
    page.select_option("[data-testid=speed]", value="120")
    page.click("[data-testid=play]")
    page.wait_for_function(
        f"{BODY}.step === '{len(record['actions'])}' && {BODY}.playing === 'false'", timeout=60_000
    )
    assert page.evaluate(f"{BODY}.turn") == str(len(turns) - 1)
    assert sorted(asked) == sorted({0} | {t["actions"][1] for t in turns})


def test_the_replay_on_a_phone_steps_by_turn_within_the_screen(browser, server, screenshots):
    gid, _, turns = named_game(server, "garum", seed=5)
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, bypass_csp=True, has_touch=True, is_mobile=True
    )
    try:
        page = ctx.new_page()
        page.goto(f"{server}/replay?game={gid}")
        page.wait_for_function(f"{BODY}.loaded === 'true'")
        for i in range(4):
            page.click("[data-testid=next]")
            shown(page, turns[i]["actions"][1], i)
        assert page.inner_text("[data-testid=now]") == said(turns[3])
        assert page.evaluate("document.documentElement.scrollWidth") <= 391
        page.screenshot(path=str(screenshots / "replay-phone-by-turn.png"), full_page=True)
    finally:
        ctx.close()
