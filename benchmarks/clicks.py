"""Clicks per turn in browser games of Celtae played by board clicks only (never the move list).

Starts a server (temporary SQLite, bots unpaced), opens each game in Debian's Chromium through
Playwright and plays the human seat by clicking the board's pieces: a one-click target, or a
first step and then its completion (two clicks). A turn starts with moving the marker or acting
anywhere and runs to the next one. Two kinds of player:

- ``mover``: makes the move on the board when the optional steps (refresh, swap, extra worker)
  are offered beside it, as a player who skips them does; otherwise any piece at random;
- ``random``: any piece at random, optional steps included.

Prints the median and mean clicks per turn of each, and the share of turns of two clicks plus
the action's own choices. ``--shots DIR`` saves a desktop (1366x850) and a phone (390 wide)
screenshot of a turn with the optional steps beside the board.

    python benchmarks/clicks.py --games 2 --players 2
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LUDUS_BOT_PACE", "0")

from local_server import start  # noqa: E402  (after the pace is set)

BODY = "document.body.dataset"
TARGETS = "#board [data-board-action]:not([disabled]), #board [data-board-select]:not([disabled])"


def new_game(base: str, players: int) -> tuple[str, str]:
    import httpx

    options = {"players": players} | ({"difficulty": "easy"} if players == 1 else {})
    seats = ["human"] + ["random"] * (players - 1)
    created = httpx.post(
        f"{base}/api/games", json={"game": "celtae", "options": options, "seats": seats}
    ).json()
    return created["id"], created["seats"][0]["token"]


def wait(page, predicate: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not page.evaluate(predicate):
        if time.monotonic() > end:
            raise TimeoutError(predicate)
        time.sleep(0.02)


def my_turn(page) -> bool:
    wait(
        page,
        f"({BODY}.myTurn === 'true' || {BODY}.terminal === 'true') && {BODY}.busy !== 'true'"
        f" && Number({BODY}.boardVersion) === Number({BODY}.version)",
    )
    return page.evaluate(f"{BODY}.terminal") != "true"


def decide(page, rng: random.Random, kind: str) -> tuple[str, int]:
    """One decision by board clicks; returns its action and how many clicks it took."""
    targets = page.locator(TARGETS)
    if kind == "mover" and page.locator("#board [data-board-skip]:not([disabled])").count():
        targets = page.locator("#board [data-board-skip]:not([disabled])")
    target = targets.nth(rng.randrange(targets.count()))
    action = target.get_attribute("data-board-action")
    target.click()
    if action is not None:
        return action, 1
    page.wait_for_selector("[data-testid=cancel]")
    done = page.locator("#board [data-board-action]:not([disabled])")
    choice = done.nth(rng.randrange(done.count()))
    action = choice.get_attribute("data-board-action")
    choice.click()
    return action, 2


def play(browser, base: str, players: int, kind: str, seed: int, shots: Path | None) -> list[int]:
    gid, token = new_game(base, players)
    clicks: list[int] = []
    rng = random.Random(seed)
    sizes = [("desktop", 1366, 850), ("phone", 390, 850)] if shots else []
    context = browser.new_context(viewport={"width": 1366, "height": 850}, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{base}/games/{gid}#token={token}")
    page.wait_for_selector("#board .cb")
    try:
        while my_turn(page):
            if sizes and page.locator("[data-testid=optional-steps]").count() and len(clicks) > 3:
                for tag, w, h in sizes:
                    page.set_viewport_size({"width": w, "height": h})
                    time.sleep(0.3)
                    page.evaluate("window.scrollTo(0, 0)")
                    page.screenshot(path=str(shots / f"celtae-optional-steps-{tag}.png"))
                page.set_viewport_size({"width": 1366, "height": 850})
                sizes = []
            before = int(page.evaluate(f"{BODY}.version"))
            action, n = decide(page, rng, kind)
            if action.startswith(("move", "anywhere")):
                clicks.append(0)
            if clicks:
                clicks[-1] += n
            wait(page, f"Number({BODY}.version) > {before} || {BODY}.refused !== undefined")
    finally:
        context.close()
    return clicks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per kind of player")
    parser.add_argument("--players", type=int, default=2, choices=(1, 2, 3, 4))
    parser.add_argument(
        "--shots", type=Path, default=None, help="save screenshots of the optional steps here"
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        srv, base = start(Path(tmp) / "ludus.db", bot_seconds=0.1)
        browser = p.chromium.launch(
            executable_path=os.environ.get("LUDUS_CHROMIUM", "/usr/bin/chromium"),
            args=["--no-sandbox", "--disable-gpu"],
            headless=True,
        )
        try:
            for kind in ("mover", "random"):
                turns: list[int] = []
                started = time.monotonic()
                for g in range(args.games):
                    shots = args.shots if (kind == "mover" and g == 0) else None
                    turns += play(browser, base, args.players, kind, 100 + g, shots)
                short = sum(1 for c in turns if c <= 4) / max(1, len(turns))
                print(
                    f"{kind:>6}: {len(turns)} turns in {args.games} games of {args.players} players, clicks per turn "
                    f"median {statistics.median(turns)}, mean {statistics.mean(turns):.2f}, "
                    f"turns of at most 4 clicks {short:.0%} ({time.monotonic() - started:.0f} s)"
                )
        finally:
            browser.close()
            srv.should_exit = True
    return 0


if __name__ == "__main__":
    sys.exit(main())
