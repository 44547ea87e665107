"""Views, actions, undo, leave and record through the HTTP API, with every error they can answer."""

from __future__ import annotations

import random

import pytest

import ludus


def test_the_seat_to_move_sees_its_legal_actions_and_the_others_none(table):
    t = table()
    mover = t.view()["current_player"]
    view = t.view(mover)
    assert view["seat"] == mover and view["legal_actions"] and view["version"] == 0
    assert set(view) >= {"version", "current_player", "terminal", "scores", "observation", "legal_actions"}
    for seat in set(t.tokens) - {mover}:
        assert t.view(seat)["legal_actions"] == []


def test_without_a_token_the_spectator_view_has_no_legal_actions(table):
    t = table()
    view = t.view()
    assert view["seat"] is None and view["legal_actions"] == []
    assert view["observation"]["seat"] is None


def test_a_wrong_token_is_401_not_the_spectator_view(table, client):
    t = table()
    r = client.get(f"/api/games/{t.id}", headers={"Authorization": "Bearer not-a-token"})
    assert r.status_code == 401 and "token" in r.json()["detail"]
    r = client.get(f"/api/games/{t.id}", headers={"Authorization": "Basic abc"})
    assert r.status_code == 401 and "Bearer" in r.json()["detail"]


def test_an_unknown_game_is_404(client):
    for path in ("/api/games/missing", "/api/games/missing/record", "/api/games/bad%20id"):
        r = client.get(path)
        assert r.status_code == 404 and "no game" in r.json()["detail"]


def test_a_legal_action_returns_the_new_view(table):
    t = table()
    view = t.mover_view()
    r = t.act(view["seat"], view["legal_actions"][0], view["version"])
    assert r.status_code == 200
    after = r.json()
    assert after["version"] == 1 and after["ply"] == 1 and after["seat"] == view["seat"]
    assert t.view()["version"] == 1


def test_the_view_carries_the_public_move_log(table):
    t = table()
    view = t.mover_view()
    action = view["legal_actions"][0]
    t.act(view["seat"], action, view["version"])
    log = t.view()["log"]  # a game may add details to each entry (Garum: colour, round, sentence)
    assert [{"seat": e["seat"], "action": e["action"]} for e in log] == [
        {"seat": view["seat"], "action": action}
    ]


def _unchanged(t, before):
    now = t.view(before["seat"])
    assert (now["version"], now["observation"], now["legal_actions"]) == (
        before["version"],
        before["observation"],
        before["legal_actions"],
    )


def test_action_errors_change_nothing(table, client):
    t = table()
    view = t.mover_view()
    seat, version, action = view["seat"], view["version"], view["legal_actions"][0]
    url = f"/api/games/{t.id}/actions"
    # missing token
    r = client.post(url, json={"action": action, "version": version})
    assert r.status_code == 401
    # wrong token
    r = client.post(
        url, json={"action": action, "version": version}, headers={"Authorization": "Bearer x" * 3}
    )
    assert r.status_code == 401
    # a seat not to move
    other = next(s for s in t.tokens if s != seat)
    r = t.act(other, action, version)
    assert r.status_code == 403 and "not Seat" in r.json()["detail"]
    # stale version
    r = t.act(seat, action, version + 5)
    assert r.status_code == 409 and "stale" in r.json()["detail"]
    # illegal action: the engine's reason
    r = t.act(seat, "place T99 c1.1 r0", version)
    assert r.status_code == 422 and r.json()["detail"]
    r = t.act(seat, "\x00 garbage", version)
    assert r.status_code == 422 and "notation" in r.json()["detail"]
    # malformed bodies
    r = client.post(url, content=b"{nope", headers={**t.auth(seat), "Content-Type": "application/json"})
    assert r.status_code == 400
    r = client.post(url, json={"action": action}, headers=t.auth(seat))
    assert r.status_code == 422 and "version" in r.json()["detail"]
    _unchanged(t, view)


def test_the_same_version_wins_once(table):
    t = table()
    view = t.mover_view()
    first = t.act(view["seat"], view["legal_actions"][0], view["version"])
    second = t.act(view["seat"], view["legal_actions"][0], view["version"])
    assert first.status_code == 200 and second.status_code in (403, 409)


def _to_mid_turn(t):
    """Play until the seat to move has made a decision of its current turn that may be undone."""
    rng = random.Random(5)
    for _ in range(200):
        view = t.mover_view()
        seat = view["seat"]
        r = t.act(seat, rng.choice(view["legal_actions"]), view["version"])
        assert r.status_code == 200
        after = r.json()
        if after["current_player"] == seat and not after["terminal"]:
            return view, after
    pytest.fail("no turn with two decisions")


def test_undo_takes_back_the_seats_own_decision_within_its_turn(table):
    t = table()
    before, mid = _to_mid_turn(t)
    seat = before["seat"]
    r = t.client.post(f"/api/games/{t.id}/undo", json={"version": mid["version"]}, headers=t.auth(seat))
    assert r.status_code == 200, r.text
    undone = r.json()
    assert undone["version"] == mid["version"] + 1 and undone["ply"] == before["ply"]
    assert undone["observation"] == before["observation"]
    assert sorted(undone["legal_actions"]) == sorted(before["legal_actions"])
    # nothing left to undo in this turn: the turn's start is the barrier
    r = t.client.post(f"/api/games/{t.id}/undo", headers=t.auth(seat))
    assert r.status_code == 422 and "nothing to undo" in r.json()["detail"]


