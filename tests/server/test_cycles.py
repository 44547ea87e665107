"""A move leaves no reference cycle behind: what playing makes is freed by reference counting at
once, so the garbage collector has nothing to find. Under load every move used to leave one
(``Details`` kept its own bound method), and under a 1,000-game load the server's young
collections, each walking every game's newest state, came every ~5 s instead of every ~11 s."""

from __future__ import annotations

import asyncio
import gc
import random

import pytest

from ludus.server.hub import Hub


@pytest.mark.parametrize("path", ["worker thread", "event loop"])
@pytest.mark.parametrize("game", ["garum", "celtae"])
def test_moves_leave_no_reference_cycles(service, game, path, monkeypatch):
    if path == "event loop":  # cached, current and free: never the worker thread's way

        def not_here(*args):
            raise AssertionError("played in a worker thread")

        monkeypatch.setattr(service.moves, "_play_waiting", not_here)
    hub = Hub()
    hub.loop = asyncio.new_event_loop()  # views are made for the watching seats, as when served
    service.games.listeners = [hub.publish]
    created = service.lobby.create(game, {"players": 2}, ["human", "human"])
    gid = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    for seat in tokens:
        hub.subscribe(gid, seat)
    rng = random.Random(3)

    def play(moves: int) -> int:
        played = 0
        for _ in range(moves):
            view = service.view(gid, None)
            if view["terminal"]:
                break
            seat = view["current_player"]
            mine = service.view(gid, tokens[seat])
            move = (gid, tokens[seat], rng.choice(mine["legal_actions"]), mine["version"])
            if path == "event loop":  # a WebSocket's action: played on the loop, written by the writer thread
                hub.loop.run_until_complete(service.moves.play(*move))
            else:
                service.moves.act(*move)
            played += 1
        return played

    play(5)  # caches and lazily made tables first
    gc.collect()
    gc.disable()
    try:
        played = play(60)
        found = gc.collect()
    finally:
        gc.enable()
        hub.loop.close()
    assert played >= 30
    assert found < played // 4, f"{found} objects in reference cycles after {played} moves"


_GC_PROBE = """
import gc, sys, time, weakref
from ludus.server import tune_gc

class Node:
    pass

def cycle():
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a

started = [0, 0, 0]  # collections begun, by generation (counted by the collector's own callback)

def count(phase, info):
    if phase == "start":
        started[info["generation"]] += 1

def wait(what, why):
    deadline = time.monotonic() + 60  # a bound on the wait only: a loaded machine is slow, not wrong
    while not what():
        assert time.monotonic() < deadline, why
        time.sleep(0.01)

def young_collections(n):
    # the (n+1)-th young collection from now has begun: n have finished, each with its freeze
    goal = started[0] + n + 1
    wait(lambda: started[0] >= goal, "the young collections stopped")

full_seconds = float(sys.argv[1])
tune_gc(young_seconds=0.05, full_seconds=full_seconds)
gc.callbacks.append(count)
assert not gc.isenabled()
kept = cycle()
frozen_before = gc.get_freeze_count()
young_collections(1)
assert gc.get_freeze_count() > frozen_before, "the survivors were not frozen"
late = weakref.ref(kept)
del kept  # a cycle frozen while alive, garbage now: only a full collection finds it
if full_seconds == 0:  # no full collection: a young cycle goes at the next young one, a frozen one stays
    import threading
    stop = threading.Event()

    def litter():  # a program that keeps making garbage cycles: every tick collects again
        while not stop.is_set():
            cycle()
            time.sleep(0.002)

    threading.Thread(target=litter, daemon=True).start()
    freed = 0
    for _ in range(50):  # a cycle made between a collection and its freeze is frozen: the design's race
        young = weakref.ref(cycle())
        young_collections(1)
        freed += young() is None
        if freed:
            break
    stop.set()
    assert freed, "no young cycle was freed by the young collections"
    young_collections(3)
    assert late() is not None, "frozen objects were collected without a full collection"
    assert started[2] == 0
else:
    full_before = started[2]
    wait(lambda: late() is None, "the full collection did not free a cycle frozen while alive")
    assert started[2] > full_before, "a frozen cycle was freed, but not by a full collection"
print("ok")
"""


@pytest.mark.parametrize("full_seconds", [0, 0.5], ids=["young collections only", "full collections too"])
def test_tune_gc_collects_young_cycles_by_time_and_freezes_what_survives(full_seconds):
    """The server's collector (``tune_gc``): no collection by allocation count; a thread collects the
    young objects every ``young_seconds`` and freezes the survivors; only a full collection frees the
    cycles that were frozen while still alive. In a process of its own (it changes the collector);
    the collections are counted by the collector's callback, not timed."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _GC_PROBE, str(full_seconds)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_quiet_young_collections_run_one_tick_in_n_until_one_finds_garbage():
    """Two young collections in a row that found nothing: then only one tick in ``quiet_every``
    collects; a collection that finds garbage (``quiet`` back to 0) brings one every tick again."""
    from ludus.server import young_due

    assert [young_due(t, 0, 8) for t in range(1, 9)] == [True] * 8
    assert [young_due(t, 1, 8) for t in range(1, 9)] == [True] * 8
    assert [t for t in range(1, 25) if young_due(t, 2, 8)] == [8, 16, 24]
    assert [t for t in range(1, 25) if young_due(t, 5, 1)] == list(range(1, 25))


def test_the_servers_collector_skips_quiet_ticks_and_collects_every_tick_while_garbage_comes():
    """``_collections`` over ticks whose collections find garbage or not (the collector and the clock
    replaced): quiet ticks collect one in ``quiet_every``, garbage makes every tick collect again, and
    every tick freezes."""
    import ludus.server as server

    found = iter([0, 0, 0, 5, 0, 0, 0, 0, 0, 0])  # what each collection finds, in turn
    calls: list[str] = []

    class Collector:
        def collect(self, generation=2):
            calls.append(f"collect{generation}")
            return next(found)

        def freeze(self):
            calls.append("freeze")

        def unfreeze(self):
            calls.append("unfreeze")

    class Stop(Exception):
        pass

    ticks = iter(range(20))

    class Clock:
        @staticmethod
        def sleep(_seconds):
            if next(ticks) == 19:
                raise Stop

        @staticmethod
        def monotonic():
            return 0.0

    import sys

    saved = sys.modules["gc"], sys.modules["time"]
    sys.modules["gc"], sys.modules["time"] = Collector(), Clock()  # what _collections imports
    try:
        with pytest.raises(Stop):
            server._collections(0.25, 0, 4)
    finally:
        sys.modules["gc"], sys.modules["time"] = saved
    per_tick = " ".join(calls).replace("collect0 freeze", "C").replace("freeze", "-").split()
    # ticks 1-2 collect (quiet 0, 1), then ticks 4 and 8 only; tick 8's finds garbage: 9, 10 collect,
    # then quiet again: 12, 16 only
    assert per_tick == [
        "C",
        "C",
        "-",
        "C",
        "-",
        "-",
        "-",
        "C",
        "C",
        "C",
        "-",
        "C",
        "-",
        "-",
        "-",
        "C",
        "-",
        "-",
        "-",
    ]
