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
def test_moves_leave_no_reference_cycles(service, game, path):
    hub = Hub()
    hub.loop = asyncio.new_event_loop()  # views are made for the watching seats, as when served
    service.listeners = [hub.publish]
    created = service.create(game, {"players": 2}, ["human", "human"])
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
                assert hub.loop.run_until_complete(service.play_on_loop(*move))[0]
            else:
                service.play(*move)
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


def test_tune_gc_collects_young_cycles_by_time_and_freezes_what_survives():
    """The server's collector (``tune_gc``): no collection by allocation count; a thread collects the
    young objects every ``young_seconds`` and freezes the survivors; a full collection frees the
    cycles that were frozen while still alive. In a process of its own: it changes the collector."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent(
        """
        import gc, time, weakref
        from ludus.server import tune_gc

        class Node:
            pass

        def cycle():
            a, b = Node(), Node()
            a.other, b.other = b, a
            return a

        tune_gc(young_seconds=0.05, full_seconds=2.0)
        assert not gc.isenabled()
        young = weakref.ref(cycle())  # garbage at once: the next young collection frees it
        kept = cycle()
        frozen_before = gc.get_freeze_count()
        time.sleep(0.3)
        assert young() is None, "a young cycle outlived the young collections"
        assert gc.get_freeze_count() > frozen_before, "the survivors were not frozen"
        late = weakref.ref(kept)
        del kept  # a cycle frozen while alive, garbage now: only the full collection finds it
        time.sleep(0.3)
        assert late() is not None, "frozen objects were collected before the full collection"
        deadline = time.monotonic() + 5
        while late() is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert late() is None, "the full collection did not free a cycle frozen while alive"
        print("ok")
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