def test_undo_is_refused_to_a_seat_not_to_move_and_when_stale(table):
    t = table()
    before, mid = _to_mid_turn(t)
    other = next(s for s in t.tokens if s != before["seat"])
    r = t.client.post(f"/api/games/{t.id}/undo", headers=t.auth(other))
    assert r.status_code == 403
    r = t.client.post(f"/api/games/{t.id}/undo", json={"version": 0}, headers=t.auth(before["seat"]))
    assert r.status_code == 409
    r = t.client.post(f"/api/games/{t.id}/undo")
    assert r.status_code == 401
    assert t.view()["version"] == mid["version"]


def test_undo_never_crosses_another_seats_action(table):
    t = table()
    rng = random.Random(2)
    for _ in range(200):  # play until a new turn has just begun
        view = t.mover_view()
        after = t.act(view["seat"], rng.choice(view["legal_actions"]), view["version"]).json()
        if after["current_player"] != view["seat"]:
            break
    mover = t.view()["current_player"]
    for seat in t.tokens:
        r = t.client.post(f"/api/games/{t.id}/undo", headers=t.auth(seat))
        assert r.status_code == (422 if seat == mover else 403), r.text


def test_a_celtae_leader_flip_once_revealed_is_never_undone_however_often_asked(table):
    """Issue 11: the last seat to decide the flip sees the other's choice; asking again and again
    to take its own choice back must always be refused (the engine decides, not chance)."""
    t = table(game="celtae", seats=["human", "human"])
    rng = random.Random(5)
    for _ in range(3000):
        view = t.view()
        if (view["observation"]["pending"] or {}).get("kind") == "leader flip":
            break
        mover = t.mover_view()
        assert t.act(mover["seat"], rng.choice(mover["legal_actions"]), mover["version"]).status_code == 200
    else:
        pytest.fail("no leader flip reached")
    first = t.mover_view()
    assert t.act(first["seat"], "flip", first["version"]).status_code == 200
    last = t.mover_view()
    assert last["seat"] != first["seat"]
    after = t.act(last["seat"], "keep", last["version"]).json()
    assert after["observation"]["players_info"][first["seat"]]["flip"] == "flip"
    for _ in range(30):
        r = t.client.post(f"/api/games/{t.id}/undo", headers=t.auth(last["seat"]))
        assert r.status_code in (403, 422), r.text
    assert t.view()["version"] == after["version"]


def test_a_celtae_decision_that_showed_nothing_is_undone(table):
    t = table(game="celtae", seats=["human", "human"])
    rng = random.Random(4)
    for _ in range(3000):
        view = t.mover_view()
        if "move 1" in view["legal_actions"]:
            break
        assert t.act(view["seat"], rng.choice(view["legal_actions"]), view["version"]).status_code == 200
    else:
        pytest.fail("no 'move 1' offered")
    after = t.act(view["seat"], "move 1", view["version"]).json()
    r = t.client.post(
        f"/api/games/{t.id}/undo", json={"version": after["version"]}, headers=t.auth(view["seat"])
    )
    assert r.status_code == 200, r.text
    assert r.json()["observation"] == view["observation"]


def test_leave_hands_the_seat_to_a_bot_who_finishes_the_game(client):
    r = client.post("/api/games", json={"game": "garum", "seats": ["human", "random"]})
    body = r.json()
    gid, token = body["id"], body["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    left = client.post(f"/api/games/{gid}/leave", headers=auth)
    assert left.status_code == 200 and left.json()["seat"] == 0 and left.json()["bot"]
    assert client.post(f"/api/games/{gid}/leave", headers=auth).status_code == 403
    assert client.post(f"/api/games/{gid}/leave").status_code == 401
    view = _wait(client, gid, lambda v: v["terminal"])
    assert view["seats"][0]["left"] and view["winners"]
    r = client.post(
        f"/api/games/{gid}/actions", json={"action": "pass", "version": view["version"]}, headers=auth
    )
    assert r.status_code == 403


def _wait(client, gid, predicate, seconds=30.0):
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        view = client.get(f"/api/games/{gid}").json()
        if predicate(view):
            return view
        time.sleep(0.05)
    pytest.fail(f"game {gid} did not reach the expected state: {view}")


def test_the_record_is_403_before_the_end_and_replays_to_the_final_view_after(table):
    t = table(seats=["human", "human"])
    r = t.client.get(f"/api/games/{t.id}/record")
    assert r.status_code == 403 and "over" in r.json()["detail"]
    t.play_random(random.Random(4))
    final = t.view()
    record = t.client.get(f"/api/games/{t.id}/record").json()
    assert set(record) == {"game", "config", "seed", "actions"} and len(record["actions"]) == final["ply"]
    state = ludus.replay(record)
    assert state.is_terminal() and state.scores() == final["scores"]
    assert state.observation(None) == final["observation"]
