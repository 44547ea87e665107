"""Steps the browser tests share: create a game in the lobby, wait for a turn, play by clicks."""

from __future__ import annotations

import contextlib
import random
import secrets
import threading
import time
from collections.abc import Iterator

BODY = "document.body.dataset"
# Pages driven by these tests are instant (js/motion.js: no piece travels under automation); a
# context given this init script (``context.add_init_script(MOTION_ON)``) has its pieces travel again.
MOTION_ON = "try { localStorage.setItem('ludus:motion', 'on'); } catch (e) {}"


def create_in_lobby(page, server: str, game: str, options: dict[str, str], seats: list[str]) -> None:
    """Fill the lobby's form by clicks and create the game (options by their values as written,
    "baelo claudia", or their words; a bot by program through the "Advanced" part)."""
    page.goto(server + "/")
    page.check(f"[data-testid=game-{game}]")
    for name, label in options.items():
        if not page.is_visible(f"#opt-{name}"):
            page.click("#advanced > summary")
        value = page.eval_on_selector(
            f"#opt-{name}",
            "(s, v) => [...s.options].find((o) => o.dataset.value === v || o.textContent === v)?.value",
            label,
        )
        assert value is not None, f"the lobby offers no {label!r} for {name}"
        page.select_option(f"#opt-{name}", value=value)
    offered = page.eval_on_selector_all("#seat-0 option", "os => os.map((o) => o.value)")
    if any(kind not in offered for kind in seats):
        page.click("#advanced > summary")  # the bots by program
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", value=kind)
    page.click("[data-testid=create]")
    page.wait_for_url("**/games/**")  # Create takes the creator straight into the seat


def open_my_seat(page) -> str:
    """Wait for the seat's view the lobby opened after Create; returns the game id."""
    poll(page, f"{BODY}.version !== undefined")
    return page.url.split("/games/")[1].split("?")[0].split("#")[0]


SEAT_VIEW_LIVE = (
    "(() => { const g = window.ludusGame;"
    " return !!g && !!g.live && g.live.seat !== null && g.view === g.live; })()"
)


def wait_seat_live(page, timeout: float = 15.0) -> None:
    """Wait until the page shows its seat's view from the socket. A seat's page draws a first view
    from HTTP, then the socket's spectator view (not drawn), then the seat's, drawn again: that
    redraw rebuilds the board's targets and the controls, so a focus, hover or click the test made
    before it may be lost, and a move sent before it goes by HTTP. Call it once the page is open."""
    poll(page, SEAT_VIEW_LIVE, timeout)


def wait_turn(page, timeout: float = 20_000) -> str:
    """Wait until this page may move ("mine") or the game is over ("over")."""
    page.wait_for_function(
        f"({BODY}.myTurn === 'true' || {BODY}.terminal === 'true') && {BODY}.busy !== 'true'", timeout=timeout
    )
    return "over" if page.evaluate(f"{BODY}.terminal") == "true" else "mine"


def wait_board_turn(page) -> str:
    """``wait_turn``, then on a turn also the board drawn from that turn's view: the server draws
    the board apart from the view, and the page lays its click targets (Garum's overlay) on the
    drawing once it is there, so a first turn may come before anything can be clicked."""
    if wait_turn(page) == "over":
        return "over"
    page.wait_for_function(f"{BODY}.boardVersion === {BODY}.version")
    return "mine"


def version(page) -> int:
    return int(page.evaluate(f"{BODY}.version"))


def wait_version_after(page, before: int, timeout: float = 15_000) -> None:
    page.wait_for_function(f"Number({BODY}.version) > {before}", timeout=timeout)


def click_random_legal(page, rng: random.Random) -> str:
    """Click one of the listed legal moves (buttons carrying data-action)."""
    buttons = page.locator("#legal [data-action]")
    count = buttons.count()
    assert count > 0, "it is this page's turn but no legal move is offered"
    button = buttons.nth(rng.randrange(count))
    action = button.get_attribute("data-action")
    button.click()
    return action


def garum_decision_by_board(page, rng: random.Random) -> str:
    """One Garum decision by the two-step board clicks (tile, orientation, then a slot or a line)."""
    phase = page.evaluate(f"{BODY}.phase")
    if phase in ("place", "ghost"):
        tiles = page.locator("[data-tile]:not([disabled])")
        tiles.nth(rng.randrange(tiles.count())).click()
        turns = page.locator("[data-orientation]")
        if turns.count() > 1 and rng.random() < 0.5:
            turns.nth(rng.randrange(turns.count())).click()
        hits = page.locator(".board-overlay [data-board-action]")
        target = hits.nth(rng.randrange(hits.count()))
        action = target.get_attribute("data-board-action")
        target.click()
        return action
    if phase == "worker":
        lines = page.locator(".board-overlay [data-board-action]")
        if lines.count() and rng.random() < 0.6:
            kinds = page.locator("#controls [data-worker]")
            if kinds.count() > 1 and rng.random() < 0.3:
                kinds.nth(1).click()
                lines = page.locator(".board-overlay [data-board-action]")
            target = lines.nth(rng.randrange(lines.count()))
            action = target.get_attribute("data-board-action")
            target.locator("rect").first.click()
            return action
        page.click("#controls button:text-is('Pass')")
        return "pass"
    if phase == "choose":
        hits = page.locator(".board-overlay [data-board-action]")
        target = hits.nth(rng.randrange(hits.count()))
        action = target.get_attribute("data-board-action")
        target.click()
        return action
    raise AssertionError(f"unexpected Garum phase {phase!r}")


