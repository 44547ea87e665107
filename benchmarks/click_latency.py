"""Click to redrawn board, and replay steps, in Chromium on this machine: the time from a move's click to the next
frame painted with the board of the new version (body[data-board-version]).

A live server (uvicorn, temporary SQLite) and Debian's Chromium driven by Playwright; one seat
plays by clicking its legal moves, the other is a random bot. The page's own clock measures from
the click event to the first animation frame after the board of the new version is in place.

Then a finished game of each in the replay viewer: its load, and each step (the → key to the
next frame painted).

Targets (issue 12): click -> redrawn p50 under 100 ms; a replay step under 50 ms.

    .venv/bin/python benchmarks/click_latency.py               # 40 clicks in Garum and in Celtae
    .venv/bin/python benchmarks/click_latency.py --clicks 80 --games garum
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import httpx
import uvicorn
from local_server import start
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
# measured inside the page: the click's time, then the first frame after the board of a newer version
PROBE = """() => {
  window.__clicks = [];
  let started = null, from = null;
  document.addEventListener("click", (e) => {
    if (e.target.closest("[data-action], [data-board-action]")) { started = e.timeStamp; from = Number(document.body.dataset.version); }
  }, true);
  new MutationObserver(() => {
    if (started === null || Number(document.body.dataset.boardVersion) <= from) return;
    const t0 = started;
    started = null;
    requestAnimationFrame(() => window.__clicks.push(performance.now() - t0));
  }).observe(document.body, {attributes: true, attributeFilter: ["data-board-version"]});
}"""


def serve() -> tuple[str, uvicorn.Server, tempfile.TemporaryDirectory]:
    tmp = tempfile.TemporaryDirectory()
    server, base = start(Path(tmp.name) / "ludus.db", bot_seconds=0.05)
    return base, server, tmp


def measure(browser, base: str, game: str, clicks: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    times: list[float] = []
    while len(times) < clicks:
        created = httpx.post(
            f"{base}/api/games", json={"game": game, "options": {"players": 2}, "seats": ["human", "random"]}
        ).json()
        token = created["seats"][0]["token"]
        # wait_for_function evaluates its predicate with eval(), which the pages' policy forbids
        page = browser.new_page(viewport={"width": 1366, "height": 850}, bypass_csp=True)
        page.goto(f"{base}/games/{created['id']}#token={token}")
        page.wait_for_selector("body[data-live=true]")
        page.evaluate(PROBE)
        while len(times) < clicks:
            page.wait_for_function(
                "(document.body.dataset.myTurn === 'true' || document.body.dataset.terminal === 'true')"
                " && document.body.dataset.busy !== 'true'"
                " && document.body.dataset.boardVersion === document.body.dataset.version"
            )
            if page.evaluate("document.body.dataset.terminal") == "true":
                break
            done = page.evaluate("window.__clicks.length")
            buttons = page.locator("#legal [data-action]")
            buttons.nth(rng.randrange(buttons.count())).click()
            page.wait_for_function(f"window.__clicks.length > {done}")
            times.append(page.evaluate("window.__clicks[window.__clicks.length - 1]"))
        page.close()
    return times


STEP_PROBE = """() => {
  window.__steps = [];
  let started = null;
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowRight") started = e.timeStamp; }, true);
  new MutationObserver(() => {
    if (started === null) return;
    const t0 = started;
    started = null;
    requestAnimationFrame(() => window.__steps.push(performance.now() - t0));
  }).observe(document.body, {attributes: true, attributeFilter: ["data-step"]});
}"""


def measure_replay(browser, base: str, game: str, seed: int) -> tuple[float, list[float]]:
    """A finished game (random moves over HTTP) opened in the replay viewer: its load time, then
    each step forward (the → key) to the next frame painted."""
    created = httpx.post(
        f"{base}/api/games", json={"game": game, "options": {"players": 2}, "seats": ["human", "human"]}
    ).json()
    gid, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    rng = random.Random(seed)
    with httpx.Client(base_url=base) as http:
        while not (view := http.get(f"/api/games/{gid}").json())["terminal"]:
            auth = {"Authorization": f"Bearer {tokens[view['current_player']]}"}
            legal = http.get(f"/api/games/{gid}", headers=auth).json()["legal_actions"]
            http.post(
                f"/api/games/{gid}/actions",
                json={"action": rng.choice(legal), "version": view["version"]},
                headers=auth,
            )
    page = browser.new_page(viewport={"width": 1366, "height": 850}, bypass_csp=True)
    started = time.perf_counter()
    page.goto(f"{base}/replay?game={gid}")
    page.wait_for_selector("body[data-loaded=true][data-step='0']")
    loaded = time.perf_counter() - started
    page.evaluate(STEP_PROBE)
    steps = int(page.evaluate("document.getElementById('slider').max"))
    page.click("[data-testid=by-decision]")  # each step of the game (a turn at a time is the default)
    for step in range(1, steps + 1):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"window.__steps.length >= {step}")
    times = page.evaluate("window.__steps")
    page.close()
    return loaded, times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clicks", type=int, default=40)
    parser.add_argument("--games", nargs="+", default=["garum", "celtae"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    base, server, tmp = serve()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM,
                headless=True,
                args=["--no-sandbox", "--disable-gpu", "--no-first-run"],
            )
            for game in args.games:
                times = sorted(measure(browser, base, game, args.clicks, args.seed))
                p90 = times[int(0.9 * (len(times) - 1))]
                print(
                    f"{game:7} click -> redrawn over {len(times)} clicks: p50 {statistics.median(times):6.1f} ms  "
                    f"p90 {p90:6.1f} ms  max {times[-1]:6.1f} ms"
                )
                loaded, steps = measure_replay(browser, base, game, args.seed)
                steps.sort()
                print(
                    f"{game:7} replay: loaded in {loaded * 1e3:.0f} ms (first time: the server replays the game); "
                    f"a step (→ to painted) over {len(steps)} steps: p50 {statistics.median(steps):5.1f} ms  "
                    f"p90 {steps[int(0.9 * (len(steps) - 1))]:5.1f} ms  max {steps[-1]:5.1f} ms"
                )
            browser.close()
    finally:
        server.should_exit = True
        tmp.cleanup()


if __name__ == "__main__":
    main()
