"""The move log in a view is the same whether it was kept and extended across moves or made from
nothing: through moves, undos, stand-in moves and a fresh cache (a restarted server)."""

from __future__ import annotations

import random

import pytest

from ludus.server.views import seat_log


def fresh_log(rt, seat):
    """The log made from nothing (the caches put aside, then restored)."""
    kept = rt.public_log, rt.log_details
    rt.public_log = rt.log_details = None
    try:
        return seat_log(rt, seat)
    finally:
        rt.public_log, rt.log_details = kept


@pytest.mark.parametrize("game", ["garum", "celtae"])
def test_kept_log_equals_log_made_from_nothing(service, game):
    created = service.create(game, {"players": 2}, ["human", "human"])
    gid = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    rng = random.Random(7)
    compared = 0
    marked = False
    for step in range(60):
        view = service.view(gid, None)
        if view["terminal"]:
            break
        seat = view["current_player"]
        mine = service.view(gid, tokens[seat])
        if step % 7 == 6:  # an undo now and then: the kept log must not keep the undone moves
            try:
                service.undo(gid, tokens[seat], mine["version"])
                continue
            except Exception:
                pass
        service.play(gid, tokens[seat], rng.choice(mine["legal_actions"]), mine["version"])
        rt = service._runtimes[gid]
        if step == 22:  # a stand-in's move marked after the log was kept
            rt.timeouts = {**rt.timeouts, len(rt.owners) - 2: "standin"}  # a ply already in the kept log
        with rt.lock:
            for who in (None, 0, 1):
                kept = seat_log(rt, who)
                assert kept == fresh_log(rt, who)
                marked = marked or any(entry.get("timed_out") for entry in kept)
                compared += 1
    assert compared > 100
    assert marked
