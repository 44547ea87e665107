"""Tooltips (tooltip.js) stay out of the way: shown on hover, gone on a click, when the pointer moves
away and on a scroll, and never over a live target (a piece that plays or begins a move)."""

from __future__ import annotations

import random

import httpx
from browser_helpers import BODY, poll, wait_seat_live

BUBBLE = "document.getElementById('ludus-tooltip')"
SHOWN = f"!!{BUBBLE} && !{BUBBLE}.hidden"
GONE = f"!{BUBBLE} || {BUBBLE}.hidden"
# the live targets whose box the shown bubble intersects (none, ever)
COVERED = f"""(() => {{
  const b = {BUBBLE}.getBoundingClientRect();
  return [...document.querySelectorAll('[data-board-action], [data-board-select]')]
    .map((e) => [e, e.getBoundingClientRect()])
    .filter(([e, r]) => r.width > 0 && r.height > 0
      && r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom)
    .map(([e]) => e.getAttribute('data-board-action') || e.getAttribute('data-board-select'));
}})()"""


def _celtae(page, server) -> None:
    created = httpx.post(
        f"{server}/api/games",
        json={"game": "celtae", "seats": ["human", "random"], "options": {"players": 2}},
    ).json()
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    page.goto(f"{server}/games/{created['id']}#token={token}")
    wait_seat_live(page)  # its redraw would hide a bubble shown before it
    poll(page, f"{BODY}.myTurn === 'true' && {BODY}.boardVersion === {BODY}.version", timeout=30)


def _hover(page, selector: str, index: int = 0) -> bool:
    """Move the mouse onto the middle of a piece in view; False if it is not in view."""
    box = page.locator(selector).nth(index).bounding_box()
    height = page.evaluate("document.documentElement.clientHeight")
    if not box or box["y"] < 0 or box["y"] + box["height"] > height:
        return False
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=3)
    return True


def test_a_market_card_tooltip_shows_on_hover_and_goes_on_click_and_scroll(page, server):
    _celtae(page, server)
    card = "[data-key^=market-][data-tip]"
    page.locator(card).first.scroll_into_view_if_needed()
    page.mouse.move(2, 2)
    assert _hover(page, card)
    poll(page, SHOWN)
    assert "card: pays for" in page.inner_text("#ludus-tooltip")
    assert page.evaluate(COVERED) == []
    page.mouse.down()
    page.mouse.up()
    poll(page, GONE)
    page.mouse.move(2, 2)  # away, then back: shown again
    page.locator(card).first.scroll_into_view_if_needed()
    assert _hover(page, card)
    poll(page, SHOWN)
    page.mouse.move(2, 2)
    poll(page, GONE)  # the pointer moved away
    assert _hover(page, card)
    poll(page, SHOWN)
    page.mouse.wheel(0, 240)
    poll(page, "scrollY > 0")
    poll(page, GONE)  # and no other piece's, though another is under the still pointer now
    assert not page.js_errors


def test_no_tooltip_ever_covers_a_live_target(page, server, screenshots):
    """Over several decisions and every piece with a tooltip in view, the bubble shown (if any) covers
    no live target; most pieces in view do get one."""
    _celtae(page, server)
    rng = random.Random(3)
    shown = 0
    for _decision in range(3):  # three decisions in a row
        page.mouse.move(2, 2)
        tips = page.locator("[data-tip]")
        for i in rng.sample(range(tips.count()), min(8, tips.count())):
            page.mouse.move(2, 2)
            poll(page, GONE)
            if not _hover(page, "[data-tip]", i):
                continue
            page.wait_for_timeout(50)  # the pointer's events are handled before the next frame
            if page.evaluate(SHOWN):
                shown += 1
                assert page.evaluate(COVERED) == [], page.inner_text("#ludus-tooltip")
                if shown == 1:
                    page.screenshot(path=str(screenshots / "tooltip-celtae.png"))
        before = int(page.evaluate(f"{BODY}.version"))
        moves = page.locator("#legal [data-action]")
        moves.nth(rng.randrange(moves.count())).click()  # on to another decision
        poll(page, f"Number({BODY}.version) > {before}", timeout=30)
        poll(page, f"{BODY}.myTurn === 'true' && {BODY}.boardVersion === {BODY}.version", timeout=30)
    assert shown >= 6
    assert not page.js_errors


def _touch(page, selector: str, *events: str) -> None:
    """Touch pointer events on the middle of a piece, in one call so that no pause of the test's can
    come between them (a tap slower than the press's 0.5 s would be a long press): each is its kind,
    with ``+DX`` for a pointer moved DX pixels sideways (``"pointermove+40"``)."""
    page.evaluate(
        """([selector, events]) => {
          const piece = document.querySelector(selector);
          const r = piece.getBoundingClientRect();
          for (const event of events) {
            const [kind, dx] = event.split("+");
            piece.dispatchEvent(new PointerEvent(kind, {pointerType: "touch", bubbles: true, isPrimary: true,
              clientX: r.left + r.width / 2 + Number(dx || 0), clientY: r.top + r.height / 2}));
          }
        }""",
        [selector, list(events)],
    )


def test_a_long_press_shows_a_tooltip_and_a_tap_or_a_swipe_does_not(page, server):
    """On a touch screen a bubble shows after a long press (~0.5 s), goes with the next touch, and a
    short tap or a press that moves (a swipe) shows none."""
    _celtae(page, server)
    card = "[data-key^=market-][data-tip]"
    page.locator(card).first.scroll_into_view_if_needed()
    _touch(page, card, "pointerdown", "pointerup")  # a tap
    page.wait_for_timeout(800)
    assert page.evaluate(GONE)
    _touch(page, card, "pointerdown", "pointermove+40")  # a swipe
    page.wait_for_timeout(800)
    assert page.evaluate(GONE)
    _touch(page, card, "pointerup")
    _touch(page, card, "pointerdown")  # a long press
    poll(page, SHOWN)
    assert "card: pays for" in page.inner_text("#ludus-tooltip")
    assert page.evaluate(COVERED) == []
    _touch(page, card, "pointerup")
    _touch(page, card, "pointerdown")  # the next touch
    poll(page, GONE)
    assert not page.js_errors
