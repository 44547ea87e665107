"""The board a page asks for is the view it holds: when bots have moved on meanwhile, the server
still draws that view (replayed from the game's actions), so a page meets no 409 in the normal
flow; a version the game never had, or one an undo took back, is still refused."""

import random

import pytest
from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    from ludus.server import create_app
    from ludus.server.settings import Settings

    db = tmp_path_factory.mktemp("boards") / "ludus.db"
    with TestClient(create_app(f"sqlite:///{db}", settings=Settings(bot_seconds=0.05))) as c:
        yield c


def _game(served, game, options):
    seats = ["human"] * options["players"]
    created = served.post("/api/games", json={"game": game, "options": options, "seats": seats}).json()
    return created["id"], {s["seat"]: s["token"] for s in created["seats"] if "token" in s}


def _play(served, gid, tokens, rng):
    """One random move of the seat to move; its new view."""
    view = served.get(f"/api/games/{gid}").json()
    auth = {"Authorization": f"Bearer {tokens[view['current_player']]}"}
    legal = served.get(f"/api/games/{gid}", headers=auth).json()
    answer = served.post(
        f"/api/games/{gid}/actions",
        json={"action": rng.choice(legal["legal_actions"]), "version": legal["version"]},
        headers=auth,
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def _board(served, gid, headers, version, ply=None):
    params = {"version": version} | ({} if ply is None else {"ply": ply})
    return served.get(f"/api/games/{gid}/svg", headers=headers, params=params)


@pytest.mark.parametrize(("game", "options"), [("garum", {"players": 3}), ("celtae", {"players": 2})])
def test_a_board_the_game_moved_on_from_is_drawn_as_the_page_holds_it(served, game, options):
    gid, tokens = _game(served, game, options)
    rng = random.Random(7)
    watchers = [None, 0, 1]  # the spectator and two seats, each with the boards it was shown
    held = {seat: [] for seat in watchers}
    for _ in range(12):
        for seat in watchers:
            headers = {} if seat is None else {"Authorization": f"Bearer {tokens[seat]}"}
            view = served.get(f"/api/games/{gid}", headers=headers).json()
            board = _board(served, gid, headers, view["version"], view["ply"])
            assert board.status_code == 200
            held[seat].append((view["version"], view["ply"], board.text))
        _play(served, gid, tokens, rng)
    for seat in watchers:
        headers = {} if seat is None else {"Authorization": f"Bearer {tokens[seat]}"}
        for version, ply, text in held[seat]:
            again = _board(served, gid, headers, version, ply)
            assert again.status_code == 200, again.text
            assert again.text == text  # that seat's board as it was: secrets of the time kept
        assert len({text for _, _, text in held[seat]}) > 1
    # without the view's ply, or with a ply not of that version, the server cannot tell: 409
    version, ply, _ = held[0][0]
    assert _board(served, gid, {}, version).status_code == 409
    assert _board(served, gid, {}, version, ply + 1).status_code == 409


def test_a_version_the_game_never_had_or_undid_is_refused(served):
    gid, tokens = _game(served, "garum", {"players": 2, "board": "baelo_claudia"})
    rng = random.Random(3)
    now = served.get(f"/api/games/{gid}").json()
    ahead = _board(served, gid, {}, now["version"] + 1, now["ply"] + 1)
    assert ahead.status_code == 409 and "version" in ahead.json()["detail"]
    placed = _play(served, gid, tokens, rng)  # a tile placed: its seat may take it back
    assert placed["observation"]["phase"] == "worker"
    assert _board(served, gid, {}, placed["version"], placed["ply"]).status_code == 200
    auth = {"Authorization": f"Bearer {tokens[placed['seat']]}"}
    undone = served.post(f"/api/games/{gid}/undo", json={"version": placed["version"]}, headers=auth)
    assert undone.status_code == 200, undone.text
    # the placement's view was taken back: its board is no longer the game's, whatever its ply
    assert _board(served, gid, {}, placed["version"], placed["ply"]).status_code == 409
    after = undone.json()
    assert _board(served, gid, auth, after["version"], after["ply"]).status_code == 200
    moved = _play(served, gid, tokens, rng)
    assert _board(served, gid, auth, after["version"], after["ply"]).status_code == 200
    assert _board(served, gid, auth, moved["version"], moved["ply"]).status_code == 200
