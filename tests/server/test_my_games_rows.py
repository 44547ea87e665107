"""My games rows (``GET /api/me/games``) say who is at the table: the host who invites you, the other
players by name (an invited one as invited, bots as bots), and a turn-based table's time to move."""

from __future__ import annotations

from tables_helpers import created, person


def _row(device, game_id: str) -> dict:
    r = device.get("/api/me/games")
    assert r.status_code == 200, r.text
    return next(g for g in r.json() if g["id"] == game_id)


def test_an_invitation_row_names_the_host_and_the_other_players(client):
    ann, bob, cid = person(client, "ann"), person(client, "bob"), person(client, "cid")
    game = created(
        ann,
        seats=["human", {"kind": "human", "invite": "bob"}, {"kind": "human", "invite": "cid"}, "random"],
        options={"players": 4, "board": "baelo_claudia"},
        turn_hours=48,
    )
    invited = _row(bob, game["id"])
    assert invited["status"] == "invited" and invited["seat"] == 1
    assert invited["host"] == "ann" and invited["turn_hours"] == 48
    assert invited["opponents"] == ["ann", "cid (invited)", "bot (random)"]
    assert invited["options"]["board"] == "baelo_claudia"
    assert bob.post(f"/api/games/{game['id']}/accept").status_code == 200
    hosting = _row(ann, game["id"])
    assert hosting["status"] == "open" and hosting["host"] == "ann"
    assert hosting["opponents"] == ["bob", "cid (invited)", "bot (random)"]
    assert _row(cid, game["id"])["opponents"] == ["ann", "bob", "bot (random)"]


def test_a_real_time_row_has_no_time_to_move_and_names_a_guest_by_their_name(client):
    ann = person(client, "ann")
    game = created(ann, seats=["human", {"kind": "human", "open": True}], options={"players": 2})
    assert client.post(f"/api/games/{game['id']}/join", json={"name": "Zoe"}).status_code == 200
    row = _row(ann, game["id"])
    assert row["turn_hours"] is None and row["host"] == "ann" and row["opponents"] == ["Zoe"]
