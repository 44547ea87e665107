"""The seat's own pieces in view: a Celtae 2-player game played by board clicks at a laptop's and a
phone's size, and at every decision the own panel (hand, active workers, leader, tokens) at least half
on screen, every live target clear of the docked panel and the prompt once scrolled into view, the
prompt at most a quarter of a phone's screen and the phone's page at most 2.5 screens tall; on a
touch screen no instruction that needs a keyboard."""

from __future__ import annotations

import functools
import random

import pytest
from browser_helpers import create_in_lobby, own_panel_share
from browser_helpers import poll as browser_poll

pytestmark = [pytest.mark.browser]

BODY = "document.body.dataset"
LIVE = "#board [data-board-action]:not([disabled]), #board [data-board-select]:not([disabled])"
poll = functools.partial(browser_poll, timeout=20.0)


def wait_turn(page) -> str:
    poll(page, f"({BODY}.myTurn === 'true' || {BODY}.terminal === 'true') && {BODY}.busy !== 'true'")
    if page.evaluate(f"{BODY}.terminal") == "true":
        return "over"
    poll(page, f"Number({BODY}.boardVersion) === Number({BODY}.version)")
    return "mine"


def covered_targets(page) -> list[str]:
    """Live targets whose centre, once scrolled into view, shows something else (a sticky part on top)."""
    return page.evaluate(
        """(selector) => {
      const out = [];
      for (const t of document.querySelectorAll(selector)) {
        t.scrollIntoView({block: 'nearest'});
        const r = t.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (!hit || !(hit === t || t.contains(hit))) out.push(`${t.dataset.key || t.textContent} under ${hit?.className}`);
      }
      return out;
    }""",
        LIVE,
    )


def prompt_share(page) -> float:
    return page.evaluate(
        "(() => { const p = document.querySelector('.cb-prompt');"
        " return p ? p.getBoundingClientRect().height / innerHeight : 0; })()"
    )


def named_place_shown(page) -> bool | None:
    """A prompt naming "your hand": the hand marked and on screen (None: the prompt names no place)."""
    return page.evaluate("""() => {
      const text = document.querySelector('.cb-prompt-text')?.textContent || '';
      if (!/in your hand/.test(text)) return null;
      const hand = document.querySelector('[data-own-panel] .cb-hand.cb-named');
      const r = hand?.getBoundingClientRect();
      return !!r && r.top >= 0 && r.bottom <= innerHeight + 1;
    }""")


def click_a_target(page, rng: random.Random) -> None:
    """One decision by a board click: a one-click piece, or a first step and then its completion."""
    targets = page.locator(LIVE)
    assert targets.count() > 0, "the board offers nothing to click"
    target = targets.nth(rng.randrange(targets.count()))
    two_step = target.get_attribute("data-board-action") is None
    target.click()
    if two_step:
        page.wait_for_selector("[data-testid=cancel]")
        done = page.locator("#board [data-board-action]:not([disabled])")
        done.nth(rng.randrange(done.count())).click()


@pytest.mark.parametrize("width,height,phone", [(1366, 768, False), (1440, 900, False), (390, 844, True)])
def test_own_panel_stays_in_view_and_no_target_is_covered(browser, server, screenshots, width, height, phone):
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        create_in_lobby(page, server, "celtae", {"players": "2"}, ["human", "random"])
        rng = random.Random(width)
        decisions = in_view = 0
        while decisions < 15 and wait_turn(page) == "mine":
            before = int(page.evaluate(f"{BODY}.version"))
            # wherever the page was left scrolled: its top, its end, or where the last click left it
            page.evaluate(
                ["scrollTo(0, 0)", "scrollTo(0, document.documentElement.scrollHeight)", "0"][decisions % 3]
            )
            in_view += own_panel_share(page) >= 0.5
            assert named_place_shown(page) is not False, "the prompt names the hand, not marked in view"
            if phone:
                assert prompt_share(page) <= 0.25, (
                    "the prompt takes more than a quarter of the phone's screen"
                )
            assert covered_targets(page) == [], "a live target lies under a sticky part of the page"
            if decisions == 6:
                page.screenshot(path=str(screenshots / f"own-panel-celtae-{width}x{height}.png"))
            click_a_target(page, rng)
            poll(page, f"Number({BODY}.version) > {before}")
            decisions += 1
        assert decisions >= 10
        assert in_view >= 0.9 * decisions, f"the own panel in view at {in_view} of {decisions} decisions"
        if phone:
            screens = page.evaluate("document.documentElement.scrollHeight / innerHeight")
            assert screens <= 2.5, f"the phone's page is {screens:.2f} screens tall"
    finally:
        context.close()


def test_keyboard_line_is_hidden_on_a_touch_screen(browser, server):
    """The "Esc cancels · U undo" line speaks of keys a phone has not; a desktop keeps it."""
    shown = {}
    for touch in (True, False):
        context = browser.new_context(
            viewport={"width": 390, "height": 844} if touch else {"width": 1366, "height": 768},
            has_touch=touch,
            is_mobile=touch,
        )
        page = context.new_page()
        try:
            create_in_lobby(page, server, "celtae", {"players": "2"}, ["human", "random"])
            page.wait_for_selector("#board .cb")
            shown[touch] = page.locator(".kbd-help").is_visible()
        finally:
            context.close()
    assert shown == {True: False, False: True}


def test_a_bots_pending_decision_is_said_in_words(page, server):
    """The status line tells who is deciding what ("Seat 2 (bot) is choosing ..."), not "pending: progress"."""
    page.goto(server + "/")
    said = page.evaluate("""async () => {
      const m = await import('/plugins/celtae/board.js');
      const view = (seat) => ({terminal: false, seat: 0, seats: [{seat: 0}, {seat: 1, bot: 'random'}],
        observation: {phase: 'decide', pending: {kind: 'progress', seat}, final: 'no'}});
      return [m.status(view(1)), m.status(view(0))];
    }""")
    assert said == [
        "Seat 2 (bot) is choosing a progress card for a marker",
        "You are choosing a progress card for a marker",
    ]
