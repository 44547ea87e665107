"""The move log in a view is the same whether it was kept and extended across moves or made from
nothing: through moves, undos, stand-in moves and a fresh cache (a restarted server)."""

from __future__ import annotations

import random

import orjson
import pytest

from ludus.server.runtime import BotJob
from ludus.server.seatbots import make_seat_bot
from ludus.server.service import GameService
from ludus.server.settings import Settings
from ludus.server.storage import Store
from ludus.server.views import seat_log


def log_of(rt, seat):
    """``seat_log`` as the view's JSON has it (a kept log comes as JSON text)."""
    return orjson.loads(orjson.dumps({"log": seat_log(rt, seat)}))["log"]


def fresh_log(rt, seat):
    """The log made from nothing (the caches put aside, then restored)."""
    kept = rt.public_log, rt.log_details
    rt.public_log = rt.log_details = None
    try:
        return log_of(rt, seat)
    finally:
        rt.public_log, rt.log_details = kept


@pytest.mark.parametrize("game", ["garum", "celtae"])
def test_kept_log_equals_log_made_from_nothing(service, game):
    created = service.lobby.create(game, {"players": 2}, ["human", "human"])
    gid = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    rng = random.Random(7)
    compared = undone = 0
    marked = False
    for step in range(80):
        view = service.view(gid, None)
        if view["terminal"]:
            break
        seat = view["current_player"]
        mine = service.view(gid, tokens[seat])
        if rng.random() < 0.4:  # an undo when allowed: the kept log must not keep the undone moves
            try:
                mine = service.moves.undo(gid, tokens[seat], mine["version"])
                undone += 1
            except Exception:
                pass
        if mine["legal_actions"]:
            service.moves.act(gid, tokens[seat], rng.choice(mine["legal_actions"]), mine["version"])
        rt = service.games._runtimes[gid]
        if step == 22:  # a stand-in's move marked after the log was kept
            rt.timeouts = {**rt.timeouts, len(rt.owners) - 2: "standin"}  # a ply already in the kept log
        with rt.lock:
            for who in (None, 0, 1):
                kept = log_of(rt, who)
                assert kept == fresh_log(rt, who)
                marked = marked or any(entry.get("timed_out") for entry in kept)
                compared += 1
    assert compared > 100 and undone > 3
    assert marked


def test_log_follows_an_undo_made_by_another_process(tmp_path):
    """An undo and a different move made through another process, while this one did not look, leave
    the log as long as before: this process's kept log must still show the new move."""
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    store_a, store_b = Store(url), Store(url)
    store_a.migrate()
    a, b = GameService(store_a, Settings()), GameService(store_b, Settings())
    created = a.lobby.create("garum", {"players": 2}, ["human", "human"])
    gid = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    replaced = 0
    for _ in range(40):
        seat = a.view(gid, None)["current_player"]
        mine = a.view(gid, tokens[seat])
        played = mine["legal_actions"][0]
        after = a.moves.act(gid, tokens[seat], played, mine["version"])
        if after["terminal"] or after["current_player"] != seat:
            continue
        try:  # through the other process: take the move back and play another one
            undone = b.moves.undo(gid, tokens[seat], after["version"])
        except Exception:
            continue
        others = [x for x in undone["legal_actions"] if x != played]
        if not others or len(undone["log"]) != len(after["log"]) - 1:
            continue
        b.moves.act(gid, tokens[seat], others[-1], undone["version"])
        seen = a.view(gid, None)["log"]
        assert seen == b.view(gid, None)["log"]
        replaced += 1
    assert replaced >= 3
    store_a.dispose()
    store_b.dispose()


def test_kept_log_through_a_bots_moves(service):
    """A bot's moves (and the single-choice steps after them) extend the kept log as the server
    plays them, the same as the log made from nothing."""
    created = service.lobby.create("garum", {"players": 2}, ["human", "random"])
    gid = created["id"]
    token = next(s["token"] for s in created["seats"] if "token" in s)
    rng = random.Random(5)
    bot_moves = 0
    for _ in range(60):
        view = service.view(gid, token)
        if view["terminal"]:
            break
        job = service.turns.next_job(gid)
        if isinstance(job, BotJob):
            assert service.turns.commit_bot(job, make_seat_bot(job.bot_name, job.seconds).step(job.state))
            bot_moves += 1
        else:
            service.moves.act(gid, token, rng.choice(view["legal_actions"]), view["version"])
        rt = service.games._runtimes[gid]
        with rt.lock:
            assert log_of(rt, None) == fresh_log(rt, None)
    assert bot_moves > 10
