"""A light page: moves answered by patches over the socket, the view rebuilt equal to the server's,
only its own game's code loaded, and the same JSON patches applied by the browser as by jsonpatch."""

import random

import httpx
import jsonpatch
import pytest
from browser_helpers import BODY, click_random_legal, wait_seat_live, wait_turn

from ludus.server.patches import diff


def _game(server, game, seats):
    created = httpx.post(
        f"{server}/api/games", json={"game": game, "options": {"players": len(seats)}, "seats": seats}
    ).json()
    return created["id"], {s["seat"]: s["token"] for s in created["seats"] if "token" in s}


def _same_view(page, server, gid, token):
    shown = page.evaluate("window.ludusGame.view")
    served = httpx.get(f"{server}/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}).json()
    return {**shown, "server_time": 0} == {**served, "server_time": 0}


@pytest.mark.parametrize("game", ["garum", "celtae"])
def test_moves_by_clicks_are_answered_by_patches_and_the_view_stays_the_servers(page, server, game):
    gid, tokens = _game(server, game, ["human", "random"])
    frames = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    posts = []
    page.on(
        "request",
        lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/actions") else None,
    )
    page.goto(f"{server}/games/{gid}#token={tokens[0]}")
    wait_seat_live(page)  # the socket's seat view is drawn: before it, a move would go by HTTP
    rng = random.Random(2)
    moves = 0
    while moves < 8 and wait_turn(page) == "mine":
        before = int(page.evaluate(f"{BODY}.version"))
        click_random_legal(page, rng)
        page.wait_for_function(f"Number({BODY}.version) > {before} && {BODY}.busy !== 'true'")
        moves += 1
    page.wait_for_function(f"{BODY}.busy !== 'true'")
    wait_turn(page)
    assert _same_view(page, server, gid, tokens[0])
    assert posts == []  # moves went over the socket
    patches = [f for f in frames if isinstance(f, str) and f.startswith('{"patch"')]
    assert len(patches) >= moves - 1  # the first push after the page opened may come whole
    assert max(len(p.encode()) for p in patches) < 10_000
    assert not page.js_errors


def test_a_gap_in_the_patches_reloads_the_whole_view(page, server):
    gid, tokens = _game(server, "garum", ["human", "human"])
    page.goto(f"{server}/games/{gid}#token={tokens[0]}")
    wait_seat_live(page)  # the gap below is in the seat's patches: they start from its socket view
    # the page forgets its base, as if a message had been dropped
    page.evaluate(
        "window.ludusGame.live = null; window.ludusGame.view = {...window.ludusGame.view, version: -5}"
    )
    with httpx.Client(base_url=server) as http:
        view = http.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
        mover = view["current_player"]
        auth = {"Authorization": f"Bearer {tokens[mover]}"}
        legal = http.get(f"/api/games/{gid}", headers=auth).json()["legal_actions"]
        assert (
            http.post(
                f"/api/games/{gid}/actions",
                json={"action": legal[0], "version": view["version"]},
                headers=auth,
            ).status_code
            == 200
        )
    page.wait_for_function(f"Number({BODY}.version) === {view['version'] + 1}")
    assert _same_view(page, server, gid, tokens[0])


@pytest.mark.parametrize(("game", "other"), [("garum", "celtae"), ("celtae", "garum")])
def test_a_game_page_loads_only_its_own_games_module(page, server, game, other):
    gid, tokens = _game(server, game, ["human", "human"])
    scripts = []
    page.on("request", lambda r: scripts.append(r.url) if r.url.endswith(".js") else None)
    page.goto(f"{server}/games/{gid}#token={tokens[0]}")
    page.wait_for_function(f"{BODY}.version !== undefined")
    assert any(f"/plugins/{game}/" in url for url in scripts)
    assert not any(f"/plugins/{other}/" in url for url in scripts)


def test_the_browser_applies_patches_as_jsonpatch_does(page, server):
    rng = random.Random(9)

    def value(depth=0):
        kind = rng.randrange(6 if depth < 3 else 3)
        if kind == 0:
            return rng.randrange(-3, 4)
        if kind == 1:
            return rng.choice(["a", "b/", "~c", ""])
        if kind == 2:
            return None
        if kind in (3, 4):
            return [value(depth + 1) for _ in range(rng.randrange(4))]
        return {rng.choice(["k", "l/", "m~", "n"]): value(depth + 1) for _ in range(rng.randrange(4))}

    cases = []
    for _ in range(200):
        old, new = value(), value()
        if rng.random() < 0.5 and isinstance(old, (dict, list)):
            new = jsonpatch.apply_patch(
                old, [{"op": "add", "path": "/0" if isinstance(old, list) else "/z", "value": value()}]
            )
        cases.append([old, diff(old, new), new])
    page.goto(f"{server}/replay")
    results = page.evaluate(
        """async (cases) => {
      const {applyPatch} = await import('/static/js/api.js');
      // JSON text with each object's keys sorted: equal values, whatever the keys' order
      const canon = (v) => JSON.stringify(v, (k, x) => x && typeof x === "object" && !Array.isArray(x)
        ? Object.fromEntries(Object.keys(x).sort().map((key) => [key, x[key]])) : x);
      return cases.map(([old, ops, want]) => {
        const before = canon(old);
        const got = applyPatch(old, ops);
        return canon(got) === canon(want) && canon(old) === before;
      });
    }""",
        cases,
    )
    assert all(results), [c for c, ok in zip(cases, results, strict=True) if not ok][:3]


def test_the_board_svg_goes_gzipped_to_a_client_that_takes_it(server):
    gid, tokens = _game(server, "garum", ["human", "human"])
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    packed = httpx.get(f"{server}/api/games/{gid}/svg", headers={**auth, "Accept-Encoding": "gzip"})
    plain = httpx.get(f"{server}/api/games/{gid}/svg", headers={**auth, "Accept-Encoding": "identity"})
    assert packed.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
    assert packed.text == plain.text and plain.text.startswith("<svg")
    assert packed.num_bytes_downloaded * 5 < plain.num_bytes_downloaded