def poll(page, expression: str, timeout: float = 15.0) -> object:
    """Wait until ``expression`` is truthy in the page; its value. Unlike wait_for_function, this
    evaluates through the DevTools protocol, so it works under a CSP that forbids eval()."""
    from playwright.sync_api import Error

    deadline = time.monotonic() + timeout
    while True:
        try:
            value = page.evaluate(expression)
        except Error as exc:  # a page between two documents (no body yet, its context gone): not yet
            value, last = None, exc
        else:
            last = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(
                f"still false after {timeout} s: {expression}" + (f" ({last})" if last else "")
            )
        time.sleep(0.05)


def api_game(
    server: str,
    game: str,
    players: int = 2,
    moves: int | None = None,
    seed: int = 1,
    names: list[str] | None = None,
) -> tuple[str, dict]:
    """A game of human seats (named ``names`` if given) created through the API and played ``moves``
    random moves in (to its end when None) over HTTP: (game id, seat tokens)."""
    import httpx

    body = {"game": game, "options": {"players": players}, "seats": ["human"] * players}
    created = httpx.post(f"{server}/api/games", json=body | ({"names": names} if names else {})).json()
    gid, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"] if "token" in s}
    rng = random.Random(seed)
    with httpx.Client(base_url=server, timeout=60) as http:
        while moves is None or moves > 0:
            view = http.get(f"/api/games/{gid}").json()
            if view["terminal"]:
                break
            auth = {"Authorization": f"Bearer {tokens[view['current_player']]}"}
            legal = http.get(f"/api/games/{gid}", headers=auth).json()["legal_actions"]
            http.post(
                f"/api/games/{gid}/actions",
                json={"action": rng.choice(legal), "version": view["version"]},
                headers=auth,
            )
            moves = None if moves is None else moves - 1
    return gid, tokens


PASSWORD = "correct horse battery"  # the browser tests' accounts


def signed_up(page, server: str, prefix: str) -> str:
    """Sign up through the page (the "Sign in" page's "Create account") under a new name starting with
    ``prefix`` (the browser tests share one server); the name, once the page shows the account."""
    name = prefix + secrets.token_hex(4)
    page.goto(f"{server}/signin")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account", exact=True).click()
    page.wait_for_url(lambda url: "/signin" not in url)
    page.wait_for_load_state()
    poll(page, f"{BODY}.account === 'signed-in'")
    return name


def own_panel_share(page) -> float:
    """The part of [data-own-panel] inside the viewport (0 when there is none)."""
    return page.evaluate("""() => {
      const p = document.querySelector('[data-own-panel]');
      if (!p) return 0;
      const r = p.getBoundingClientRect();
      const h = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
      const w = Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0));
      return r.width && r.height ? (h * w) / (r.width * r.height) : 0;
    }""")


def count_piece_clicks(page) -> None:
    """Count, in the page, every click on a board or panel piece (``piece_clicks`` reads the count)."""
    page.evaluate("""() => { window.pieceClicks = 0; document.addEventListener('click', (e) => {
      if (e.target.closest('[data-board-action], [data-board-select]')) window.pieceClicks++; }, true); }""")


def piece_clicks(page) -> int:
    return int(page.evaluate("window.pieceClicks"))


def play_out(server: str, gid: str, players: dict) -> None:
    """Play game ``gid`` to its end by each seat's first legal move, every seat by its own client
    (``players``: seat -> an ``httpx.Client`` holding that seat's session)."""
    import httpx

    for _ in range(2000):
        view = httpx.get(f"{server}/api/games/{gid}").json()
        if view["terminal"]:
            return
        mine = players[view["current_player"]].get(f"/api/games/{gid}").json()
        if mine["legal_actions"]:
            players[mine["seat"]].post(
                f"/api/games/{gid}/actions",
                json={"action": mine["legal_actions"][0], "version": mine["version"]},
            )
    raise AssertionError("the game did not end")


@contextlib.contextmanager
def serving(app, port: int = 0) -> Iterator[str]:
    """``app`` served by uvicorn on a loopback port (0: a free one) in a thread of its own: its base URL,
    the server stopped after."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
